// A bare TCP connect as a readiness look. Until a container's adapter listens every look is a
// refused connection; an HTTP client turns each into an error object with a stack (~1 ms of
// CPU here), a connect that is closed again at once costs next to nothing.
import net from 'node:net';

/** True when host:port accepts a TCP connection within timeoutMs (closed again at once). */
export function acceptsConnections(host: string, port: number, timeoutMs = 250): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(t);
      s.destroy();
      resolve(ok);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
