// The daemon's heartbeat: one step at a time (a wake during a step runs another step right
// after it, never a second one in parallel), then a timer for the next look whose delay, and
// any fast-forward jump of the clock first, come from pacing.ts.
import { formatSimTime, type SimClock } from './clock.js';
import type { DaemonLog } from './daemon-log.js';
import { planNextTick, type PacingInput } from './pacing.js';

export interface TickHost {
  readonly clock: SimClock;
  readonly log: DaemonLog;
  readonly isTerminal: boolean;
  /** One look at the world: fire what is due, judge, check timeouts. */
  step(): Promise<void>;
  /** The pacing facts besides the clock's own. */
  pacing(): Omit<PacingInput, 'mode' | 'now'>;
  /** The clock jumped: in-process runtimes waiting for a sim time re-check it. */
  poke(): void;
  /** A step threw; the run ends with status error. */
  fail(reason: string): void;
}

export class TickLoop {
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private tickAgain = false;

  constructor(private readonly host: TickHost) {}

  /** Steps again soon (something changed). */
  wake(): void {
    if (this.host.isTerminal) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  /** No more steps (terminal status). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.tickAgain = false;
        await this.host.step();
      } while (this.tickAgain && !this.host.isTerminal);
    } catch (e) {
      this.host.fail(`daemon crashed: ${(e as Error).stack ?? String(e)}`);
    } finally {
      this.ticking = false;
    }
    this.scheduleNext();
  }

  /** Arms the timer for the next tick; in fast-forward, jumps the clock while the agent is idle. */
  private scheduleNext(): void {
    const { host } = this;
    if (host.isTerminal) return;
    if (this.timer) clearTimeout(this.timer);
    const plan = planNextTick({ mode: host.clock.mode, now: host.clock.now(), ...host.pacing() }, (t) => host.clock.wallMsUntil(t));
    if (plan.jumpTo !== null) {
      const skipped = host.clock.jumpTo(plan.jumpTo);
      if (skipped > 0) host.log.info(`fast-forward: +${skipped.toFixed(1)}s to ${formatSimTime(plan.jumpTo)}`);
      host.poke();
    }
    this.timer = setTimeout(() => void this.tick(), plan.delayMs);
  }
}
