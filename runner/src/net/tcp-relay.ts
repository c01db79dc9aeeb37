// A TCP relay from an address bridged containers can reach (the bridge gateway) to a service
// on the host's loopback. Podman creates the bridge interface only while a container is
// attached, so the listen address may not exist yet: the relay then picks its port at once
// (the URL handed to containers needs it) and binds as soon as the address appears. A socket
// bound to the gateway keeps working when the bridge is torn down and recreated.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelayOptions {
  /** Address to listen on (the bridge gateway, e.g. 10.88.0.1). */
  listenHost: string;
  /** Loopback service to forward to. */
  targetHost: string;
  targetPort: number;
  /** Peers allowed to connect (e.g. the bridge subnet); others are dropped. Default: everyone. */
  allowPeer?: (address: string) => boolean;
  /** Retry interval while the listen address does not exist yet. */
  bindRetryMs?: number;
  log?: (line: string) => void;
}

export interface TcpRelay {
  readonly listenHost: string;
  readonly port: number;
  readonly target: string;
  /** True once the relay accepts connections. */
  readonly bound: boolean;
  /** Connections forwarded so far (tests, diagnostics). */
  readonly connections: number;
  close(): Promise<void>;
}

/** A bridge appears within a second of a container start; longer means something else is wrong. */
const SLOW_BIND_NOTICE_MS = 15_000;
const LOOPBACK_TARGETS = new Set(['127.0.0.1', '::1', 'localhost']);

function tryListen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host, exclusive: true });
  });
}

/** A free port number, chosen by the kernel on loopback (used before the gateway exists). */
async function pickPort(): Promise<number> {
  const probe = createServer();
  const port = await tryListen(probe, 0, '127.0.0.1');
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

function pipeBoth(a: Socket, b: Socket): void {
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
  a.pipe(b);
  b.pipe(a);
}

export async function startTcpRelay(o: TcpRelayOptions): Promise<TcpRelay> {
  if (!LOOPBACK_TARGETS.has(o.targetHost)) throw new Error(`tcp relay: target ${o.targetHost} is not a loopback address`);
  const log = o.log ?? (() => {});
  const sockets = new Set<Socket>();
  let connections = 0;
  let closed = false;
  let bound = false;
  let timer: NodeJS.Timeout | undefined;

  const newServer = () => {
    const s = createServer((client) => {
      if (o.allowPeer && !o.allowPeer(client.remoteAddress ?? '')) {
        client.destroy();
        return;
      }
      connections++;
      const upstream = connect({ host: o.targetHost, port: o.targetPort });
      for (const x of [client, upstream]) {
        sockets.add(x);
        x.on('close', () => sockets.delete(x));
      }
      pipeBoth(client, upstream);
    });
    // A relay must never keep the runner alive on its own.
    s.unref();
    return s;
  };

  let server = newServer();
  let port: number;
  try {
    port = await tryListen(server, 0, o.listenHost);
    bound = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL') throw e;
    port = await pickPort();
    let warned = false;
    const since = Date.now();
    let slowNoticed = false;
    const retry = async () => {
      if (closed) return;
      server = newServer();
      try {
        await tryListen(server, port, o.listenHost);
        bound = !closed;
        if (closed) server.close();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' && !warned) {
          warned = true;
          log(`relay ${o.listenHost}:${port} → ${o.targetHost}:${o.targetPort}: port taken meanwhile; still retrying`);
        } else if (code !== 'EADDRNOTAVAIL' && code !== 'EADDRINUSE') log(`relay ${o.listenHost}:${port}: ${(err as Error).message}`);
        if (code === 'EADDRNOTAVAIL' && !slowNoticed && Date.now() - since > SLOW_BIND_NOTICE_MS) {
          slowNoticed = true;
          log(`relay: ${o.listenHost} is still not an address of this machine (is the engine remote?); containers cannot reach ${o.targetHost}:${o.targetPort} until it is`);
        }
        timer = setTimeout(() => void retry(), o.bindRetryMs ?? 25);
        timer.unref();
      }
    };
    void retry();
  }

  return {
    listenHost: o.listenHost,
    port,
    target: `${o.targetHost}:${o.targetPort}`,
    get bound() {
      return bound;
    },
    get connections() {
      return connections;
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const s of sockets) s.destroy();
      if (bound) await new Promise<void>((r) => server.close(() => r()));
      bound = false;
    },
  };
}
