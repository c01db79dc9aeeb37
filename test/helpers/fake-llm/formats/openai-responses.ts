import { bodyField, sseData, type RenderContext, type WireFormat } from './types.js';

function outputItems(ctx: RenderContext): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (ctx.reply.reasoning) {
    items.push({ type: 'reasoning', id: `rs_${ctx.n}`, summary: [{ type: 'summary_text', text: ctx.reply.reasoning }] });
  }
  if (ctx.reply.text !== undefined) {
    items.push({
      type: 'message',
      id: `msg_${ctx.n}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: ctx.reply.text, annotations: [] }],
    });
  }
  ctx.toolCalls.forEach((c, i) => {
    items.push({
      type: 'function_call',
      id: `fc_${ctx.n}_${i}`,
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: 'completed',
    });
  });
  return items;
}

// Like chat completions, the Responses API counts cached tokens inside input_tokens.
const usage = (ctx: RenderContext) => ({
  input_tokens: ctx.usage.input + (ctx.usage.cacheRead ?? 0),
  input_tokens_details: { cached_tokens: ctx.usage.cacheRead ?? 0 },
  output_tokens: ctx.usage.output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: ctx.usage.input + (ctx.usage.cacheRead ?? 0) + ctx.usage.output,
});

function response(ctx: RenderContext, complete: boolean): Record<string, unknown> {
  return {
    id: `resp_${ctx.n}`,
    object: 'response',
    created_at: 1_700_000_000 + ctx.n,
    status: complete ? (ctx.reply.truncated ? 'incomplete' : 'completed') : 'in_progress',
    model: ctx.model,
    output: complete ? outputItems(ctx) : [],
    incomplete_details: complete && ctx.reply.truncated ? { reason: 'max_output_tokens' } : null,
    usage: complete ? usage(ctx) : null,
    error: null,
  };
}

export const openaiResponses: WireFormat = {
  accepts: (path) => path.endsWith('/responses'),
  isStreaming: (_path, body) => bodyField(body, 'stream') === true,
  model: (_path, body) => String(bodyField(body, 'model') ?? 'fake-model'),
  json: (ctx) => response(ctx, true),
  sse(ctx) {
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => sseData({ type, sequence_number: seq++, ...data }, type);
    const out = [ev('response.created', { response: response(ctx, false) })];
    outputItems(ctx).forEach((item, output_index) => {
      if (item.type === 'message') {
        out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
        const text = ctx.reply.text ?? '';
        const half = Math.ceil(text.length / 2);
        for (const delta of [text.slice(0, half), text.slice(half)]) {
          out.push(ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta }));
        }
      } else if (item.type === 'function_call') {
        out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }));
        out.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments }));
        out.push(ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }));
      } else {
        out.push(ev('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      }
      out.push(ev('response.output_item.done', { output_index, item }));
    });
    const done = ctx.reply.truncated ? 'response.incomplete' : 'response.completed';
    out.push(ev(done, { response: response(ctx, true) }));
    return out;
  },
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', param: null, code: String(status) },
  }),
};
