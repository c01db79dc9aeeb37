// Acceptance: every golden scenario replayed by the oracle runtime in-process ends complete,
// judged successful, with the golden oracle's agent actions turn by turn.
import { describe, expect, it } from 'vitest';
import { oracleCases, parseLog, readGolden, scenarioIds, turnMultisets } from './golden.js';
import { runOracle } from './run-world.js';

describe('oracle runtime over the golden scenarios (in-process, fast-forward)', () => {
  for (const c of oracleCases()) {
    it(c.scenario, async () => {
      const run = await runOracle(c.scenario);
      expect(run.status.reason ?? '').not.toMatch(/crash/);
      expect(run.status.status).toBe('complete');
      expect(run.status.judgment).toEqual({ success: true, failure_reason: '' });
      expect(run.status.turn).toBe(c.expected.nb_turns);
      expect(run.status.nb_turns).toBe(c.expected.nb_turns);
      expect(run.composed.oracle?.errors).toEqual([]);
      const ids = scenarioIds(readGolden(c.scenario));
      const golden = turnMultisets(parseLog(readGolden(c.events)), ids);
      expect(turnMultisets(run.lines, ids)).toEqual(golden);
    });
  }
});
