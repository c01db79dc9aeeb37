// Acceptance: every golden scenario replayed by the oracle runtime in-process ends complete,
// judged successful, with the golden oracle's agent actions turn by turn, and its ENV actions
// printed as the reference printed them.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envArgTexts, oracleCases, parseLog, readGolden, scenarioIds, turnMultisets } from './golden.js';
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
      // ENV actions print their args exactly as the reference (e.g. a dict arg's 15.0).
      const ours = readFileSync(join(run.stateDir, 'events.jsonl'), 'utf8');
      expect(envArgTexts(ours, ids)).toEqual(envArgTexts(readGolden(c.events), ids));
    });
  }
});
