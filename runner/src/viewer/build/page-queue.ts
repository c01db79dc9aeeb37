// The page jobs of one build, claimed a few at a time through a shared counter by the main
// thread and the workers alike: whoever is free takes the next chunk, so a worker that starts
// late or shares its core with other load just renders fewer pages.

/** Shared Int32 slots: the next unclaimed job, jobs the workers finished, workers that stopped. */
export const NEXT_JOB = 0;
export const WORKER_DONE = 1;
export const WORKERS_OUT = 2;
export const QUEUE_SLOTS = 3;

/** Small enough to balance the tail, large enough that messages stay few. */
const CHUNK = 4;

/** Calls `each(start, end)` for chunks of [0, total) until every job is claimed. */
export function claimChunks(queue: Int32Array, total: number, each: (start: number, end: number) => void): void {
  for (;;) {
    const start = Atomics.add(queue, NEXT_JOB, CHUNK);
    if (start >= total) return;
    each(start, Math.min(total, start + CHUNK));
  }
}
