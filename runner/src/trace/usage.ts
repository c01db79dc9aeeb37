// Provider usage objects → one shape; cost from the runner's price table (an estimate, stated as such).
import { costUsd, defaultPriceTable } from '../pricing/index.js';
import { fullUsage, normalizeUsage } from '../../../agent-image/src/llm/trace-usage.js';
import { totalInput, type Usage } from './usage-shape.js';

export { totalInput, ZERO_USAGE, type Usage } from './usage-shape.js';

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
