import { bodyField, sseData, type RenderContext, type WireFormat } from './types.js';

const finishReason = (ctx: RenderContext): string =>
  ctx.reply.truncated ? 'length' : ctx.toolCalls.length > 0 ? 'tool_calls' : 'stop';

// OpenAI counts cached tokens inside prompt_tokens.
const usage = (ctx: RenderContext) => ({
  prompt_tokens: ctx.usage.input + (ctx.usage.cacheRead ?? 0),
  completion_tokens: ctx.usage.output,
  total_tokens: ctx.usage.input + (ctx.usage.cacheRead ?? 0) + ctx.usage.output,
  prompt_tokens_details: { cached_tokens: ctx.usage.cacheRead ?? 0 },
});

export const openaiChat: WireFormat = {
  accepts: (path) => path.endsWith('/chat/completions'),
  isStreaming: (_path, body) => bodyField(body, 'stream') === true,
  model: (_path, body) => String(bodyField(body, 'model') ?? 'fake-model'),
  json(ctx) {
    const message: Record<string, unknown> = { role: 'assistant', content: ctx.reply.text ?? null };
    if (ctx.reply.reasoning) message.reasoning_content = ctx.reply.reasoning;
    if (ctx.toolCalls.length > 0) {
      message.tool_calls = ctx.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      }));
    }
    return {
      id: `chatcmpl-${ctx.n}`,
      object: 'chat.completion',
      created: 1_700_000_000 + ctx.n,
      model: ctx.model,
      choices: [{ index: 0, message, finish_reason: finishReason(ctx) }],
      usage: usage(ctx),
    };
  },
  sse(ctx) {
    const base = { id: `chatcmpl-${ctx.n}`, object: 'chat.completion.chunk', created: 1_700_000_000 + ctx.n, model: ctx.model };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      sseData({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    const out = [chunk({ role: 'assistant', content: '' })];
    if (ctx.reply.reasoning) out.push(chunk({ reasoning_content: ctx.reply.reasoning }));
    if (ctx.reply.text) {
      // Two pieces, so clients must really concatenate deltas.
      const half = Math.ceil(ctx.reply.text.length / 2);
      out.push(chunk({ content: ctx.reply.text.slice(0, half) }), chunk({ content: ctx.reply.text.slice(half) }));
    }
    ctx.toolCalls.forEach((c, index) => {
      const args = JSON.stringify(c.args);
      const half = Math.ceil(args.length / 2);
      out.push(
        chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: args.slice(0, half) } }] }),
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }),
      );
    });
    out.push(chunk({}, finishReason(ctx)));
    out.push(sseData({ ...base, choices: [], usage: usage(ctx) }));
    out.push('data: [DONE]\n\n');
    return out;
  },
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_error' : status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: String(status) },
  }),
};
