// How long something usually takes on this machine right now (a container's boot, its exit),
// learnt from this process's recent runs: waits look first at ~3/4 of the median instead of
// polling from the start. Each look costs CPU (a refused connection, an engine inspect), and
// with 8 containers starting at once on 2 cores, dozens of early looks per run add up.
export class LatencyEstimate {
  private readonly samples = new Map<string, number[]>();

  constructor(
    /** No look before this, whatever was seen (nothing is ever done sooner). */
    private readonly floorMs: number,
    private readonly ceilingMs: number,
    private readonly keep = 16,
  ) {}

  /**
   * What a wait observed (ms). A wait whose first look already found it done learnt only that
   * it took at most `ms`, and a quarter of that is kept: an optimistic guess whose worst cost
   * is a few early looks next time, which then record the real time. Keeping all of it made one
   * slow boot (the first container after a build, its files not yet in the page cache) delay
   * the first look of dozens of later runs; now of ~6 (test/runner/run/latency-estimate.test.ts).
   */
  record(key: string, ms: number, foundAtFirstLook = false): void {
    const s = this.samples.get(key) ?? [];
    s.push(foundAtFirstLook ? ms / 4 : ms);
    if (s.length > this.keep) s.shift();
    this.samples.set(key, s);
  }

  /** When to look first: 3/4 of the recent median, within floor and ceiling. Waits that found
   *  it done at the first look pull the median down, looks that came too early push it up: the
   *  estimate follows a machine that gets faster as well as one that gets slower. */
  firstLookMs(key: string): number {
    const s = this.samples.get(key);
    if (!s?.length) return this.floorMs;
    const median = [...s].sort((a, b) => a - b)[s.length >> 1]!;
    return Math.round(Math.min(this.ceilingMs, Math.max(this.floorMs, median * 0.75)));
  }
}
