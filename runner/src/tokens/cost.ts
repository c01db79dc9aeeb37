// The one cost function: tokens at a model's list prices. Every cost the runner shows or
// writes (a call in the viewer, a gateway record line's cost_usd, a role in the report)
// comes from here, so one price table gives one answer everywhere.
import type { TokenUsage } from './counts.js';
import { freshInput } from './counts.js';
import { priceOf, type PriceTable } from './prices.js';

/** USD for these tokens at this model's prices; null when the table does not know the model. */
export function costUsd(table: PriceTable, model: string | null | undefined, t: TokenUsage): number | null {
  const p = priceOf(table, model);
  if (!p) return null;
  const read = t.cache_read_tokens ?? 0;
  const write = t.cache_write_tokens ?? 0;
  return (freshInput(t) * p.input + read * (p.cache_read ?? p.input) + write * (p.cache_write ?? p.input) + t.output_tokens * p.output) / 1e6;
}

/**
 * Two costs added. Unknown (null) as soon as one is: a total that left out an unpriced part
 * would look like the whole cost, and be too low.
 */
export const addCost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);
