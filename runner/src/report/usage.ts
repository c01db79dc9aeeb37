// Token and cost totals of a group of runs, agent, Agent2Agent app agents and judge apart.
// Costs come from the price table; a role whose model the table does not know keeps its
// tokens and gets no cost.
import type { RoleUsage, RunUsage } from '../../../agent-image/src/contract/index.js';
import { costUsd, type PriceTable } from '../pricing/index.js';
import type { RunRecord } from './collect.js';

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

const zero = (): TokenTotals => ({ input: 0, output: 0, cache_read: 0, cache_write: 0, llm_calls: 0, runs: 0 });

export interface UsageRoles {
  agent: RoleUsage | null;
  app_agents: RoleUsage | null;
  judge: RoleUsage | null;
}

/**
 * Each role's part of result.json's usage, as the run recorded it (usage/run-usage.ts): the
 * one reading of it for the report, the leaderboard and the viewer. A result from before the
 * roles were split holds the agent's totals at the top.
 */
export function usageRolesOf(result: Readonly<Record<string, unknown>> | null | undefined): UsageRoles {
  const u = result?.usage as RunUsage | undefined;
  if (!u || typeof u !== 'object') return { agent: null, app_agents: null, judge: null };
  const old = !u.agent && !u.judge && !u.app_agents && typeof u.input_tokens === 'number';
  const agent = u.agent ?? (old ? { ...u, model: typeof result?.model === 'string' ? result.model : null, source: 'agent_report' as const } : null);
  return { agent, app_agents: u.app_agents ?? null, judge: u.judge ?? null };
}

/** A role's cost at `prices`; null when its model has no price. */
export const roleCostUsd = (u: RoleUsage, prices: PriceTable): number | null => costUsd(prices, u.model, u);

export const agentUsageOf = (r: RunRecord): RoleUsage | null => usageRolesOf(r.result).agent;
export const judgeUsageOf = (r: RunRecord): RoleUsage | null => usageRolesOf(r.result).judge;
export const appAgentsUsageOf = (r: RunRecord): RoleUsage | null => usageRolesOf(r.result).app_agents;

function addRole(t: TokenTotals, c: CostTotal, u: RoleUsage, prices: PriceTable): void {
  t.input += u.input_tokens;
  t.output += u.output_tokens;
  t.cache_read += u.cache_read_tokens ?? 0;
  t.cache_write += u.cache_write_tokens ?? 0;
  t.llm_calls += u.llm_calls ?? 0;
  t.runs++;
  const usd = roleCostUsd(u, prices);
  if (usd === null) {
    const name = u.model ?? '(model not recorded)';
    if (!c.unpriced_models.includes(name)) c.unpriced_models.push(name);
    c.usd = null;
  } else {
    c.priced_runs++;
    if (c.unpriced_models.length === 0) c.usd = (c.usd ?? 0) + usd;
  }
}

export function usageTotals(records: readonly RunRecord[], prices: PriceTable): UsageTotals {
  const agent = zero();
  const appAgents = zero();
  const judge = zero();
  const noCost = (): CostTotal => ({ usd: null, priced_runs: 0, unpriced_models: [] });
  const cost = { agent: noCost(), app_agents: noCost(), judge: noCost() };
  for (const r of records) {
    const a = agentUsageOf(r);
    if (a) addRole(agent, cost.agent, a, prices);
    const x = appAgentsUsageOf(r);
    if (x) addRole(appAgents, cost.app_agents, x, prices);
    const j = judgeUsageOf(r);
    if (j) addRole(judge, cost.judge, j, prices);
  }
  // A role without any usage costs nothing; a role with unpriced runs makes the total unknown.
  const parts = ([[agent, cost.agent], [appAgents, cost.app_agents], [judge, cost.judge]] as const).map(([t, c]) => (t.runs === 0 ? 0 : c.usd));
  const used = agent.runs + appAgents.runs + judge.runs > 0;
  const total_usd = !used || parts.includes(null) ? null : parts.reduce((s, p) => s! + p!, 0);
  return { agent, app_agents: appAgents, judge, cost: { ...cost, total_usd } };
}
