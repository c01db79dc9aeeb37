// Token usage of LLM calls, whatever the provider: `normalizeUsage` is the one place a
// provider's usage object (Anthropic Messages, OpenAI chat, OpenAI Responses, Gemini
// usageMetadata, the Llama API's metrics list) becomes our counts, each read from the shape the
// provider sends. The image records each call's counts on its trace line (`usageOf`, from the
// raw body) and the runner's trace parser (runner/src/trace) hands this function the usage
// object exactly as the body carried it, for traces of other writers.
import type { TokenUsage } from '../contract/result.js';

/**
 * One call's counts, every one stated: the contract's TokenUsage (what result.json sums), so a
 * trace line's `usage` is added up by the runner as it is. Input includes cached input
 * (Anthropic reports it apart; it is added), output includes reasoning (Gemini reports
 * thoughts apart; they are added).
 */
export type CallUsage = Required<Omit<TokenUsage, 'llm_calls'>>;

/** A call's counts plus the reasoning part of output_tokens (not recorded on trace lines). */
export interface NormalUsage extends CallUsage {
  reasoning_tokens: number;
}

type Raw = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});

/**
 * One provider usage object → the counts it states (absent keys stay absent, so the partial
 * objects of a stream can be merged: Anthropic sends input on message_start, output later).
 */
export function normalizeUsage(raw: unknown): Partial<NormalUsage> {
  if (Array.isArray(raw)) return llamaMetrics(raw);
  const u = obj(raw);
  const out: Partial<NormalUsage> = {};
  if ('promptTokenCount' in u || 'candidatesTokenCount' in u) {
    // Gemini usageMetadata: the prompt count includes the cached part; thoughts and tool-use
    // prompts are billed but counted apart from candidates and prompt.
    if (isNum(u.promptTokenCount)) out.input_tokens = u.promptTokenCount + num(u.toolUsePromptTokenCount);
    if (isNum(u.candidatesTokenCount) || isNum(u.thoughtsTokenCount)) out.output_tokens = num(u.candidatesTokenCount) + num(u.thoughtsTokenCount);
    if (isNum(u.cachedContentTokenCount)) out.cache_read_tokens = u.cachedContentTokenCount;
    if (isNum(u.thoughtsTokenCount)) out.reasoning_tokens = u.thoughtsTokenCount;
    return out;
  }
  if ('prompt_tokens' in u || 'completion_tokens' in u) {
    // OpenAI chat: prompt_tokens includes the cached part, completion_tokens the reasoning.
    if (isNum(u.prompt_tokens)) out.input_tokens = u.prompt_tokens;
    const cached = num(obj(u.prompt_tokens_details).cached_tokens);
    if (cached) out.cache_read_tokens = cached;
    if (isNum(u.completion_tokens)) out.output_tokens = u.completion_tokens;
    const reasoning = num(obj(u.completion_tokens_details).reasoning_tokens);
    if (reasoning) out.reasoning_tokens = reasoning;
    return out;
  }
  if (isNum(u.input_tokens) && !('cache_read_input_tokens' in u) && !('cache_creation_input_tokens' in u) && ('input_tokens_details' in u || 'output_tokens_details' in u)) {
    // OpenAI Responses: input_tokens includes the cached part, output_tokens the reasoning.
    out.input_tokens = u.input_tokens;
    if (isNum(u.output_tokens)) out.output_tokens = u.output_tokens;
    const cached = num(obj(u.input_tokens_details).cached_tokens);
    if (cached) out.cache_read_tokens = cached;
    const reasoning = num(obj(u.output_tokens_details).reasoning_tokens);
    if (reasoning) out.reasoning_tokens = reasoning;
    return out;
  }
  // Anthropic Messages: input_tokens leaves out what was read from or written to the cache.
  const read = num(u.cache_read_input_tokens);
  const write = num(u.cache_creation_input_tokens);
  if (isNum(u.input_tokens)) out.input_tokens = u.input_tokens + read + write;
  if (isNum(u.output_tokens)) out.output_tokens = u.output_tokens;
  if (read) out.cache_read_tokens = read;
  if (write) out.cache_write_tokens = write;
  return out;
}

/** The Llama API's usage: a list of `{metric, value}` (num_prompt_tokens, num_completion_tokens, …). */
function llamaMetrics(list: unknown[]): Partial<NormalUsage> {
  const out: Partial<NormalUsage> = {};
  for (const m of list) {
    const { metric, value } = obj(m);
    if (metric === 'num_prompt_tokens' && isNum(value)) out.input_tokens = value;
    if (metric === 'num_completion_tokens' && isNum(value)) out.output_tokens = value;
  }
  return out;
}

/** All counts of a (merged) partial usage, absent ones as 0. */
export function fullUsage(u: Partial<NormalUsage>): NormalUsage {
  return { input_tokens: u.input_tokens ?? 0, output_tokens: u.output_tokens ?? 0, cache_read_tokens: u.cache_read_tokens ?? 0, cache_write_tokens: u.cache_write_tokens ?? 0, reasoning_tokens: u.reasoning_tokens ?? 0 };
}

function fromEvent(ev: unknown, acc: Partial<NormalUsage>): void {
  const o = obj(ev);
  // Anthropic SSE: input on message_start, output on message_delta.
  if (o.type === 'message_start' && obj(o.message).usage) return fromEvent({ usage: obj(o.message).usage }, acc);
  // Responses SSE: the completed response carries the usage.
  if (typeof o.type === 'string' && o.type.startsWith('response.') && o.response) return fromEvent(o.response, acc);
  if (o.usage && typeof o.usage === 'object') Object.assign(acc, normalizeUsage(o.usage));
  if (o.usageMetadata && typeof o.usageMetadata === 'object') Object.assign(acc, normalizeUsage(o.usageMetadata));
  if (Array.isArray(o.metrics)) Object.assign(acc, normalizeUsage(o.metrics));
}

/** Token usage of one raw response body (JSON or SSE of the wire formats above); null: none stated. */
export function usageOf(raw: string): CallUsage | null {
  const acc: Partial<NormalUsage> = {};
  const head = raw.slice(0, 2000);
  if (head.includes('data:')) {
    for (const line of raw.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '' || data === '[DONE]') continue;
      try {
        fromEvent(JSON.parse(data), acc);
      } catch {
        /* partial or foreign line */
      }
    }
  } else {
    try {
      fromEvent(JSON.parse(raw), acc);
    } catch {
      return null;
    }
  }
  if (acc.input_tokens === undefined && acc.output_tokens === undefined) return null;
  const { reasoning_tokens: _reasoning, ...counts } = fullUsage(acc);
  return counts;
}
