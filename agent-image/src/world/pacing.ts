// When the daemon looks at the world again, and when it gives up waiting. Pure functions, so
// the fast-forward and timeout rules are testable without clocks or timers.

export interface PacingInput {
  mode: 'realtime' | 'fast-forward';
  now: number;
  /** Earliest scheduled scenario event, or null. */
  due: number | null;
  /** Sim time an in-process runtime waits for, or null. */
  agentWake: number | null;
  /** Agent connected and idle, no judge call and no app command in flight. */
  idle: boolean;
}

export interface TickPlan {
  /** Fast-forward target (the clock jumps there first), or null. */
  jumpTo: number | null;
  /** Wall milliseconds until the next tick. */
  delayMs: number;
}

/** Poll at least this often for timeouts and faketime.rc. */
export const MAX_TICK_MS = 250;

export function planNextTick(i: PacingInput, wallMsUntil: (t: number) => number): TickPlan {
  const next = i.due === null ? i.agentWake : i.agentWake === null ? i.due : Math.min(i.due, i.agentWake);
  if (i.mode === 'fast-forward' && i.idle && next !== null) {
    // Tick at once when something is due after the jump; otherwise let the runtime react.
    const dueNow = next > i.now || (i.due !== null && i.due <= i.now);
    return { jumpTo: next > i.now ? next : null, delayMs: dueNow ? 0 : 5 };
  }
  const ms = next === null ? MAX_TICK_MS : Math.min(MAX_TICK_MS, wallMsUntil(next));
  return { jumpTo: null, delayMs: Math.max(1, Math.ceil(ms)) };
}

export interface TimeoutInput {
  /** An agent was ready at some point of the run. */
  connected: boolean;
  /** A runtime is attached but not ready yet (its program starting): it must keep showing life. */
  starting?: boolean;
  wallSinceStartMs: number;
  wallSinceActivityMs: number;
  connectTimeoutSec: number;
  idleTimeoutSec: number;
  /** Scheduled events left (an idle agent may be waiting for them). */
  pending: number;
  judging: boolean;
  turn: number;
  nbTurns: number;
}

/** The reason to end with status error, or null to keep waiting. */
export function timeoutReason(i: TimeoutInput): string | null {
  if (!i.connected && i.starting) {
    // Start-up may take minutes on a loaded machine (the clock is held meanwhile); the runtime
    // sends progress while its program starts, so only silence ends the wait.
    return i.wallSinceActivityMs > i.idleTimeoutSec * 1000
      ? `the agent runtime connected but never became ready: no sign of life for ${Math.round(i.wallSinceActivityMs / 1000)}s`
      : null;
  }
  if (!i.connected) {
    return i.wallSinceStartMs > i.connectTimeoutSec * 1000 ? `agent never connected within ${i.connectTimeoutSec}s` : null;
  }
  if (i.pending > 0 || i.judging || i.wallSinceActivityMs <= i.idleTimeoutSec * 1000) return null;
  return `idle timeout: no agent activity for ${Math.round(i.wallSinceActivityMs / 1000)}s with nothing scheduled (turn ${i.turn} of ${i.nbTurns})`;
}
