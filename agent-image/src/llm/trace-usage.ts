// Token usage of one raw response body, whatever its format (JSON or SSE of the four
// supported wire formats). Recorded on each trace line so reports need not re-parse bodies.

export interface CallUsage {
  /** Every input token, cached ones included (Anthropic reports those apart; they are added). */
  input_tokens: number;
  output_tokens: number;
  /** Part of input_tokens read from the prompt cache. */
  cache_read_tokens: number;
  /** Part of input_tokens written to the prompt cache (Anthropic reports it; others do not). */
  cache_write_tokens: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function fromObject(obj: any, acc: Partial<CallUsage>): void {
  if (!obj || typeof obj !== 'object') return;
  // Anthropic SSE: input on message_start, output on message_delta.
  if (obj.type === 'message_start' && obj.message?.usage) return fromObject({ usage: obj.message.usage }, acc);
  // Responses SSE: the completed response carries the usage.
  if (typeof obj.type === 'string' && obj.type.startsWith('response.') && obj.response) return fromObject(obj.response, acc);
  const u = obj.usage ?? undefined;
  if (u && typeof u === 'object') {
    // Anthropic's input_tokens leaves out what was read from or written to the cache.
    const anthropicCached = num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
    const input = u.input_tokens ?? u.prompt_tokens;
    const output = u.output_tokens ?? u.completion_tokens;
    if (typeof input === 'number') acc.input_tokens = input + anthropicCached;
    if (typeof output === 'number') acc.output_tokens = output;
    const cached = num(u.cache_read_input_tokens) || num(u.prompt_tokens_details?.cached_tokens) || num(u.input_tokens_details?.cached_tokens);
    if (cached) acc.cache_read_tokens = cached;
    if (num(u.cache_creation_input_tokens)) acc.cache_write_tokens = num(u.cache_creation_input_tokens);
  }
  const g = obj.usageMetadata;
  if (g && typeof g === 'object') {
    if (typeof g.promptTokenCount === 'number') acc.input_tokens = g.promptTokenCount;
    if (num(g.cachedContentTokenCount)) acc.cache_read_tokens = num(g.cachedContentTokenCount);
    if (typeof g.candidatesTokenCount === 'number') {
      acc.output_tokens = g.candidatesTokenCount + (typeof g.thoughtsTokenCount === 'number' ? g.thoughtsTokenCount : 0);
    }
  }
}

export function usageOf(raw: string): CallUsage | null {
  const acc: Partial<CallUsage> = {};
  const head = raw.slice(0, 2000);
  if (head.includes('data:')) {
    for (const line of raw.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '' || data === '[DONE]') continue;
      try {
        fromObject(JSON.parse(data), acc);
      } catch {
        /* partial or foreign line */
      }
    }
  } else {
    try {
      fromObject(JSON.parse(raw), acc);
    } catch {
      return null;
    }
  }
  if (acc.input_tokens === undefined && acc.output_tokens === undefined) return null;
  return {
    input_tokens: acc.input_tokens ?? 0,
    output_tokens: acc.output_tokens ?? 0,
    cache_read_tokens: acc.cache_read_tokens ?? 0,
    cache_write_tokens: acc.cache_write_tokens ?? 0,
  };
}
