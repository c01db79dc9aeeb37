// Provider usage objects → the counts the trace pages show for one call, and back to the
// runner's one token type (runner/src/tokens) for every sum and cost.
import type { TokenUsage } from '../tokens/index.js';
import { fullUsage, normalizeUsage } from '@gaia2/contract/lib/llm/trace-usage';
import { totalInput, type Usage } from './usage-shape.js';

export { totalInput, type Usage } from './usage-shape.js';

/**
 * A provider's usage object as the trace pages count it. The counting itself is the image's
 * (agent-image/src/llm/trace-usage.ts, the one normaliser of every provider's usage); here
 * input is split into its fresh part and the cache's.
 */
export function unifyUsage(raw: unknown): Usage {
  const u = fullUsage(normalizeUsage(raw));
  return {
    input: Math.max(0, u.input_tokens - u.cache_read_tokens - u.cache_write_tokens),
    output: u.output_tokens,
    cacheRead: u.cache_read_tokens,
    cacheWrite: u.cache_write_tokens,
    reasoning: u.reasoning_tokens,
  };
}

/** One call's counts as the runner adds and prices them (input with its cached part). */
export function callTokens(u: Usage): TokenUsage {
  return { input_tokens: totalInput(u), output_tokens: u.output, cache_read_tokens: u.cacheRead, cache_write_tokens: u.cacheWrite };
}
