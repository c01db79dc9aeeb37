// Where the test doubles listen. Podman (netavark) publishes a container's port by choosing a
// free port of the kernel's ephemeral range, then adding a DNAT rule for 127.0.0.1:PORT — it
// does not keep the port bound. A double that then listens on port 0 can be handed that very
// port by the kernel, and every connection to it from this host is redirected into the
// container (or, once the container is gone but its rule lingers, refused): a provider double
// that "refuses" connections in a CI run. Doubles therefore listen below the ephemeral range,
// where neither the engine nor the kernel's port 0 ever picks.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:net';

/** The kernel's ephemeral range's first port (Linux), or null where it cannot be read. */
function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : null;
  } catch {
    return null;
  }
}

const tryListen = (server: Server, port: number, host: string): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(false) : reject(e));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(true);
    });
  });

/** Listens on `host` at a free port below the ephemeral range (port 0 where there is no such range). */
export async function listenOutsideEphemeral(server: Server, host: string): Promise<void> {
  const low = ephemeralLow();
  if (low !== null) {
    for (let i = 0; i < 50; i++) {
      if (await tryListen(server, 10_000 + Math.floor(Math.random() * (low - 10_000)), host)) return;
    }
  }
  if (!(await tryListen(server, 0, host))) throw new Error(`no free port on ${host}`);
}
