// Acceptance: every golden case gets the reference's verdict in hard-only mode.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioText } from '../../../agent-image/src/scenario/index.js';
import { judgeEventLog } from '../../../agent-image/src/judge/index.js';
import { GOLDEN_DIR, canonicalReason, goldenCases, readEventLines } from './golden.js';

const cases = goldenCases();

describe('golden corpus, hard-only', () => {
  it('has the 66 public cases', () => {
    expect(cases).toHaveLength(66);
    expect(cases.filter((c) => c.expected.success)).toHaveLength(27);
  });

  it.each(cases.map((c) => [`${c.scenario.split('/').pop()} / ${c.case}`, c] as const))('%s', async (_name, c) => {
    const scenario = loadScenarioText(readFileSync(join(GOLDEN_DIR, c.scenario), 'utf8'), c.scenario);
    const v = await judgeEventLog(scenario, readEventLines(c.events));
    const exp = c.expected;
    expect(v.judge_mode).toBe('hard-only');
    expect(v.nb_turns).toBe(exp.nb_turns);
    expect({ success: v.success, status: v.status, reason: canonicalReason(v.failure_reason) }).toEqual({
      success: exp.success,
      status: exp.status,
      reason: canonicalReason(exp.failure_reason_masked),
    });
    // Same judged turns, same failing turn, same per-oracle-event outcome and reason.
    const turns = (ts: typeof exp.turns | typeof v.turns) =>
      ts.map((t) => ({
        turn: t.turn,
        success: t.success,
        reason: canonicalReason(t.failure_reason),
        details: t.match_details?.map((m) => [m.oracle_id, m.oracle_tool, m.matched, canonicalReason(m.reason)]) ?? null,
      }));
    expect(turns(v.turns)).toEqual(turns(exp.turns));
  });
});
