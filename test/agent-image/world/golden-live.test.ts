// The golden corpus through the LIVE daemon: every recorded agent log (the 12 oracle logs and
// the 54 mutations) is played into a running WorldDaemon (fast-forward clock, hard-only judge,
// final turn judged) by LogReplayAgent, so the verdicts come from the daemon's own turn
// judging, ENV firing and timing, not from the offline judge. Each must end with the
// reference's status, verdict, failing turn and (ids masked) reason; ids this world created
// are written back as the recording's before the reasons are compared.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { canonicalReason, GOLDEN_DIR, goldenCases, readEventLines } from '../judge/golden.js';
import { scenarioIds } from './golden.js';
import { LogReplayAgent } from './log-replay.js';
import { tempStateDir, testSettings } from './run-world.js';

const cases = goldenCases();

describe('golden agent logs through the live daemon', () => {
  it('covers the 54 mutated logs and the 12 oracle logs', () => {
    expect(cases.filter((c) => c.case !== 'oracle')).toHaveLength(54);
    expect(cases.filter((c) => c.case === 'oracle')).toHaveLength(12);
  });

  it.each(cases.map((c) => [`${c.scenario.split('/').pop()} / ${c.case}`, c] as const))('%s', async (_name, c) => {
    const stateDir = tempStateDir();
    const text = readFileSync(join(GOLDEN_DIR, c.scenario), 'utf8');
    const composed = await composeWorld({
      scenario: text,
      scenarioFile: c.scenario,
      stateDir,
      settings: testSettings({ agent: 'scripted', clockMode: 'fast-forward' }),
    });
    const w = composed.world;
    const agent = new LogReplayAgent(w, readEventLines(c.events), scenarioIds(text));
    w.attachAgent(agent);
    w.start();
    w.markReady();
    const s = await w.finished();
    const exp = c.expected;
    expect({ status: s.status, success: s.judgment?.success, reason: canonicalReason(agent.toRecorded(s.judgment?.failure_reason ?? '')) }, s.reason ?? '').toEqual({
      status: exp.status,
      success: exp.success,
      reason: canonicalReason(exp.failure_reason_masked),
    });
    // Judged turns as the reference judged them, from the daemon's judgments.jsonl.
    const judged = readFileSync(join(stateDir, 'judgments.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { turn: number; success: boolean });
    expect(judged.map((t) => [t.turn, t.success])).toEqual(exp.turns.map((t) => [t.turn, t.success]));
  });
});
