// A bounded worker pool: at most `concurrency` tasks in flight, tasks started in order, and
// no new task once the signal is aborted (running ones finish their own cleanup).

export async function runPool<T>(items: readonly T[], concurrency: number, worker: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++]!;
      await worker(item);
    }
  });
  await Promise.all(lanes);
}
