// The lightweight runtime for scale benches: no containers. Each Pod gets its own loopback
// address (127.x.y.z with x ≥ 1, all routed to `lo` on Linux) and an in-process HTTP server on each
// declared containerPort, so the API, watches and the pod proxy behave exactly as with podman
// while hundreds of Pods cost only sockets. What the "container" serves and when it exits is
// decided by the app factory (the default is a stand-in adapter: /health and /status).
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { now, type Pod, type Secret } from '../types.js';
import type { Observation, PodRuntime } from './types.js';

export interface FakeApp {
  handler: http.RequestListener;
  /** Resolves with the container's exit code when the app decides to finish. */
  exited?: Promise<number>;
}
export type FakeAppFactory = (pod: Pod, secrets: Map<string, Secret>) => FakeApp;

interface Running {
  ip: string;
  servers: http.Server[];
  report: (o: Observation) => void;
  secrets: Map<string, Secret>;
  startedAt: string;
  logs: string[];
  done: boolean;
  /** Counts the container's starts: an app of an earlier start that exits late ends nothing. */
  run: number;
  /** Settles when the ended container's ports are free again (a restart listens on them). */
  closed: Promise<void>;
}

/** Closes the container's servers; the promise settles once their ports are released. */
function closeAll(servers: http.Server[]): Promise<void> {
  return Promise.all(servers.map((s) => new Promise<void>((res) => { s.closeAllConnections(); s.close(() => res()); }))).then(() => {});
}

/** The default app: answers like an idle adapter and never exits on its own. */
export const idleApp: FakeAppFactory = (pod) => ({
  handler: (req, res) => {
    const body = req.url?.startsWith('/health') ? { ok: true, pod: pod.metadata.name } : { status: 'waiting' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  },
});

/** The n-th pod address: 127.1.0.1 onwards, never .0 or .255 last (254 × 256 × 126 of them). */
export function loopbackAddress(n: number): string {
  const host = (n % 254) + 1;
  const third = Math.floor(n / 254) % 256;
  const second = 1 + (Math.floor(n / (254 * 256)) % 126);
  return `127.${second}.${third}.${host}`;
}

/**
 * Shared by every FakeRuntime in the process, and started at a random place: loopback
 * addresses are machine-wide, and other processes (parallel test files, other doubles) may
 * hold some; an address found in use is skipped.
 */
let nextAddress = randomInt(254 * 256 * 100);

/** Listens on every port at one address; closes what it opened and rejects if one fails. */
async function listenAll(handler: http.RequestListener, ip: string, ports: number[]): Promise<http.Server[]> {
  const opened: http.Server[] = [];
  try {
    for (const port of ports) {
      const s = http.createServer(handler);
      await new Promise<void>((resolve, reject) => { s.once('error', reject); s.listen(port, ip, () => resolve()); });
      opened.push(s);
    }
    return opened;
  } catch (err) {
    for (const s of opened) s.close();
    throw err;
  }
}

const portsOf = (pod: Pod): number[] => pod.spec.containers.flatMap((c) => c.ports ?? []).map((p) => p.containerPort);

export class FakeRuntime implements PodRuntime {
  readonly name = 'fake';
  private readonly pods = new Map<string, Running>();

  constructor(private readonly app: FakeAppFactory = idleApp) {}

  async start(pod: Pod, secrets: Map<string, Secret>, report: (o: Observation) => void): Promise<void> {
    const app = this.app(pod, secrets);
    let ip = '';
    let servers: http.Server[] = [];
    for (let attempt = 0; ; attempt++) {
      ip = loopbackAddress(nextAddress++);
      try {
        servers = await listenAll(app.handler, ip, portsOf(pod));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw err;
      }
    }
    const r: Running = { ip, servers, report, secrets, startedAt: '', logs: [], done: false, run: 0, closed: Promise.resolve() };
    this.pods.set(pod.metadata.uid!, r);
    this.running(pod, r, app);
  }

  /** A new app (a new process) on the pod's own address: the pod keeps its IP, as a restarted container does. */
  async restart(pod: Pod): Promise<void> {
    const r = this.pods.get(pod.metadata.uid!);
    if (!r || !r.done) return;
    await r.closed;
    if (this.pods.get(pod.metadata.uid!) !== r) return; // removed meanwhile
    const app = this.app(pod, r.secrets);
    r.servers = await listenAll(app.handler, r.ip, portsOf(pod));
    r.done = false;
    this.running(pod, r, app);
  }

  private running(pod: Pod, r: Running, app: FakeApp): void {
    const run = ++r.run;
    r.startedAt = now();
    r.logs.push(`fake container for pod ${pod.metadata.name} started`);
    r.report({ state: { running: { startedAt: r.startedAt } }, podIP: r.ip, imageID: pod.spec.containers[0]!.image, containerID: `fake://${pod.metadata.uid}/${r.run}` });
    void app.exited?.then((code) => run === r.run && this.finish(pod, code));
  }

  private finish(pod: Pod, exitCode: number): void {
    const r = this.pods.get(pod.metadata.uid!);
    if (!r || r.done) return;
    r.done = true;
    r.closed = closeAll(r.servers);
    r.logs.push(`exited with code ${exitCode}`);
    r.report({ state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: r.startedAt, finishedAt: now(), containerID: `fake://${pod.metadata.uid}/${r.run}` } } });
  }

  async kill(pod: Pod): Promise<void> { this.finish(pod, 137); }

  async remove(pod: Pod): Promise<void> {
    const r = this.pods.get(pod.metadata.uid!);
    if (r && !r.done) { r.done = true; r.closed = closeAll(r.servers); }
    this.pods.delete(pod.metadata.uid!);
  }

  async logs(pod: Pod, tailLines?: number): Promise<string> {
    const lines = this.pods.get(pod.metadata.uid!)?.logs ?? [];
    return `${(tailLines !== undefined ? lines.slice(-tailLines) : lines).join('\n')}\n`;
  }

  async removeAll(): Promise<void> {
    for (const uid of [...this.pods.keys()]) await this.remove({ metadata: { uid } } as Pod);
  }
}
