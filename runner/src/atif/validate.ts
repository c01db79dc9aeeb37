// An ATIF document checked as Harbor's pydantic models check it: required fields and their
// types, no field a model does not declare (they all forbid extras), step ids 1, 2, 3, …,
// fields only agent steps may carry, ISO 8601 timestamps, tool call ids unique within a step
// and every observation result naming one of its step's calls, no metrics or reasoning on a
// step that states it made no model call. Returns what is wrong, [] when nothing is.
import { ATIF_KNOWN_VERSIONS } from './schema.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);

const ROOT = ['schema_version', 'session_id', 'trajectory_id', 'agent', 'steps', 'notes', 'final_metrics', 'continued_trajectory_ref', 'extra', 'subagent_trajectories'];
const AGENT = ['name', 'version', 'model_name', 'tool_definitions', 'extra'];
const STEP = ['step_id', 'timestamp', 'source', 'model_name', 'reasoning_effort', 'message', 'reasoning_content', 'tool_calls', 'observation', 'metrics', 'is_copied_context', 'llm_call_count', 'extra'];
const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'];
const TOOL_CALL = ['tool_call_id', 'function_name', 'arguments', 'extra'];
const RESULT = ['source_call_id', 'content', 'subagent_trajectory_ref', 'extra'];
const METRICS = ['prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd', 'prompt_token_ids', 'completion_token_ids', 'logprobs', 'extra'];
const FINAL = ['total_prompt_tokens', 'total_completion_tokens', 'total_cached_tokens', 'total_cost_usd', 'total_steps', 'extra'];

function unknownKeys(o: Obj, allowed: string[], at: string, out: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) out.push(`${at}.${k}: not a field of the schema`);
}

const isIsoTime = (s: string): boolean => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s));

function checkStep(s: unknown, i: number, out: string[]): void {
  const at = `steps[${i}]`;
  if (!isObj(s)) return void out.push(`${at}: not an object`);
  unknownKeys(s, STEP, at, out);
  if (s.step_id !== i + 1) out.push(`${at}.step_id: expected ${i + 1} (sequential from 1), got ${JSON.stringify(s.step_id)}`);
  if (s.source !== 'system' && s.source !== 'user' && s.source !== 'agent') out.push(`${at}.source: must be system, user or agent`);
  if (typeof s.message !== 'string' && !Array.isArray(s.message)) out.push(`${at}.message: required, a string`);
  if (s.timestamp !== undefined && (typeof s.timestamp !== 'string' || !isIsoTime(s.timestamp))) out.push(`${at}.timestamp: not an ISO 8601 time`);
  if (s.source !== 'agent') for (const k of AGENT_ONLY) if (s[k] !== undefined) out.push(`${at}.${k}: only agent steps may carry it`);
  if (s.llm_call_count !== undefined && (!isInt(s.llm_call_count) || (s.llm_call_count as number) < 0)) out.push(`${at}.llm_call_count: a non-negative integer`);
  if (s.llm_call_count === 0 && s.source === 'agent' && (s.metrics !== undefined || s.reasoning_content !== undefined)) out.push(`${at}: no metrics or reasoning_content when llm_call_count is 0`);
  const ids = new Set<string>();
  if (s.tool_calls !== undefined) {
    if (!Array.isArray(s.tool_calls)) out.push(`${at}.tool_calls: an array`);
    else
      s.tool_calls.forEach((c, j) => {
        const cat = `${at}.tool_calls[${j}]`;
        if (!isObj(c)) return void out.push(`${cat}: not an object`);
        unknownKeys(c, TOOL_CALL, cat, out);
        if (typeof c.tool_call_id !== 'string') out.push(`${cat}.tool_call_id: required, a string`);
        else if (ids.has(c.tool_call_id)) out.push(`${cat}.tool_call_id: duplicate ${c.tool_call_id} in the step`);
        else ids.add(c.tool_call_id);
        if (typeof c.function_name !== 'string') out.push(`${cat}.function_name: required, a string`);
        if (!isObj(c.arguments)) out.push(`${cat}.arguments: required, an object`);
      });
  }
  if (s.observation !== undefined) {
    const o = s.observation;
    if (!isObj(o) || !Array.isArray(o.results)) return void out.push(`${at}.observation.results: required, an array`);
    unknownKeys(o, ['results'], `${at}.observation`, out);
    o.results.forEach((r, j) => {
      const rat = `${at}.observation.results[${j}]`;
      if (!isObj(r)) return void out.push(`${rat}: not an object`);
      unknownKeys(r, RESULT, rat, out);
      if (r.source_call_id !== undefined && r.source_call_id !== null && !ids.has(String(r.source_call_id))) out.push(`${rat}.source_call_id: ${String(r.source_call_id)} is none of the step's tool calls`);
      if (r.content !== undefined && r.content !== null && typeof r.content !== 'string' && !Array.isArray(r.content)) out.push(`${rat}.content: a string`);
    });
  }
  if (s.metrics !== undefined) {
    if (!isObj(s.metrics)) out.push(`${at}.metrics: an object`);
    else {
      unknownKeys(s.metrics, METRICS, `${at}.metrics`, out);
      for (const k of ['prompt_tokens', 'completion_tokens', 'cached_tokens']) if (s.metrics[k] !== undefined && !isInt(s.metrics[k])) out.push(`${at}.metrics.${k}: an integer`);
    }
  }
}

export function validateTrajectory(doc: unknown): string[] {
  const out: string[] = [];
  if (!isObj(doc)) return ['the document is not a JSON object'];
  unknownKeys(doc, ROOT, '$', out);
  if (typeof doc.schema_version !== 'string' || !ATIF_KNOWN_VERSIONS.includes(doc.schema_version)) out.push(`$.schema_version: one of ${ATIF_KNOWN_VERSIONS.join(', ')}`);
  if (doc.session_id !== undefined && typeof doc.session_id !== 'string') out.push('$.session_id: a string');
  const agent = doc.agent;
  if (!isObj(agent)) out.push('$.agent: required, an object');
  else {
    unknownKeys(agent, AGENT, '$.agent', out);
    if (typeof agent.name !== 'string') out.push('$.agent.name: required, a string');
    if (typeof agent.version !== 'string') out.push('$.agent.version: required, a string');
  }
  if (!Array.isArray(doc.steps) || doc.steps.length === 0) out.push('$.steps: required, at least one step');
  else doc.steps.forEach((s, i) => checkStep(s, i, out));
  if (doc.final_metrics !== undefined) {
    if (!isObj(doc.final_metrics)) out.push('$.final_metrics: an object');
    else {
      unknownKeys(doc.final_metrics, FINAL, '$.final_metrics', out);
      const n = doc.final_metrics.total_steps;
      if (n !== undefined && (!isInt(n) || (n as number) < 0)) out.push('$.final_metrics.total_steps: a non-negative integer');
    }
  }
  if (doc.extra !== undefined && !isObj(doc.extra)) out.push('$.extra: an object');
  return out;
}
