// The one simulated clock of a scenario run (docs/daemon.md, "When events fire"). Sim time is derived from a
// monotonic wall clock — start + elapsed × speed — plus the sum of fast-forward jumps, so slow
// iterations (judge calls, app commands) never slow the sim clock down (fixes W2's drift).
import { writeFileAtomicSync } from '../fsutil/atomic.js';

export type ClockMode = 'realtime' | 'fast-forward';

export const CLOCK_MODES: readonly ClockMode[] = ['realtime', 'fast-forward'];

export interface ClockOptions {
  /** Sim epoch seconds at the start of the run. */
  start: number;
  /** Sim seconds per wall second (GAIA2_TIME_SPEED × time increment). Default 1. */
  speed?: number;
  mode?: ClockMode;
  /** Monotonic milliseconds source (tests). */
  monoMs?: () => number;
}

const defaultMono = (): number => performance.now();

export class SimClock {
  readonly mode: ClockMode;
  readonly speed: number;
  private readonly start: number;
  private readonly mono: () => number;
  private readonly mono0: number;
  private jumped = 0;

  constructor(opts: ClockOptions) {
    this.start = opts.start;
    this.speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
    this.mode = opts.mode ?? 'realtime';
    this.mono = opts.monoMs ?? defaultMono;
    this.mono0 = this.mono();
  }

  /** Current sim time, epoch seconds (float). */
  now(): number {
    return this.start + ((this.mono() - this.mono0) / 1000) * this.speed + this.jumped;
  }

  /** Wall milliseconds until the sim clock reaches `t` (0 when already there). */
  wallMsUntil(t: number): number {
    return Math.max(0, ((t - this.now()) / this.speed) * 1000);
  }

  /** Moves the clock forward to `t` (never backwards). Returns the sim seconds skipped. */
  jumpTo(t: number): number {
    const d = t - this.now();
    if (d <= 0) return 0;
    this.jumped += d;
    return d;
  }

  /** "YYYY-MM-DD HH:MM:SS" (UTC, truncated to the second), the sim_t / faketime.rc form. */
  text(): string {
    return formatSimTime(this.now());
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
