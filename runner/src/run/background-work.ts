// Work a run hands over instead of waiting for it: shutting down and removing a finished
// container is the largest part of the runner's own time per scenario (~300 of ~500 ms on
// podman) and nothing in the result depends on it. The orchestrator records the result first,
// then queues the removal here and drains the queue before it returns, so no container
// outlives the command (a crash in between is mopped up by label at the next start, or `clean`).

export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  /**
   * @param limit most pieces of work in flight; add() waits for room beyond it, so a slow
   * engine slows the runs down instead of piling up containers.
   */
  constructor(
    private readonly limit: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Starts `work`; resolves once it runs (at once unless `limit` pieces are in flight). */
  async add(work: () => Promise<void>): Promise<void> {
    while (this.pending.size >= this.limit) await Promise.race(this.pending);
    const p: Promise<void> = work()
      .catch((e: unknown) => this.onError(e))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Resolves when everything added (also during the wait) has finished. */
  async drain(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }
}
