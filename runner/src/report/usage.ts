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

/** The agent's part of a result's usage; results from before the split count as the agent's. */
export function agentUsageOf(r: RunRecord): RoleUsage | null {
  const u = r.result.usage as RunUsage | undefined;
  if (!u || typeof u !== 'object') return null;
  if (u.agent) return u.agent;
  if (u.judge || typeof u.input_tokens !== 'number') return null;
  return { ...u, model: typeof r.result.model === 'string' ? r.result.model : null, source: 'agent_report' };
}

export function judgeUsageOf(r: RunRecord): RoleUsage | null {
  return (r.result.usage as RunUsage | undefined)?.judge ?? null;
}

export function appAgentsUsageOf(r: RunRecord): RoleUsage | null {
  return (r.result.usage as RunUsage | undefined)?.app_agents ?? null;
}

function addRole(t: TokenTotals, c: CostTotal, u: RoleUsage, prices: PriceTable): void {
  t.input += u.input_tokens;
  t.output += u.output_tokens;
  t.cache_read += u.cache_read_tokens ?? 0;
  t.cache_write += u.cache_write_tokens ?? 0;
  t.llm_calls += u.llm_calls ?? 0;
  t.runs++;
  const usd = costUsd(prices, u.model, u);
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
