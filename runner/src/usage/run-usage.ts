// Token usage of one scenario run, for result.json: the agent's calls summed from trace.jsonl,
// the Agent2Agent app agents' from app_agents_trace.jsonl and the judge's from
// judge_trace.jsonl (one line per HTTP call, docs/trace-format.md). An
// image that writes no trace is covered by what each role reported to the daemon
// (daemon_status.agent_usage / app_agents_usage), marked as such.
import type { DaemonStatus, RoleUsage, RunUsage, TokenUsage } from '../../../agent-image/src/contract/index.js';
import { ENV } from '../../../agent-image/src/contract/paths.js';
import { linesOfRole, type TrafficRole } from '../trace/traffic-lines.js';
import { canonicalizeRow, isRenderableRow, modelOfRequest, totalInput } from '../trace/index.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Sums one trace file; null when it holds no LLM call. */
export function usageOfTrace(text: string, fallbackModel: string | null): RoleUsage | null {
  const sum: RoleUsage = { model: null, source: 'trace', llm_calls: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a torn last line
    }
    if (!row || typeof row !== 'object' || !isRenderableRow(row)) continue;
    sum.llm_calls! += 1;
    // The body's model, else the URL's (Gemini's models/<m>:…), else what the line states.
    const model = modelOfRequest(row.request, typeof row.url === 'string' ? row.url : '') ?? (typeof row.model === 'string' && row.model ? row.model : null);
    const ours = row.usage as Partial<Record<string, unknown>> | null | undefined;
    if (ours && typeof ours === 'object') {
      // Our image's trace states each call's usage (agent-image/src/llm/trace-usage.ts).
      sum.input_tokens += num(ours.input_tokens);
      sum.output_tokens += num(ours.output_tokens);
      sum.cache_read_tokens! += num(ours.cache_read_tokens);
      sum.cache_write_tokens! += num(ours.cache_write_tokens);
      if (model) sum.model ??= model;
      continue;
    }
    if ('usage' in row) continue; // our writer, but the body stated no usage (an error reply)
    const call = canonicalizeRow(row, 0); // another writer: read the usage off the response
    sum.input_tokens += totalInput(call.usage);
    sum.output_tokens += call.usage.output;
    sum.cache_read_tokens! += call.usage.cacheRead;
    sum.cache_write_tokens! += call.usage.cacheWrite;
    const named = model ?? call.model;
    if (named) sum.model ??= named;
  }
  if (sum.llm_calls === 0) return null;
  sum.model ??= fallbackModel;
  return sum;
}

/**
 * A role's totals as its runtime reported them to the daemon (no call count, no cache writes):
 * `agent_usage` and `app_agents_usage` apart (docs/contract.md). Images from before the split
 * state only `usage`, the sum of both: the agent's part is that sum less the app agents' usage
 * when it is known from their trace (`others`), else the whole sum.
 */
function usageOfDaemon(status: DaemonStatus | null, role: 'agent' | 'app_agents', model: string | null, others: RoleUsage | null = null): RoleUsage | null {
  const split = status?.agent_usage !== undefined || status?.app_agents_usage !== undefined;
  const u: unknown = role === 'app_agents' ? status?.app_agents_usage : split ? status?.agent_usage : status?.usage;
  if (!u || typeof u !== 'object') return null;
  const counts = u as Record<string, unknown>;
  if (typeof counts.input_tokens !== 'number') return null;
  const less = !split && role === 'agent' && others ? others : null;
  const minus = (k: 'input_tokens' | 'output_tokens' | 'cache_read_tokens') => Math.max(0, num(counts[k]) - num(less?.[k]));
  return { model, source: 'agent_report', input_tokens: minus('input_tokens'), output_tokens: minus('output_tokens'), cache_read_tokens: minus('cache_read_tokens') };
}

export function addTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  const out: TokenUsage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_tokens: (a.cache_read_tokens ?? 0) + (b.cache_read_tokens ?? 0),
    cache_write_tokens: (a.cache_write_tokens ?? 0) + (b.cache_write_tokens ?? 0),
  };
  if (a.llm_calls !== undefined || b.llm_calls !== undefined) out.llm_calls = (a.llm_calls ?? 0) + (b.llm_calls ?? 0);
  return out;
}

export const ZERO_TOKENS: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/**
 * result.json's `usage` from the run's artifacts; undefined when no LLM was used. `env` is the
 * container's environment: its MODEL / GAIA2_JUDGE_MODEL name the models when a trace does not.
 */
export function usageOfRun(artifacts: ReadonlyMap<string, Buffer>, status: DaemonStatus | null, env: Readonly<Record<string, string>>): RunUsage | undefined {
  const text = (name: string) => artifacts.get(name)?.toString('utf8') ?? '';
  const agentModel = env.MODEL?.trim() || null;
  const appModel = appAgentsModel(env);
  const appAgents = usageOfTrace(text('app_agents_trace.jsonl'), appModel) ?? usageOfDaemon(status, 'app_agents', appModel);
  const agent = usageOfTrace(text('trace.jsonl'), agentModel) ?? usageOfDaemon(status, 'agent', agentModel, appAgents);
  const judge = usageOfTrace(text('judge_trace.jsonl'), env.GAIA2_JUDGE_MODEL?.trim() || null);
  if (!agent && !judge && !appAgents) return undefined;
  const total = [agent, appAgents, judge].reduce<TokenUsage>((sum, u) => (u ? addTokens(sum, u) : sum), ZERO_TOKENS);
  return { ...total, ...(agent ? { agent } : {}), ...(appAgents ? { app_agents: appAgents } : {}), ...(judge ? { judge } : {}) };
}

/**
 * result.json's `usage` from the model gateway's record of the run (model_traffic.jsonl): the
 * same per-call sums, split by the role stamped on each line; undefined when it holds no call.
 */
export function usageOfTraffic(text: string, env: Readonly<Record<string, string>>): RunUsage | undefined {
  const sum = (role: TrafficRole, model: string | null): RoleUsage | null => {
    const u = usageOfTrace(linesOfRole(text, role), model);
    return u ? { ...u, source: 'gateway' } : null;
  };
  const agent = sum('agent', env.MODEL?.trim() || null);
  const appAgents = sum('app_agent', appAgentsModel(env));
  const judge = sum('judge', env.GAIA2_JUDGE_MODEL?.trim() || null);
  if (!agent && !judge && !appAgents) return undefined;
  const total = [agent, appAgents, judge].reduce<TokenUsage>((s, u) => (u ? addTokens(s, u) : s), ZERO_TOKENS);
  return { ...total, ...(agent ? { agent } : {}), ...(appAgents ? { app_agents: appAgents } : {}), ...(judge ? { judge } : {}) };
}

/** The app agents' model as the runner sent it (GAIA2_A2A), for traces that do not name it. */
function appAgentsModel(env: Readonly<Record<string, string>>): string | null {
  try {
    const model = (JSON.parse(env[ENV.a2a] ?? 'null') as { model?: unknown } | null)?.model;
    return typeof model === 'string' && model ? model : null;
  } catch {
    return null;
  }
}
