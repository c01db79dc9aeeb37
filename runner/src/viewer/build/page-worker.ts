// Worker side of build/page-pool.ts: renders chunks of page jobs and posts their outcomes.
// Also the entry of the bundled worker (dist/runner/viewer-worker.mjs).
import type { MessagePort } from 'node:worker_threads';
import { ScenarioInfoCache } from '../model/oracle.js';
import { claimChunks, WORKER_DONE } from './page-queue.js';
import { buildScenarioPage, type PageContext, type PageJob, type PageOutcome } from './scenario-page.js';

export interface PageWorkerData {
  jobs: PageJob[];
  ctx: PageContext;
  queue: SharedArrayBuffer;
  /** Outcomes go here as [job index, outcome] lists, one message per chunk. */
  port: MessagePort;
}

export function runPageWorker(data: PageWorkerData): void {
  const queue = new Int32Array(data.queue);
  const scenarios = new ScenarioInfoCache();
  claimChunks(queue, data.jobs.length, (start, end) => {
    const out: Array<[number, PageOutcome]> = [];
    for (let i = start; i < end; i++) out.push([i, buildScenarioPage(data.jobs[i]!, data.ctx, scenarios)]);
    // Posted before the count moves: once the main thread sees the count, the message is there.
    data.port.postMessage(out);
    Atomics.add(queue, WORKER_DONE, end - start);
    Atomics.notify(queue, WORKER_DONE);
  });
  data.port.close();
}
