// The gateway with a run budget: what it forwards is counted per container, a call past a cap
// is refused (402, the provider never asked), the judge's calls pass whatever was spent.
import { afterAll, expect, it } from 'vitest';
import { NO_LIMITS } from '../../../runner/src/plan/gateway.js';
import { NO_BUDGET } from '../../../runner/src/plan/budget.js';
import { startGateway } from '../../../runner/src/gateway/server.js';
import { SpendBook } from '../../../runner/src/gateway/spend.js';
import { kindOf } from '../../../runner/src/gateway/api-kinds.js';
import { say, startFakeLlm } from '../../helpers/fake-llm/index.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

it('counts each container, refuses its agent calls at the cap with 402, lets the judge through, and shows the spend in its stats', async () => {
  const provider = await startFakeLlm({ format: 'anthropic', fallback: say('ok', { usage: { input: 700, output: 50 } }) });
  closers.push(() => provider.close());
  const gw = await startGateway({
    upstreams: [{ id: 'anthropic', provider: 'anthropic', spec: kindOf('anthropic', provider.url)!, base: provider.url, key: 'sk-budget-unit-0123456789' }],
    plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 0, retryBudgetSeconds: 1 },
    prices: null,
    spend: new SpendBook({ ...NO_BUDGET, maxTokens: 1000 }),
  });
  closers.push(() => gw.close());
  const token = (role: 'agent' | 'judge', container: string) => gw.tokens.issue({ runId: 'r', container, role, upstream: 'anthropic', dir: null, scenario: 's', runIndex: null, recordKey: container });
  const ask = (t: string) =>
    fetch(`${gw.baseUrl('anthropic')}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': t },
      body: JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const [agentA, judgeA, agentB] = [token('agent', 'a'), token('judge', 'a'), token('agent', 'b')];
  expect((await ask(agentA)).status).toBe(200); // 750
  expect((await ask(agentA)).status).toBe(200); // 1,500: at the cap from here on
  const refused = await ask(agentA);
  expect(refused.status).toBe(402);
  expect(await refused.text()).toContain("Budget: this scenario run spent 1500 tokens on the agent's model calls, at or over [run].max_tokens = 1000");
  expect((await ask(judgeA)).status).toBe(200);
  expect((await ask(agentB)).status).toBe(200); // another container's own budget
  expect(provider.requests).toHaveLength(4);
  expect(gw.stats()).toMatchObject({ over_budget: 1, refused: 1, spent: { tokens: 2250, usd: 0 } });
});
