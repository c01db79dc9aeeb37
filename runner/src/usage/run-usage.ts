// Token usage of one scenario run, for result.json: the agent's calls summed from trace.jsonl,
// the Agent2Agent app agents' from app_agents_trace.jsonl and the judge's from
// judge_trace.jsonl (one line per HTTP call, docs/trace-format.md). An
// image that writes no trace is covered by what each role reported to the daemon
// (daemon_status.agent_usage / app_agents_usage), marked as such.
import type { DaemonStatus, RoleUsage, RunUsage } from '@gaia2/contract';
import { ENV } from '@gaia2/contract/paths';
import { linesOfRole, type TrafficRole } from '../trace/traffic-lines.js';
import { addTokens, sumTokens, ZERO_TOKENS, type TokenUsage } from '../tokens/index.js';
import { callTokens, canonicalizeRow, isRenderableRow, modelOfRequest } from '../trace/index.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Sums one trace file; null when it holds no LLM call. */
export function usageOfTrace(text: string, fallbackModel: string | null): RoleUsage | null {
  let sum: TokenUsage = { ...ZERO_TOKENS, llm_calls: 0 };
  let model: string | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a torn last line
    }
    if (!row || typeof row !== 'object' || !isRenderableRow(row)) continue;
    // The body's model, else the URL's (Gemini's models/<m>:…), else what the line states.
    let named = modelOfRequest(row.request, typeof row.url === 'string' ? row.url : '') ?? (typeof row.model === 'string' && row.model ? row.model : null);
    const ours = row.usage as Partial<Record<string, unknown>> | null | undefined;
    let call: TokenUsage | null = null;
    if (ours && typeof ours === 'object') {
      // Our image's trace states each call's usage (agent-image/src/llm/trace-usage.ts).
      call = { input_tokens: num(ours.input_tokens), output_tokens: num(ours.output_tokens), cache_read_tokens: num(ours.cache_read_tokens), cache_write_tokens: num(ours.cache_write_tokens) };
    } else if (!('usage' in row)) {
      // Another writer: read the usage off the response.
      const c = canonicalizeRow(row, 0);
      call = callTokens(c.usage);
      named ??= c.model || null;
    } // else our writer, but the body stated no usage (an error reply): a call without tokens
    sum = addTokens(sum, { ...(call ?? ZERO_TOKENS), llm_calls: 1 });
    if (call && named) model ??= named;
  }
  if (!sum.llm_calls) return null;
  const { llm_calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens } = sum;
  return { model: model ?? fallbackModel, source: 'trace', llm_calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens };
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
  const total = sumTokens([agent, appAgents, judge]);
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
  const total = sumTokens([agent, appAgents, judge]);
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
