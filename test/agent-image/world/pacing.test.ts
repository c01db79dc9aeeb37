// Fast-forward and timeout rules of the daemon loop.
import { describe, expect, it } from 'vitest';
import { MAX_TICK_MS, planNextTick, timeoutReason } from '../../../agent-image/src/world/pacing.js';

const wall = (now: number, speed = 1) => (t: number) => Math.max(0, ((t - now) / speed) * 1000);

describe('planNextTick', () => {
  it('fast-forward jumps to the earliest of the next event and the agent wake time, only when idle', () => {
    const base = { mode: 'fast-forward' as const, now: 100, due: 700, agentWake: 160 };
    expect(planNextTick({ ...base, idle: true }, wall(100))).toEqual({ jumpTo: 160, delayMs: 0 });
    expect(planNextTick({ ...base, idle: false }, wall(100))).toEqual({ jumpTo: null, delayMs: MAX_TICK_MS });
    expect(planNextTick({ ...base, agentWake: null, idle: true }, wall(100))).toEqual({ jumpTo: 700, delayMs: 0 });
    expect(planNextTick({ ...base, due: null, agentWake: null, idle: true }, wall(100))).toEqual({ jumpTo: null, delayMs: MAX_TICK_MS });
  });

  it('realtime waits for the next event in wall time (speed applied), polling at least every 250 ms', () => {
    expect(planNextTick({ mode: 'realtime', now: 100, due: 100.5, agentWake: null, idle: true }, wall(100, 10))).toEqual({
      jumpTo: null,
      delayMs: 50,
    });
    expect(planNextTick({ mode: 'realtime', now: 100, due: 700, agentWake: null, idle: true }, wall(100))).toEqual({
      jumpTo: null,
      delayMs: MAX_TICK_MS,
    });
  });
});

describe('timeoutReason', () => {
  const base = {
    connected: true, wallSinceStartMs: 0, wallSinceActivityMs: 0, connectTimeoutSec: 120, idleTimeoutSec: 300,
    pending: 0, judging: false, turn: 0, nbTurns: 2,
  };
  it('agent never connected', () => {
    expect(timeoutReason({ ...base, connected: false, wallSinceStartMs: 119_000 })).toBeNull();
    expect(timeoutReason({ ...base, connected: false, wallSinceStartMs: 121_000 })).toBe('agent never connected within 120s');
  });
  it('a runtime whose program is still starting: minutes are fine while it shows life, silence is not', () => {
    const starting = { ...base, connected: false, starting: true, wallSinceStartMs: 900_000 };
    expect(timeoutReason({ ...starting, wallSinceActivityMs: 29_000, pending: 3 })).toBeNull();
    expect(timeoutReason({ ...starting, wallSinceActivityMs: 301_000, pending: 3 })).toBe(
      'the agent runtime connected but never became ready: no sign of life for 301s',
    );
  });
  it('idle only with nothing scheduled and no judge call running', () => {
    expect(timeoutReason({ ...base, wallSinceActivityMs: 301_000 })).toMatch(/^idle timeout: no agent activity for 301s .* \(turn 0 of 2\)$/);
    expect(timeoutReason({ ...base, wallSinceActivityMs: 301_000, pending: 1 })).toBeNull();
    expect(timeoutReason({ ...base, wallSinceActivityMs: 301_000, judging: true })).toBeNull();
    expect(timeoutReason({ ...base, wallSinceActivityMs: 299_000 })).toBeNull();
  });
});
