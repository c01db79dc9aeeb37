// The golden corpus in llm mode: an always-accepting judge LLM must give the hard-only
// verdicts, and the oracle logs must never need it (normalised-equality shortcut).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../../agent-image/src/scenario/index.js';
import { createJudgeLlm, judgeEventLog, type JudgeLlm } from '../../../agent-image/src/judge/index.js';
import { say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { GOLDEN_DIR, canonicalReason, goldenCases, readEventLines } from './golden.js';

let fake: FakeLlm;
let llm: JudgeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ format: 'openai-chat', fallback: say('Verdict: [[Success]] / [[True]]') });
  llm = createJudgeLlm({ provider: 'openai-compat', model: 'judge-m', apiKey: 'k-test-123456', baseUrl: fake.url });
});
afterAll(() => fake.close());

describe('golden corpus with an accepting judge LLM', () => {
  it('every case keeps its reference verdict; oracle logs make no LLM call', async () => {
    for (const c of goldenCases()) {
      const scenario = loadScenarioText(readFileSync(join(GOLDEN_DIR, c.scenario), 'utf8'), c.scenario);
      const before = fake.requests.length;
      const v = await judgeEventLog(scenario, readEventLines(c.events), { llm });
      expect(v.judge_mode).toBe('llm');
      expect([c.case, v.success, v.status, canonicalReason(v.failure_reason)]).toEqual([c.case, c.expected.success, c.expected.status, canonicalReason(c.expected.failure_reason_masked)]);
      if (c.case === 'oracle') expect(fake.requests.length - before, c.scenario).toBe(0);
    }
    expect(fake.requests.length).toBeGreaterThan(0); // mutated texts did reach the LLM
  });
});
