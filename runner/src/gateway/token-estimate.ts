// A request's tokens, estimated before it is sent, so that tokens per minute can hold it back
// before the provider would (docs/gateway.md, "Limits and retries"). Providers meter the same
// way: the prompt's size from its characters plus the most the answer may use. The estimate is
// replaced by the provider's own usage once the answer ends.

/** Characters per token of the prompt estimate: ~4 for English text; JSON structure makes it safe-side. */
const CHARS_PER_TOKEN = 4;

/** Output tokens assumed when the request sets no limit of its own. */
export const DEFAULT_OUTPUT_ESTIMATE = 4096;

function positive(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

/** The answer's token limit the request sets, in any of the four API kinds' fields. */
export function maxOutputTokens(request: unknown): number | null {
  const r = (request ?? {}) as Record<string, unknown>;
  const gen = (r.generationConfig ?? {}) as Record<string, unknown>;
  return positive(r.max_tokens) ?? positive(r.max_completion_tokens) ?? positive(r.max_output_tokens) ?? positive(gen.maxOutputTokens);
}

/** Prompt tokens from the body's size, plus the answer's limit (or the default). */
export function estimateTokens(requestText: string, request: unknown): number {
  const prompt = Math.ceil(Buffer.byteLength(requestText, 'utf8') / CHARS_PER_TOKEN);
  return prompt + (maxOutputTokens(request) ?? DEFAULT_OUTPUT_ESTIMATE);
}
