// Watches a running unit's events.jsonl for a stuck loop (./stuck-loop.ts), so the run can be
// stopped as soon as the agent has repeated itself enough, not only judged afterwards. The file
// is read through the engine (its archive API: every image, ours or the reference's, writes it at
// the same path), only when the daemon's event count moved, and no more often than a few times
// the last read took, so a log of megabytes costs the engine little. Backends without file
// access (a cluster) get no live watch: the run is still judged by the same rule on the
// collected log (scenario-run.ts).
import { CONTAINER_PATHS } from '@gaia2/contract';
import type { ContainerHandle } from '../engine/index.js';
import { withDeadline } from '../net/deadline.js';
import { feedEventsChunk, StuckLoopDetector, type StuckLoopRecord } from './stuck-loop.js';

/** At least this long between two reads, and at least READ_COST_FACTOR times the last read's time. */
const MIN_READ_GAP_MS = 1000;
const READ_COST_FACTOR = 4;
/** A read that hangs must not hold up the poll loop (and with it the run's deadlines). */
const READ_TIMEOUT_MS = 10_000;

export class StuckLoopWatch {
  private readonly detector: StuckLoopDetector;
  /** Bytes of the log already fed (complete lines only). */
  private consumed = 0;
  private lastEvents = -1;
  private nextReadAt = 0;
  private reading = false;

  constructor(
    private readonly unit: Pick<ContainerHandle, 'readFile'>,
    minToolCalls: number,
    private readonly log?: (line: string) => void,
    private readonly readTimeoutMs = READ_TIMEOUT_MS,
  ) {
    this.detector = new StuckLoopDetector(minToolCalls);
  }

  /** Called on every status poll with the daemon's event count; resolves to the loop once there is one. */
  async check(numEvents: number): Promise<StuckLoopRecord | null> {
    if (this.detector.loop) return this.detector.loop;
    // A streak needs that many agent lines, which the daemon's count includes.
    if (numEvents < this.detector.minToolCalls || numEvents === this.lastEvents || Date.now() < this.nextReadAt || this.reading) return null;
    this.reading = true;
    const started = Date.now();
    try {
      const text = await withDeadline(this.unit.readFile(CONTAINER_PATHS.events), this.readTimeoutMs);
      this.lastEvents = numEvents;
      // The daemon only appends: what was fed stays fed, and only the new bytes are parsed.
      if (text && text.length >= this.consumed) this.consumed += feedEventsChunk(this.detector, text.subarray(this.consumed));
    } catch (e) {
      this.log?.(`stuck-loop watch: cannot read events.jsonl (${(e as Error).message}); the collected log is checked at the end`);
    } finally {
      this.reading = false;
      this.nextReadAt = Date.now() + Math.max(MIN_READ_GAP_MS, READ_COST_FACTOR * (Date.now() - started));
    }
    return this.detector.loop;
  }
}
