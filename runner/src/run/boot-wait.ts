// Waiting for a container's adapter to come up, cheaply. Until the daemon listens, every
// probe is a refused connection; an HTTP client turns each into an error object with a stack
// (~1 ms of CPU here), and a busy machine booting 8 containers at once would spend ~50 of them
// per run. So the first look comes when a boot usually ends, and until the port accepts a
// connection the probes are bare TCP connects; the first /health, when the world is usually
// composed after that.
import net from 'node:net';
import { LatencyEstimate } from './latency-estimate.js';

/** Boot times (start → adapter accepting connections) per image and agent, shared by this process's runs. */
export const bootEstimate = new LatencyEstimate(50, 2000);
/** Then until /health says the agent is connected (world composed, agent attached). */
export const readyEstimate = new LatencyEstimate(0, 1000);

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
