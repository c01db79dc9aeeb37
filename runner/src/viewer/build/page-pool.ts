// Renders the pages a build found stale. A few are rendered inline; many are shared between
// this thread and worker threads, which roughly divides a full build by the core count
// (reading, parsing and serialising each trace is the bulk of it). The build API stays
// synchronous: this thread renders its share, then blocks until the workers' chunks are in.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ScenarioInfoCache } from '../model/oracle.js';
import { claimChunks, QUEUE_SLOTS, WORKER_DONE, WORKERS_OUT } from './page-queue.js';
import type { PageWorkerData } from './page-worker.js';
import { buildScenarioPage, type PageContext, type PageJob, type PageOutcome } from './scenario-page.js';

export interface PoolOptions {
  /** Threads including this one; default: the cores, at most 4. */
  threads?: number;
  /** Below this many pages per thread a worker's start-up costs more than it saves. */
  minJobsPerThread?: number;
  /** Whether this thread renders pages too (default); tests turn it off to load the workers. */
  renderHere?: boolean;
  /** The worker module (tests); default: the one next to this module or the bundle. */
  worker?: WorkerModule;
}

interface WorkerModule {
  entry: string;
  /** Registered before `entry` is imported: tsx, when running from sources. */
  loader?: string;
}

/** A worker that posts nothing for this long is given up on; its pages are rendered here. */
const STALL_MS = 60_000;

// Capped: the threads share one disk for the page writes, and each worker costs ~25 MB.
const defaultThreads = (): number => Math.min(availableParallelism(), 4);

// The worker imports its module and runs it (from sources, tests and bench, it registers tsx
// first). However it ends, it says so, so the main thread never waits on a dead worker.
const BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  (await import(workerData.entry)).runPageWorker(workerData);
})()
  .catch((e) => process.stderr.write('viewer: page worker: ' + (e && e.message) + '\\n'))
  .finally(() => {
    const queue = new Int32Array(workerData.queue);
    Atomics.add(queue, ${WORKERS_OUT}, 1);
    Atomics.notify(queue, ${WORKER_DONE});
  });
`;

/** The worker module next to this one (sources), or next to the bundle; null when there is none. */
function workerModule(): WorkerModule | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    try {
      return { entry: new URL('./page-worker.ts', here).href, loader: import.meta.resolve('tsx/esm/api') };
    } catch {
      return null;
    }
  }
  // dist/runner/viewer-worker.mjs; this code is in dist/runner/cli.mjs or in a chunk in lib/.
  for (const rel of ['./viewer-worker.mjs', '../viewer-worker.mjs']) {
    const bundled = new URL(rel, here);
    if (existsSync(fileURLToPath(bundled))) return { entry: bundled.href };
  }
  return null;
}

export function renderPages(jobs: PageJob[], ctx: PageContext, scenarios: ScenarioInfoCache, opts: PoolOptions = {}): PageOutcome[] {
  const threads = Math.min(opts.threads ?? defaultThreads(), Math.floor(jobs.length / (opts.minJobsPerThread ?? 32)));
  const mod = threads > 1 ? (opts.worker ?? workerModule()) : null;
  if (!mod) return jobs.map((job) => buildScenarioPage(job, ctx, scenarios));

  const queue = new Int32Array(new SharedArrayBuffer(QUEUE_SLOTS * 4));
  const ports: MessagePort[] = [];
  const workers: Worker[] = [];
  for (let k = 1; k < threads; k++) {
    const { port1, port2 } = new MessageChannel();
    const workerData: PageWorkerData & typeof mod = { ...mod, jobs, ctx, queue: queue.buffer as SharedArrayBuffer, port: port2 };
    const worker = new Worker(BOOT, { eval: true, workerData, transferList: [port2] });
    worker.on('error', (err) => process.stderr.write(`viewer: page worker: ${err.message}\n`));
    worker.unref();
    workers.push(worker);
    ports.push(port1);
  }

  const out: Array<PageOutcome | undefined> = new Array(jobs.length);
  try {
    let mine = 0;
    if (opts.renderHere !== false) {
      claimChunks(queue, jobs.length, (start, end) => {
        for (let i = start; i < end; i++) out[i] = buildScenarioPage(jobs[i]!, ctx, scenarios);
        mine += end - start;
      });
    }
    // Wait for the chunks the workers claimed, unless they have all stopped or hang.
    let seen = Atomics.load(queue, WORKER_DONE);
    let lastProgress = Date.now();
    while (mine + seen < jobs.length && Atomics.load(queue, WORKERS_OUT) < workers.length && Date.now() - lastProgress < STALL_MS) {
      Atomics.wait(queue, WORKER_DONE, seen, 1000);
      const now = Atomics.load(queue, WORKER_DONE);
      if (now !== seen) [seen, lastProgress] = [now, Date.now()];
    }
    for (const port of ports) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        for (const [i, outcome] of m.message as Array<[number, PageOutcome]>) out[i] = outcome;
      }
    }
  } finally {
    for (const port of ports) port.close();
    for (const worker of workers) void worker.terminate();
  }
  // Only a worker that failed (or this thread not rendering) leaves a gap.
  return out.map((o, i) => o ?? buildScenarioPage(jobs[i]!, ctx, scenarios));
}
