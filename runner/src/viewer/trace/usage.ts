// Provider usage objects → one shape; cost from a small price table (an estimate, stated as such).
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

/** USD per million tokens: input, output, cache read, cache write. List prices; an estimate. */
const PRICES: ReadonlyArray<readonly [string, number, number, number, number]> = [
  ['claude-opus-4', 15, 75, 1.5, 18.75],
  ['claude-sonnet-4', 3, 15, 0.3, 3.75],
  ['claude-3-7-sonnet', 3, 15, 0.3, 3.75],
  ['claude-3-5-sonnet', 3, 15, 0.3, 3.75],
  ['claude-haiku-4', 1, 5, 0.1, 1.25],
  ['claude-3-5-haiku', 0.8, 4, 0.08, 1],
  ['gpt-4o-mini', 0.15, 0.6, 0.075, 0],
  ['gpt-4o', 2.5, 10, 1.25, 0],
  ['gpt-4.1-nano', 0.1, 0.4, 0.025, 0],
  ['gpt-4.1-mini', 0.4, 1.6, 0.1, 0],
  ['gpt-4.1', 2, 8, 0.5, 0],
  ['gpt-5-nano', 0.05, 0.4, 0.005, 0],
  ['gpt-5-mini', 0.25, 2, 0.025, 0],
  ['gpt-5', 1.25, 10, 0.125, 0],
  ['o4-mini', 1.1, 4.4, 0.275, 0],
  ['o3', 2, 8, 0.5, 0],
  ['gemini-2.5-flash', 0.3, 2.5, 0.075, 0],
  ['gemini-2.5-pro', 1.25, 10, 0.31, 0],
];

/** Null when the model is not in the table: unknown cost is never shown as 0. */
const priceCache = new Map<string, (typeof PRICES)[number] | null>();

function priceFor(model: string): (typeof PRICES)[number] | null {
  let best = priceCache.get(model);
  if (best !== undefined) return best;
  const bare = model.toLowerCase().split('/').pop() ?? '';
  best = null;
  for (const p of PRICES) if (bare.startsWith(p[0]) && (!best || p[0].length > best[0].length)) best = p;
  priceCache.set(model, best);
  return best;
}

export function estimateCostUsd(model: string, u: Usage): number | null {
  const best = priceFor(model);
  if (!best) return null;
  const [, inP, outP, readP, writeP] = best;
  return (u.input * inP + u.output * outP + u.cacheRead * readP + u.cacheWrite * (writeP || inP)) / 1e6;
}
