import type { RenderContext, WireFormat } from './types.js';

function candidateBody(ctx: RenderContext): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (ctx.reply.reasoning) parts.push({ text: ctx.reply.reasoning, thought: true });
  if (ctx.reply.text !== undefined) parts.push({ text: ctx.reply.text });
  for (const c of ctx.toolCalls) parts.push({ functionCall: { name: c.name, args: c.args } });
  return {
    candidates: [
      { content: { role: 'model', parts }, finishReason: ctx.reply.truncated ? 'MAX_TOKENS' : 'STOP', index: 0 },
    ],
    // promptTokenCount includes the cached part, stated apart only when there is one.
    usageMetadata: {
      promptTokenCount: ctx.usage.input + (ctx.usage.cacheRead ?? 0),
      candidatesTokenCount: ctx.usage.output,
      totalTokenCount: ctx.usage.input + (ctx.usage.cacheRead ?? 0) + ctx.usage.output,
      ...(ctx.usage.cacheRead ? { cachedContentTokenCount: ctx.usage.cacheRead } : {}),
    },
    modelVersion: ctx.model,
  };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export const gemini: WireFormat = {
  accepts: (path) => /\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(path),
  isStreaming: (path) => path.endsWith(':streamGenerateContent'),
  model: (path) => /\/models\/([^/:]+):/.exec(path)?.[1] ?? 'fake-model',
  json: candidateBody,
  sse(ctx) {
    // Text first, then the calls and usage in a final chunk, as the real API tends to split.
    const full = candidateBody(ctx);
    const out: string[] = [];
    if (ctx.reply.text) {
      out.push(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: ctx.reply.text }] }, index: 0 }], modelVersion: ctx.model })}\r\n\r\n`);
      const cand = (full.candidates as Record<string, any>[])[0]!;
      cand.content.parts = cand.content.parts.filter((p: Record<string, unknown>) => !(typeof p.text === 'string' && !p.thought));
    }
    out.push(`data: ${JSON.stringify(full)}\r\n\r\n`);
    return out;
  },
  errorBody: (status, message) => ({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }),
};
