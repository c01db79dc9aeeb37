// The Noise phase in a whole world (daemon + judge, in-process): background ENV events fire
// and are recorded without changing the verdict; failed agent commands leave no event line;
// renamed commands are judged by their original function.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { parseScript, runScripted } from '../../../agent-image/src/agents/scripted/index.js';
import { appForCli } from '../../../agent-image/src/apps/catalog.js';
import { DEFAULT_NOISE, DEFAULT_TOOL_AUGMENTATION, type NoiseSettings } from '../../../agent-image/src/contract/noise.js';
import { NOISE_EVENT_PREFIX, ToolNoise, type NoiseRecord } from '../../../agent-image/src/noise/index.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { serveAgentSocket } from '../../../agent-image/src/world/sockets.js';
import { readGolden, parseLog } from '../world/golden.js';
import { tempStateDir, testSettings } from '../world/run-world.js';

const BOAT = 'scenarios/time/time_calendar_boat_trip.json';
const readNoise = (dir: string): NoiseRecord[] =>
  readFileSync(join(dir, 'noise.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as NoiseRecord);

// The samples finish within a minute of sim time; a 60 s horizon makes the noise arrive while
// the oracle still works (the default horizon is the scenario's duration).
const shortened = (rel: string): Record<string, any> => {
  const sc = JSON.parse(readGolden(rel));
  sc.metadata.definition.duration = 60;
  return sc;
};

async function oracle(scenario: unknown, noise: NoiseSettings | null) {
  const stateDir = tempStateDir();
  const c = await composeWorld({ scenario, stateDir, settings: testSettings({ noise }) });
  c.world.start();
  c.world.markReady();
  const status = await c.world.finished();
  return { status, stateDir, lines: parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8')) };
}

describe('oracle with the reference noise settings', () => {
  it.each([BOAT, 'scenarios/time/time_shopping_price_drop.json', 'scenarios/adaptability/adapt_chats_kenji_sync.json'])(
    '%s: noise events fire between the oracle actions, are recorded, and the verdict is the standard one',
    async (rel) => {
      const plain = await oracle(shortened(rel), null);
      const noisy = await oracle(shortened(rel), DEFAULT_NOISE);
      expect(noisy.status.status).toBe('complete');
      expect(noisy.status.judgment).toEqual({ success: true, failure_reason: '' });
      expect(noisy.status.judgment).toEqual(plain.status.judgment);
      const planned = readNoise(noisy.stateDir).filter((r) => r.kind === 'env_event').map((r) => (r as { event_id: string }).event_id);
      expect(planned.length).toBeGreaterThan(0);
      const fired = noisy.lines.filter((l) => l.event_id?.startsWith(NOISE_EVENT_PREFIX));
      if (rel !== 'scenarios/adaptability/adapt_chats_kenji_sync.json') expect(fired.length).toBeGreaterThan(0);
      for (const l of fired) expect(planned).toContain(l.event_id);
      expect(plain.lines.some((l) => l.event_id?.startsWith(NOISE_EVENT_PREFIX))).toBe(false);
    },
  );

  it('noise never holds a run open: events due after the last oracle action are dropped', async () => {
    const run = await oracle(JSON.parse(readGolden(BOAT)), DEFAULT_NOISE); // 1800 s horizon
    expect(run.status.judgment?.success).toBe(true);
    const planned = readNoise(run.stateDir).filter((r) => r.kind === 'env_event');
    const fired = run.lines.filter((l) => l.event_id?.startsWith(NOISE_EVENT_PREFIX));
    expect(fired.length).toBeLessThan(planned.length);
  });

  it('the same seed gives the same noise plan and the same noise lines; another seed does not', async () => {
    const seeded = (seed: number): NoiseSettings => ({ ...DEFAULT_NOISE, env_events: { ...DEFAULT_NOISE.env_events!, env_events_seed: seed } });
    const a = await oracle(shortened(BOAT), seeded(0));
    const b = await oracle(shortened(BOAT), seeded(0));
    const c = await oracle(shortened(BOAT), seeded(1));
    const noiseFile = (r: typeof a) => readFileSync(join(r.stateDir, 'noise.jsonl'), 'utf8');
    expect(noiseFile(b)).toBe(noiseFile(a));
    expect(noiseFile(c)).not.toBe(noiseFile(a));
    const noiseLines = (r: typeof a) => r.lines.filter((l) => l.event_id?.startsWith(NOISE_EVENT_PREFIX)).map((l) => [l.event_id, l.fn, l.args, l.sim_t]);
    expect(noiseLines(b)).toEqual(noiseLines(a));
  });
});

// Boat trip: reply first, then add the event once the email arrives (judged with the W1 fix).
const ADD_EVENT = ['--title', 'Boat trip with Lucia', '--start-datetime', '2025-10-11 10:00:00', '--end-datetime', '2025-10-11 13:00:00', '--location', 'Vigado ter pier', '--attendees', '["Lucia Paredes"]'];

async function playBoat(scenario: unknown, noise: NoiseSettings, addCommand: string[][]) {
  const stateDir = tempStateDir();
  const composed = await composeWorld({ scenario, scenarioFile: BOAT, stateDir, settings: testSettings({ agent: 'scripted', noise, fixes: { finalTurnLastReply: true, chainedEnvTiming: false } }) });
  const socketPath = join(stateDir, 'agent.sock');
  const server = await serveAgentSocket(composed.world, socketPath, composed.tools);
  composed.world.start();
  try {
    const script = parseScript(JSON.stringify([{ reply: "I'll add it when the email arrives." }, { commands: addCommand, reply: 'Added.' }, { reply: 'Noted.' }]));
    const conn = await connectToDaemon({ agent: 'scripted', socketPath });
    const [, status] = await Promise.all([runScripted(conn, script), composed.world.finished()]);
    return { status, stateDir, lines: parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8')) };
  } finally {
    server.close();
  }
}

describe('tool augmentation with a scripted agent', () => {
  const boat = JSON.parse(readGolden(BOAT));
  const calendar = appForCli('calendar')!;
  const argv = ['calendar', 'add-event', ...ADD_EVENT];

  it('a failed command changes nothing and is not judged; the retry that succeeds passes', async () => {
    // A seed whose first add-event draw fails and second succeeds (p = 0.5).
    const ta = { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: 0.5 };
    const seed = [...Array(64).keys()].find((s) => {
      const t = new ToolNoise({ ...ta, seed: s }, boat);
      return t.draw(argv, calendar) !== null && t.draw(argv, calendar) === null;
    })!;
    expect(seed).toBeDefined();
    const run = await playBoat(boat, { env_events: null, tool_augmentation: { ...ta, seed } }, [argv, argv]);
    const failures = readNoise(run.stateDir).filter((r) => r.kind === 'tool_failure');
    expect(failures).toEqual([expect.objectContaining({ tool: 'Calendar__add_calendar_event', message: 'Calling Calendar__add_calendar_event failed with error: Internal error - Retry again later' })]);
    expect(run.lines.filter((l) => l.fn === 'add_calendar_event')).toHaveLength(1);
    expect(run.status.judgment).toEqual({ success: true, failure_reason: '' });
  });

  it('every call failing: the write never happens and the judge rejects the run', async () => {
    const run = await playBoat(boat, { env_events: null, tool_augmentation: { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: 1 } }, [argv, argv]);
    expect(readNoise(run.stateDir).filter((r) => r.kind === 'tool_failure')).toHaveLength(2);
    expect(run.lines.some((l) => l.fn === 'add_calendar_event')).toBe(false);
    expect(run.status.judgment?.success).toBe(false);
  });

  it('a renamed command runs under its new name and is judged as the original function', async () => {
    const renamed = { ...boat, augmentation_data: { tool_names_mapping: { Calendar__add_calendar_event: 'Calendar__schedule_outing' } } };
    const noise = { env_events: null, tool_augmentation: { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: 0 } };
    const ok = await playBoat(renamed, noise, [['calendar', 'schedule-outing', ...ADD_EVENT]]);
    expect(ok.lines.find((l) => l.fn === 'add_calendar_event')).toBeDefined();
    expect(ok.status.judgment).toEqual({ success: true, failure_reason: '' });
    // The welcome tells the agent runtime what it sees renamed (function-tool mode uses it).
    const stateDir = tempStateDir();
    const composed = await composeWorld({ scenario: renamed, stateDir, settings: testSettings({ agent: 'scripted', noise }) });
    const server = await serveAgentSocket(composed.world, join(stateDir, 'agent.sock'), composed.tools);
    try {
      const conn = await connectToDaemon({ agent: 'scripted', socketPath: join(stateDir, 'agent.sock') });
      expect(conn.welcome.renamed_commands).toEqual([{ cli: 'calendar', fn: 'add_calendar_event', name: 'schedule-outing', help: calendar.commands.find((c) => c.fn === 'add_calendar_event')!.help }]);
      conn.close();
    } finally {
      server.close();
      composed.world.fail('test over');
    }
    const old = await playBoat(renamed, noise, [argv]);
    expect(old.lines.some((l) => l.fn === 'add_calendar_event')).toBe(false);
    expect(old.status.judgment?.success).toBe(false);
  });
});
