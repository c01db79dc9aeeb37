// The one simulated clock of a scenario run (docs/daemon.md, "When events fire" and "The
// clock"). Sim time is a line through one anchor: the monotonic clock's reading, the sim time
// then, and a rate (sim ns per monotonic ns; 0 while held). Reading it never depends on how
// often the daemon looks (slow judge calls or app commands never slow it down, W2's drift),
// and every process of the container can compute the same line from its own CLOCK_MONOTONIC:
// each change of the anchor (hold, release, fast-forward jump) is handed to `publish`, which
// the daemon writes to /run/gaia2/clock (contract/sim-clock.ts, world/clock-file.ts).
//
// The clock starts held at the scenario's start time: the daemon releases it at the agent's
// first `ready`, so nothing before the agent could act (boot, the agent program's start-up)
// is charged to the scenario's time. A runtime can hold it again (`clock {hold}`).
//
// Between holds it may also run at another pace than its speed for a moment (below 1, or up to
// MAX_PACE to give back what it held too long): the daemon paces it to keep the time the run's
// processes waited for a CPU off the clock (cpu-wait-pacing.ts), so a busy machine does not
// cost the agent simulated time.
import { writeFileAtomicSync } from '../fsutil/atomic.js';
import { simNsAt } from '../contract/sim-clock.js';

export type ClockMode = 'realtime' | 'fast-forward';

export const CLOCK_MODES: readonly ClockMode[] = ['realtime', 'fast-forward'];

/** The line the clock follows from its last change on (what the clock file publishes). */
export interface ClockAnchor {
  /** The monotonic clock at the change, ns. */
  monoNs: bigint;
  /** Sim Unix time at the change, ns. */
  simNs: bigint;
  /** Sim ns per monotonic ns: the speed while running, 0 while held. */
  rate: number;
}

export interface ClockOptions {
  /** Sim epoch seconds at the start of the run. */
  start: number;
  /** Sim seconds per wall second (GAIA2_TIME_SPEED × time increment). Default 1. */
  speed?: number;
  mode?: ClockMode;
  /** Monotonic nanoseconds source (tests); default CLOCK_MONOTONIC via process.hrtime. */
  monoNs?: () => bigint;
  /** Start running at once instead of held (tests and tools without an agent). */
  running?: boolean;
  /** Called with every new anchor, the first one included (the clock file). */
  publish?: (a: ClockAnchor) => void;
}

const defaultMono = (): bigint => process.hrtime.bigint();

/** The longest a waiter trusts the clock's rate while it is paced (not at its speed). */
export const PACED_LOOK_MS = 50;
/** The fastest pace: twice the speed, briefly, to give back time held too long. */
export const MAX_PACE = 2;

/** The hold that lasts from the start until the agent's first `ready`. */
export const START_HOLD = 'start';

export class SimClock {
  readonly mode: ClockMode;
  readonly speed: number;
  private readonly mono: () => bigint;
  private readonly holds = new Set<string>();
  private pace = 1;
  private line: ClockAnchor;
  private publisher: ((a: ClockAnchor) => void) | null;

  constructor(opts: ClockOptions) {
    this.speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
    this.mode = opts.mode ?? 'realtime';
    this.mono = opts.monoNs ?? defaultMono;
    if (!opts.running) this.holds.add(START_HOLD);
    // Whole microseconds: a float's seconds × 1e9 is not exact anyway.
    this.line = { monoNs: this.mono(), simNs: BigInt(Math.round(opts.start * 1e6)) * 1000n, rate: this.holds.size ? 0 : this.speed };
    this.publisher = opts.publish ?? null;
    this.publisher?.(this.line);
  }

  /** The current line (monotonic anchor, sim anchor, rate). */
  get anchor(): ClockAnchor {
    return { ...this.line };
  }

  /** Held by anyone (the start, a runtime): sim time stands still. */
  get held(): boolean {
    return this.holds.size > 0;
  }

  /** Publishes every change from now on (and the current anchor at once). */
  onChange(publish: (a: ClockAnchor) => void): void {
    this.publisher = publish;
    publish(this.line);
  }

  /** Current sim time, epoch seconds (float, microsecond resolution). */
  now(): number {
    return Number(simNsAt({ ...this.line, realMinusMonoNs: 0n, agentUid: 0 }, this.mono()) / 1000n) / 1e6;
  }

  /**
   * Wall milliseconds until the sim clock reaches `t` (0 when already there; Infinity while
   * held). While paced (not at its speed) the answer is at most PACED_LOOK_MS: the pace
   * changes again soon, so whoever waits looks again then.
   */
  wallMsUntil(t: number): number {
    const d = t - this.now();
    if (d <= 0) return 0;
    if (this.held) return Number.POSITIVE_INFINITY;
    if (this.pace === 1) return (d / this.speed) * 1000;
    const rate = this.speed * this.pace;
    return rate > 0 ? Math.min(PACED_LOOK_MS, (d / rate) * 1000) : PACED_LOOK_MS;
  }

  /** The fraction of its speed the clock runs at between holds (1: full speed). */
  get currentPace(): number {
    return this.pace;
  }

  /** Sets the fraction of its speed the clock runs at between holds (clamped to 0..MAX_PACE). */
  setPace(fraction: number): void {
    const p = Number.isFinite(fraction) ? Math.min(MAX_PACE, Math.max(0, fraction)) : 1;
    if (p === this.pace) return;
    this.pace = p;
    if (!this.held) this.reanchor();
  }

  /** Moves the clock forward to `t` (never backwards). Returns the sim seconds skipped. */
  jumpTo(t: number): number {
    const d = t - this.now();
    if (d <= 0) return 0;
    this.reanchor(BigInt(Math.round(t * 1e6)) * 1000n);
    return d;
  }

  /** Stops the clock for `reason` (several holders may hold it at once). Returns whether it was running. */
  hold(reason = 'hold'): boolean {
    const was = this.held;
    this.holds.add(reason);
    if (!was) this.reanchor();
    return !was;
  }

  /** Ends the hold of `reason`; the clock runs again once nobody holds it. Returns whether it started running. */
  release(reason = 'hold'): boolean {
    if (!this.holds.delete(reason) || this.held) return false;
    this.reanchor();
    return true;
  }

  /** "YYYY-MM-DD HH:MM:SS" (UTC, truncated to the second), the sim_t / faketime.rc form. */
  text(): string {
    return formatSimTime(this.now());
  }

  /** A new anchor at the monotonic clock's current reading (sim time `simNs`, default where the line is now). */
  private reanchor(simNs?: bigint): void {
    const mono = this.mono();
    const sim = simNs ?? simNsAt({ ...this.line, realMinusMonoNs: 0n, agentUid: 0 }, mono);
    this.line = { monoNs: mono, simNs: sim, rate: this.held ? 0 : this.speed * this.pace };
    this.publisher?.(this.line);
  }
}

export function formatSimTime(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Parses "YYYY-MM-DD HH:MM:SS" as UTC; NaN when malformed. */
export function parseSimTime(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text.trim());
  if (!m) return Number.NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) / 1000;
}

/** Writes /tmp/faketime.rc (one line, atomic) for the runner and libfaketime users. */
export function writeFaketimeFile(path: string, simText: string): void {
  writeFileAtomicSync(path, simText + '\n');
}
