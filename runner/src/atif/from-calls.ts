// A scenario run's model calls → one ATIF trajectory. Each answered call is an agent step:
// its text, reasoning, tool calls, the outputs those got (read from later requests, as the
// trace reader pairs them) and its tokens. What the agent was told between calls — the system
// prompt, the user's messages and the apps' notifications — becomes system and user steps, in
// the order the requests first carried them. Tool results are not user steps: they are the
// agent step's observation.
import type { Block, CanonicalCall, Message, ToolStep } from '../trace/index.js';
import { commonPrefix, messageKey, toolStepsOfCalls, totalInput } from '../trace/index.js';
import { ATIF_SCHEMA_VERSION, type AtifStep, type AtifToolCall, type AtifTrajectory } from './schema.js';

export interface TrajectoryFacts {
  sessionId: string;
  agent: { name: string; version: string };
  /** Root `extra`: the run's own facts (scenario, verdict, source file). */
  extra: Record<string, unknown>;
}

const textOf = (blocks: Block[], type: 'text' | 'thinking'): string =>
  blocks
    .filter((b): b is Extract<Block, { type: 'text' | 'thinking' }> => b.type === type)
    .map((b) => b.text)
    .join('\n\n');

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Tool calls with ids unique within the step (Harbor refuses duplicates); arguments always an object. */
function toolCalls(steps: ToolStep[], stepId: number): Array<{ call: AtifToolCall; step: ToolStep }> {
  const used = new Set<string>();
  return steps.map((s, i) => {
    let id = s.id || `call-${stepId}-${i + 1}`;
    if (used.has(id)) id = `${id}-${i + 1}`;
    used.add(id);
    // A tool whose input is not an object (a bare string) keeps it under `input`.
    return { call: { tool_call_id: id, function_name: s.name, arguments: isPlainObject(s.input) ? s.input : { input: s.input } }, step: s };
  });
}

function agentStep(call: CanonicalCall, tools: ToolStep[], stepId: number): AtifStep {
  const step: AtifStep = { step_id: stepId, source: 'agent', message: textOf(call.response.blocks, 'text') };
  if (call.timestamp) step.timestamp = call.timestamp;
  if (call.model) step.model_name = call.model;
  const reasoning = textOf(call.response.blocks, 'thinking');
  if (reasoning) step.reasoning_content = reasoning;
  const calls = toolCalls(tools, stepId);
  if (calls.length) step.tool_calls = calls.map((c) => c.call);
  const results = calls
    .filter((c) => c.step.output !== null)
    .map((c) => ({ source_call_id: c.call.tool_call_id, content: c.step.output!, ...(c.step.isError ? { extra: { is_error: true } } : {}) }));
  if (results.length) step.observation = { results };
  const u = call.usage;
  const cost = call.costUsd;
  const extraTokens = { ...(u.cacheWrite ? { cache_write_tokens: u.cacheWrite } : {}), ...(u.reasoning ? { reasoning_tokens: u.reasoning } : {}) };
  step.metrics = {
    prompt_tokens: totalInput(u),
    completion_tokens: u.output,
    cached_tokens: u.cacheRead,
    ...(cost !== null ? { cost_usd: cost } : {}),
    ...(Object.keys(extraTokens).length ? { extra: extraTokens } : {}),
  };
  step.llm_call_count = 1;
  step.extra = {
    seq: call.seq,
    http_status: call.status,
    latency_ms: call.latencyMs,
    ...(call.stopReason ? { stop_reason: call.stopReason } : {}),
    ...(call.error ? { error: `${call.error.title}${call.error.title && call.error.detail ? ': ' : ''}${call.error.detail}` } : {}),
  };
  return step;
}

/** The system and user text a request adds (tool results and echoed answers are not steps). */
function toldSteps(messages: Message[], firstId: number): AtifStep[] {
  const out: AtifStep[] = [];
  for (const m of messages) {
    if (m.role !== 'system' && m.role !== 'user') continue;
    const text = textOf(m.blocks, 'text');
    if (text) out.push({ step_id: firstId + out.length, source: m.role, message: text });
  }
  return out;
}

/** null when no call was answered (an agent that made no model call has no trajectory). */
export function trajectoryOfCalls(calls: readonly CanonicalCall[], facts: TrajectoryFacts): AtifTrajectory | null {
  const tools = toolStepsOfCalls(calls);
  const steps: AtifStep[] = [];
  let prevKeys: string[] = [];
  let answered = 0;
  calls.forEach((call, i) => {
    // A failed attempt that was retried is not a step: its retry is. Nor is a request no
    // answer came back to (cut off when the run ended: the gateway's `abandoned` lines).
    if (call.retried || (call.status === 0 && call.response.blocks.length === 0 && call.error === null)) return;
    const keys = call.requestMessages.map(messageKey);
    steps.push(...toldSteps(call.requestMessages.slice(commonPrefix(keys, prevKeys)), steps.length + 1));
    steps.push(agentStep(call, tools[i] ?? [], steps.length + 1));
    answered++;
    prevKeys = [...keys, messageKey(call.response)];
  });
  if (answered === 0) return null;
  const agentSteps = steps.filter((s) => s.source === 'agent');
  const sum = (k: 'prompt_tokens' | 'completion_tokens' | 'cached_tokens'): number => agentSteps.reduce((n, s) => n + (s.metrics?.[k] ?? 0), 0);
  const costs = agentSteps.map((s) => s.metrics?.cost_usd);
  const model = agentSteps.find((s) => s.model_name)?.model_name;
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: facts.sessionId,
    agent: { ...facts.agent, ...(model ? { model_name: model } : {}) },
    steps,
    final_metrics: {
      total_prompt_tokens: sum('prompt_tokens'),
      total_completion_tokens: sum('completion_tokens'),
      total_cached_tokens: sum('cached_tokens'),
      // A model without a price makes the total unknown, not smaller.
      ...(costs.every((c) => typeof c === 'number') ? { total_cost_usd: costs.reduce<number>((n, c) => n + (c ?? 0), 0) } : {}),
      total_steps: steps.length,
    },
    extra: facts.extra,
  };
}
