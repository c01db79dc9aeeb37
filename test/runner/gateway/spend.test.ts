import { describe, expect, it } from 'vitest';
import { SpendBook } from '../../../runner/src/gateway/spend.js';
import { budgetReason, NO_BUDGET } from '../../../runner/src/plan/budget.js';

const u = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

describe('the spend book of a run budget', () => {
  it('a container meets its own token cap at or over it; another container is not affected', () => {
    const b = new SpendBook({ ...NO_BUDGET, maxTokens: 2000 });
    b.add('c1', 'agent', u(1000, 100), 0.01);
    expect(b.over('c1')).toBeNull();
    b.add('c1', 'app_agent', u(800, 100), 0.01); // app agents are the agent's side too
    expect(b.over('c1')).toEqual({ limit: 'max_tokens', cap: 2000, spent: 2000 });
    expect(b.over('c2')).toBeNull();
  });

  it("the judge's calls count toward nothing, and the judge is never over budget", () => {
    const b = new SpendBook({ ...NO_BUDGET, maxCostUsd: 0.05, totalMaxTokens: 100 });
    b.add('c1', 'judge', u(10_000, 1000), 1);
    expect(b.over('c1')).toBeNull();
    expect(b.totals()).toEqual({ tokens: 0, usd: 0 });
    b.add('c1', 'agent', u(100, 0), 0.06);
    expect(b.over('c1', 'judge')).toBeNull();
    expect(b.over('c1')).toEqual({ limit: 'max_cost_usd', cap: 0.05, spent: 0.06 });
  });

  it("the whole run's cap: met by the sum over containers, then every container is over it; forgetting a finished one keeps the total", () => {
    const b = new SpendBook({ ...NO_BUDGET, totalMaxCostUsd: 0.1 });
    b.add('c1', 'agent', u(1, 1), 0.06);
    b.forget('c1');
    expect(b.runOver()).toBeNull();
    b.add('c2', 'agent', u(1, 1), 0.05);
    expect(b.runOver()).toEqual({ limit: 'total_max_cost_usd', cap: 0.1, spent: expect.closeTo(0.11, 10) });
    expect(b.over('c3')?.limit).toBe('total_max_cost_usd');
  });

  it('an unpriced call counts its tokens and no dollars, and is counted as unpriced', () => {
    const b = new SpendBook({ ...NO_BUDGET, maxCostUsd: 0.01, maxTokens: 500 });
    b.add('c1', 'agent', u(400, 200), null);
    expect(b.unpriced).toBe(1);
    expect(b.over('c1')).toEqual({ limit: 'max_tokens', cap: 500, spent: 600 });
  });

  it('the reason names the setting, the cap and what was spent', () => {
    expect(budgetReason({ limit: 'max_cost_usd', cap: 0.5, spent: 0.52 })).toBe("Budget: this scenario run spent $0.5200 on the agent's model calls, at or over [run].max_cost_usd = $0.5");
    expect(budgetReason({ limit: 'total_max_tokens', cap: 9, spent: 10 })).toBe("Budget: the whole run spent 10 tokens on the agent's model calls, at or over [run].total_max_tokens = 9");
  });
});
