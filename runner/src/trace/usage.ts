// Provider usage objects → one shape; cost from the runner's price table (an estimate, stated as such).
import { costUsd, defaultPriceTable } from '../pricing/index.js';
import { asNum, asObj, type Obj } from './json-util.js';

export interface Usage {
  /** Input tokens not read from cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Reasoning tokens, already included in `output` by every provider that reports them. */
  reasoning: number;
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

/** All input the model read: fresh, cache writes and cache reads. */
export const totalInput = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite;

export function unifyUsage(raw: unknown): Usage {
  const u = asObj(raw);
  if ('prompt_tokens' in u || 'completion_tokens' in u) {
    // OpenAI chat and (mapped) Gemini: prompt_tokens includes the cached part.
    const cached = asNum(asObj(u.prompt_tokens_details).cached_tokens) || asNum(u.cached_tokens);
    return {
      input: Math.max(0, asNum(u.prompt_tokens) - cached),
      output: asNum(u.completion_tokens),
      cacheRead: cached,
      cacheWrite: 0,
      reasoning: asNum(asObj(u.completion_tokens_details).reasoning_tokens) || asNum(u.reasoning_tokens),
    };
  }
  if (isObjWith(u, 'input_tokens_details') || isObjWith(u, 'output_tokens_details')) {
    // Responses API: input_tokens includes the cached part.
    const cached = asNum(asObj(u.input_tokens_details).cached_tokens);
    return {
      input: Math.max(0, asNum(u.input_tokens) - cached),
      output: asNum(u.output_tokens),
      cacheRead: cached,
      cacheWrite: 0,
      reasoning: asNum(asObj(u.output_tokens_details).reasoning_tokens),
    };
  }
  // Anthropic: input_tokens excludes cache reads and writes.
  return {
    input: asNum(u.input_tokens),
    output: asNum(u.output_tokens),
    cacheRead: asNum(u.cache_read_input_tokens),
    cacheWrite: asNum(u.cache_creation_input_tokens),
    reasoning: 0,
  };
}

const isObjWith = (o: Obj, k: string): boolean => typeof o[k] === 'object' && o[k] !== null;

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
  };
}

/** Cost at the runner's price table (runner/src/pricing); null when the model is not in it. */
export function estimateCostUsd(model: string, u: Usage): number | null {
  return costUsd(defaultPriceTable(), model, {
    input_tokens: totalInput(u),
    output_tokens: u.output,
    cache_read_tokens: u.cacheRead,
    cache_write_tokens: u.cacheWrite,
  });
}
