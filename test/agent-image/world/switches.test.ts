// Reference quirks W1/W2 stay the default; GAIA2_FIX_W1 / GAIA2_FIX_W2 select the corrected
// behaviour (settingsFromEnv → fixes).
import { describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { parseScript, runScripted } from '../../../agent-image/src/agents/scripted/index.js';
import { settingsFromEnv } from '../../../agent-image/src/world/config.js';
import { runOracle, socketWorld } from './run-world.js';

const BOAT = 'scenarios/time/time_calendar_boat_trip.json';
const SECOND_EMAIL = 'Event-ENV-fbbf1858-028c-5e08-be71-12f23767c934';

// Reply first, act on the notification, acknowledge the second email: what the prompt advises.
const replyThenAct = parseScript(
  JSON.stringify([
    { reply: "I'll add the trip as soon as Lucia's email arrives." },
    {
      commands: [
        ['calendar', 'add-event', '--title', 'Boat trip with Lucia', '--start-datetime', '2025-10-11 10:00:00',
          '--end-datetime', '2025-10-11 13:00:00', '--location', 'Vigado ter pier', '--attendees', '["Lucia Paredes"]'],
      ],
      reply: 'Added the boat trip to your calendar.',
    },
    { reply: 'Noted the PS.' },
  ]),
);

async function playBoat(fixW1: boolean) {
  const w = await socketWorld(BOAT, { fixes: { finalTurnLastReply: fixW1, chainedEnvTiming: false } });
  try {
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    const [, status] = await Promise.all([runScripted(conn, replyThenAct), w.world.finished()]);
    return status;
  } finally {
    w.server.close();
  }
}

describe('W1: final-turn slice', () => {
  it('reference default: work done after the first reply is not judged', async () => {
    const s = await playBoat(false);
    expect(s.status).toBe('stopped');
    expect(s.judgment?.failure_reason).toMatch(/Tool count mismatch: agent=\{\}/);
  });

  it('GAIA2_FIX_W1: judged up to the last reply, closed only after the agent answered', async () => {
    const s = await playBoat(true);
    expect(s.status).toBe('complete');
    expect(s.judgment).toEqual({ success: true, failure_reason: '' });
    expect(s.turn).toBe(3);
  });
});

describe('W2: chained ENV timing', () => {
  const secondEmailTime = async (fix: boolean) => {
    const run = await runOracle(BOAT, { fixes: { finalTurnLastReply: false, chainedEnvTiming: fix } });
    expect(run.status.status).toBe('complete');
    return run.lines.find((l) => l.event_id === SECOND_EMAIL)?.sim_t;
  };

  it('reference default: the chained email fires at start + its own delay (+30 s)', async () => {
    expect(await secondEmailTime(false)).toBe('2025-10-09 09:00:30');
  });

  it('GAIA2_FIX_W2: it fires its delay after its parent (+20 s + 30 s)', async () => {
    expect(await secondEmailTime(true)).toBe('2025-10-09 09:00:50');
  });
});

describe('settings from the environment', () => {
  it('defaults: fast-forward for oracle/scripted, realtime for the LLM agent, quirks kept', () => {
    expect(settingsFromEnv({ GAIA2_AGENT: 'oracle' }).clockMode).toBe('fast-forward');
    expect(settingsFromEnv({ GAIA2_AGENT: 'scripted' }).clockMode).toBe('fast-forward');
    expect(settingsFromEnv({ PROVIDER: 'anthropic' }).clockMode).toBe('realtime');
    expect(settingsFromEnv({ PROVIDER: 'anthropic' }).agent).toBe('default');
    expect(settingsFromEnv({}).fixes).toEqual({ finalTurnLastReply: false, chainedEnvTiming: false });
    expect(settingsFromEnv({ GAIA2_FIX_W1: '1', GAIA2_FIX_W2: 'true' }).fixes).toEqual({
      finalTurnLastReply: true,
      chainedEnvTiming: true,
    });
    expect(settingsFromEnv({ GAIA2_IDLE_TIMEOUT: '12' }).idleTimeoutSec).toBe(12);
  });

  it('names the variable at fault', () => {
    expect(() => settingsFromEnv({ GAIA2_AGENT: 'hermes' })).toThrow(/GAIA2_AGENT/);
    expect(() => settingsFromEnv({ GAIA2_CLOCK_MODE: 'slow' })).toThrow(/GAIA2_CLOCK_MODE/);
    expect(() => settingsFromEnv({ GAIA2_IDLE_TIMEOUT: '-1' })).toThrow(/GAIA2_IDLE_TIMEOUT/);
  });
});

describe('realtime clock', () => {
  it('the oracle waits on the sim clock at GAIA2_TIME_SPEED (40 sim s at ×20 ≈ 2 s)', async () => {
    const t0 = Date.now();
    const run = await runOracle('scenarios/time/time_shopping_price_drop.json', { clockMode: 'realtime', timeSpeed: 20 });
    const wall = Date.now() - t0;
    expect(run.status.status).toBe('complete');
    expect(run.status.judgment?.success).toBe(true);
    expect(wall).toBeGreaterThan(1800);
    expect(wall).toBeLessThan(15_000);
    const add = run.lines.find((l) => l.fn === 'add_to_cart');
    expect(add?.sim_t).toMatch(/^2025-10-09 09:00:4[3-6]$/);
  });
});
