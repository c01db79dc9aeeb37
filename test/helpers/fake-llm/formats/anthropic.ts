import { bodyField, sseData, type RenderContext, type WireFormat } from './types.js';

const stopReason = (ctx: RenderContext): string =>
  ctx.reply.truncated ? 'max_tokens' : ctx.toolCalls.length > 0 ? 'tool_use' : 'end_turn';

function blocks(ctx: RenderContext): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (ctx.reply.reasoning) out.push({ type: 'thinking', thinking: ctx.reply.reasoning, signature: `sig_${ctx.n}` });
  if (ctx.reply.text !== undefined) out.push({ type: 'text', text: ctx.reply.text });
  for (const c of ctx.toolCalls) out.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
  return out;
}

/** The error type Anthropic's API names for each HTTP status (docs: "Errors"); any other is an api_error. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const anthropic: WireFormat = {
  accepts: (path) => path.endsWith('/messages'),
  isStreaming: (_path, body) => bodyField(body, 'stream') === true,
  model: (_path, body) => String(bodyField(body, 'model') ?? 'fake-model'),
  json: (ctx) => ({
    id: `msg_${ctx.n}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: blocks(ctx),
    stop_reason: stopReason(ctx),
    stop_sequence: null,
    usage: { input_tokens: ctx.usage.input, output_tokens: ctx.usage.output, cache_read_input_tokens: ctx.usage.cacheRead ?? 0, cache_creation_input_tokens: ctx.usage.cacheWrite ?? 0 },
  }),
  sse(ctx) {
    const ev = (type: string, data: Record<string, unknown>) => sseData({ type, ...data }, type);
    const out = [
      ev('message_start', {
        message: {
          id: `msg_${ctx.n}`,
          type: 'message',
          role: 'assistant',
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: ctx.usage.input, output_tokens: 1, cache_read_input_tokens: ctx.usage.cacheRead ?? 0, cache_creation_input_tokens: ctx.usage.cacheWrite ?? 0 },
        },
      }),
      ev('ping', {}),
    ];
    blocks(ctx).forEach((block, index) => {
      if (block.type === 'text') {
        const text = String(block.text);
        const half = Math.ceil(text.length / 2);
        out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
        for (const t of [text.slice(0, half), text.slice(half)]) {
          out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } }));
        }
      } else if (block.type === 'thinking') {
        out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }));
        out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }));
        out.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }));
      } else {
        const json = JSON.stringify(block.input);
        const half = Math.ceil(json.length / 2);
        out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
        for (const partial_json of [json.slice(0, half), json.slice(half)]) {
          out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
        }
      }
      out.push(ev('content_block_stop', { index }));
    });
    out.push(ev('message_delta', { delta: { stop_reason: stopReason(ctx), stop_sequence: null }, usage: { output_tokens: ctx.usage.output } }));
    out.push(ev('message_stop', {}));
    return out;
  },
  errorBody: (status, message) => ({
    type: 'error',
    error: {
      type: ERROR_TYPES[status] ?? 'api_error',
      message,
    },
  }),
};
