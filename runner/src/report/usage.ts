// Token and cost totals of a group of runs, agent, Agent2Agent app agents and judge apart.
// Tokens are added and priced by the one usage module (runner/src/tokens); TokenTotals is
// only report.json's shape of a sum. A role whose model the table does not know keeps its
// tokens and gets no cost.
import type { RoleUsage } from '@gaia2/contract';
import { addCost, addTokens, costUsd, usageRolesOf, ZERO_TOKENS, type PriceTable, type TokenUsage } from '../tokens/index.js';
import type { RunRecord } from './collect.js';

/** report.json's totals of one role (made from the one token type by `totalsOf`). */
export interface TokenTotals {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  llm_calls: number;
  /** Runs whose result.json states this role's usage. */
  runs: number;
}

export interface CostTotal {
  /** USD over the runs priced; null when some run of this role has an unknown model. */
  usd: number | null;
  priced_runs: number;
  /** Models the price table does not know (their tokens are counted, not priced). */
  unpriced_models: string[];
}

export interface UsageTotals {
  agent: TokenTotals;
  /** Agent2Agent app agents (runs: those that had any). */
  app_agents: TokenTotals;
  judge: TokenTotals;
  cost: { agent: CostTotal; app_agents: CostTotal; judge: CostTotal; total_usd: number | null };
}

/** A role's runs added up: their tokens, how many runs stated them, and their cost. */
interface RoleSum {
  tokens: TokenUsage;
  runs: number;
  cost: CostTotal;
}

const emptySum = (): RoleSum => ({ tokens: { ...ZERO_TOKENS, llm_calls: 0 }, runs: 0, cost: { usd: null, priced_runs: 0, unpriced_models: [] } });

const totalsOf = ({ tokens: t, runs }: RoleSum): TokenTotals => ({
  input: t.input_tokens,
  output: t.output_tokens,
  cache_read: t.cache_read_tokens ?? 0,
  cache_write: t.cache_write_tokens ?? 0,
  llm_calls: t.llm_calls ?? 0,
  runs,
});

export const agentUsageOf = (r: RunRecord): RoleUsage | null => usageRolesOf(r.result).agent;

function addRole(sum: RoleSum, u: RoleUsage, prices: PriceTable): void {
  sum.tokens = addTokens(sum.tokens, u);
  sum.runs++;
  const c = sum.cost;
  const usd = costUsd(prices, u.model, u);
  if (usd === null) {
    const name = u.model ?? '(model not recorded)';
    if (!c.unpriced_models.includes(name)) c.unpriced_models.push(name);
    c.usd = null;
  } else {
    c.priced_runs++;
    // Once a run of the role had no price the role's cost stays unknown.
    if (c.unpriced_models.length === 0) c.usd = addCost(c.usd ?? 0, usd);
  }
}

export function usageTotals(records: readonly RunRecord[], prices: PriceTable): UsageTotals {
  const agent = emptySum();
  const appAgents = emptySum();
  const judge = emptySum();
  for (const r of records) {
    const roles = usageRolesOf(r.result);
    if (roles.agent) addRole(agent, roles.agent, prices);
    if (roles.app_agents) addRole(appAgents, roles.app_agents, prices);
    if (roles.judge) addRole(judge, roles.judge, prices);
  }
  // A role without any usage costs nothing; a role with unpriced runs makes the total unknown.
  const used = [agent, appAgents, judge].filter((s) => s.runs > 0);
  const total_usd = used.length === 0 ? null : used.reduce<number | null>((sum, s) => addCost(sum, s.cost.usd), 0);
  return {
    agent: totalsOf(agent),
    app_agents: totalsOf(appAgents),
    judge: totalsOf(judge),
    cost: { agent: agent.cost, app_agents: appAgents.cost, judge: judge.cost, total_usd },
  };
}
