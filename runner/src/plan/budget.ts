// Spend caps of a run (docs/runner.md, "Budgets"): what the agent's side (the agent and its app
// agents; never the judge) may spend through the model gateway, per scenario run and for the
// whole run. The gateway counts what it forwards and refuses calls past a cap; the runner ends
// a scenario run over its cap as a judged failure, and stops starting runs once the whole
// run's cap is spent.

/** [run] max_cost_usd, max_tokens (per scenario run), total_max_cost_usd, total_max_tokens; null = no cap. */
export interface RunBudget {
  maxCostUsd: number | null;
  maxTokens: number | null;
  totalMaxCostUsd: number | null;
  totalMaxTokens: number | null;
}

export const NO_BUDGET: RunBudget = { maxCostUsd: null, maxTokens: null, totalMaxCostUsd: null, totalMaxTokens: null };

export const hasBudget = (b: RunBudget): boolean => Object.values(b).some((v) => v !== null);

/** result.json `budget_exceeded`: the cap a run met, and what was spent when it did. */
export interface BudgetBreach {
  /** The setting, as written in [run]. */
  limit: 'max_cost_usd' | 'max_tokens' | 'total_max_cost_usd' | 'total_max_tokens';
  cap: number;
  spent: number;
}

export function budgetReason(b: BudgetBreach): string {
  const usd = b.limit.endsWith('cost_usd');
  const fmt = (n: number) => (usd ? `$${n.toFixed(4)}` : `${n} tokens`);
  const whose = b.limit.startsWith('total_') ? 'the whole run' : 'this scenario run';
  return `Budget: ${whose} spent ${fmt(b.spent)} on the agent's model calls, at or over [run].${b.limit} = ${usd ? `$${b.cap}` : b.cap}`;
}
