// Token counts of LLM calls: one type and one way to add them. The type is the contract's
// TokenUsage, the counts result.json states (and a trace line's or a gateway record line's
// `usage`, which have the same keys), so the counts the runner adds are the counts it writes.
// Shapes written elsewhere (report.json's role totals, the viewer's per-call counts) are
// made from this type where they are written, never added up in their own shape.
import type { TokenUsage } from '@gaia2/contract';

export type { TokenUsage };

export const ZERO_TOKENS: TokenUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/**
 * a + b. `llm_calls` is kept only when one side counts calls: an agent's own report to the
 * daemon has no call count, and a sum of such reports must not claim one of 0.
 */
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

/** The parts that are there, added; ZERO_TOKENS when none is. */
export function sumTokens(parts: Iterable<TokenUsage | null | undefined>): TokenUsage {
  let sum = ZERO_TOKENS;
  for (const p of parts) if (p) sum = addTokens(sum, p);
  return sum;
}

/** Input neither read from nor written to the prompt cache (input_tokens includes both). */
export const freshInput = (t: TokenUsage): number => Math.max(0, t.input_tokens - (t.cache_read_tokens ?? 0) - (t.cache_write_tokens ?? 0));
