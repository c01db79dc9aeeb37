// Keeps the time the run's processes spent waiting for a CPU off the simulated clock
// (docs/daemon.md, "The clock and a busy machine"). Every PACED_LOOK_MS the daemon reads how
// long the run was kept waiting by the machine's other work (cpu-wait.ts) and owes that much
// wall time to the clock; it pays it by running the clock slower (its pace). The pace a look
// sets is what the interval after it is charged with at the next look, so the account stays
// exact however late a look comes: over a run, simulated time = (wall time − waited time) ×
// speed, holds aside, to within what the last interval still owes or gives back. On an idle
// machine the wait is near zero and the clock runs at full speed.
import { PACED_LOOK_MS, type SimClock } from './clock.js';
import type { CpuWaitMeter } from './cpu-wait.js';

export interface CpuWaitPacingOptions {
  /** Wall ms between looks (default PACED_LOOK_MS). */
  intervalMs?: number;
  /** Monotonic nanoseconds (tests); default process.hrtime. */
  monoNs?: () => bigint;
}

export class CpuWaitPacing {
  private readonly intervalNs: number;
  private readonly mono: () => bigint;
  private last: bigint | null = null;
  /** Wall ns still to keep off the clock (negative: kept off too much, given back at a pace above 1). */
  private debtNs = 0;
  private keptOffNs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly clock: SimClock,
    private readonly meter: Pick<CpuWaitMeter, 'sample'>,
    opts: CpuWaitPacingOptions = {},
  ) {
    this.intervalNs = (opts.intervalMs ?? PACED_LOOK_MS) * 1e6;
    this.mono = opts.monoNs ?? (() => process.hrtime.bigint());
  }

  /** Wall seconds of CPU wait the clock did not count so far. */
  get keptOffSeconds(): number {
    return this.keptOffNs / 1e9;
  }

  /** Looks every interval from now on (the timer does not keep the process alive). */
  start(): void {
    this.look();
    this.timer = setInterval(() => this.look(), this.intervalNs / 1e6);
    this.timer.unref();
  }

  /** No more looks; the clock runs at full speed again. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clock.setPace(1);
  }

  /** One look: charge the interval since the last one, set the pace for the next. */
  look(): void {
    const now = this.mono();
    const before = this.last;
    this.last = now;
    const wall = before === null ? 0 : Number(now - before);
    const owed = this.meter.sample(wall);
    if (before === null) return;
    // While someone holds the clock it does not run: nothing to keep off, nothing paid back.
    if (this.clock.held) return;
    const paid = wall * (1 - this.clock.currentPace);
    this.keptOffNs += paid;
    this.debtNs += owed - paid;
    // A busy machine stays busy for a while: the next interval is slowed ahead by the share of
    // the last one the run waited, plus what is still owed. Waiting only to pay back would put
    // a turn's wait after its reply (the reply comes before the next look); paying ahead keeps
    // the debt near zero. What was paid too much when the wait stops (or a look came late) is
    // given back by running faster than the speed for a moment (pace up to MAX_PACE).
    const ahead = wall > 0 ? owed / wall : 0;
    this.clock.setPace(1 - ahead - this.debtNs / this.intervalNs);
  }
}
