// What the agent's side of each container has spent through the gateway (input + output
// tokens, and dollars from the price table), and whether a cap of the run's budget is met
// (plan/budget.ts). The judge's calls count toward nothing: a run over budget is still judged.
import type { BudgetBreach, RunBudget } from '../plan/budget.js';
import type { Role } from './tokens.js';

interface Spent {
  tokens: number;
  usd: number;
}

const counts = (role: Role): boolean => role !== 'judge';

export class SpendBook {
  private readonly byContainer = new Map<string, Spent>();
  private readonly total: Spent = { tokens: 0, usd: 0 };
  /** Calls whose cost could not be priced (a model without a price): counted in tokens only. */
  unpriced = 0;

  constructor(private readonly budget: RunBudget) {}

  /** A forwarded call's usage, once its answer is in. */
  add(container: string, role: Role, usage: { input_tokens: number; output_tokens: number } | null, usd: number | null): void {
    if (!counts(role) || !usage) return;
    const tokens = usage.input_tokens + usage.output_tokens;
    const s = this.byContainer.get(container) ?? { tokens: 0, usd: 0 };
    s.tokens += tokens;
    s.usd += usd ?? 0;
    this.byContainer.set(container, s);
    this.total.tokens += tokens;
    this.total.usd += usd ?? 0;
    if (usd === null) this.unpriced++;
  }

  /** The whole run's cap that is met, if any. */
  runOver(): BudgetBreach | null {
    const b = this.budget;
    if (b.totalMaxCostUsd !== null && this.total.usd >= b.totalMaxCostUsd) return { limit: 'total_max_cost_usd', cap: b.totalMaxCostUsd, spent: this.total.usd };
    if (b.totalMaxTokens !== null && this.total.tokens >= b.totalMaxTokens) return { limit: 'total_max_tokens', cap: b.totalMaxTokens, spent: this.total.tokens };
    return null;
  }

  /** The cap a container's agent side has met (its own, or the whole run's), if any. */
  over(container: string, role: Role = 'agent'): BudgetBreach | null {
    if (!counts(role)) return null;
    const b = this.budget;
    const s = this.byContainer.get(container) ?? { tokens: 0, usd: 0 };
    if (b.maxCostUsd !== null && s.usd >= b.maxCostUsd) return { limit: 'max_cost_usd', cap: b.maxCostUsd, spent: s.usd };
    if (b.maxTokens !== null && s.tokens >= b.maxTokens) return { limit: 'max_tokens', cap: b.maxTokens, spent: s.tokens };
    return this.runOver();
  }

  /** Every container at or over a cap of its own, with that cap (the in-cluster gateway's GET /spend). */
  overContainers(): Record<string, BudgetBreach> {
    const out: Record<string, BudgetBreach> = {};
    for (const c of this.byContainer.keys()) {
      const b = this.over(c);
      if (b && b.limit !== 'total_max_cost_usd' && b.limit !== 'total_max_tokens') out[c] = b;
    }
    return out;
  }

  /** The whole run's spend so far (the dashboard, the report). */
  totals(): { tokens: number; usd: number } {
    return { ...this.total };
  }

  /** A finished container's count is no longer needed. */
  forget(container: string): void {
    this.byContainer.delete(container);
  }
}
