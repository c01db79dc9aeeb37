// Hostile and truncated trace rows: parsed or shown raw, never a crash.
import { describe, expect, it } from 'vitest';
import { parseTraceJsonl } from '../../../runner/src/trace/index.js';
import { conversationGroups } from '../../../runner/src/viewer/model/conversation.js';
import { anthropicTrace } from '../viewer/synthetic.js';

const sse = (...events: unknown[]): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

const BODIES = [
  sse({ type: 'message_start', message: { model: 'claude', usage: { input_tokens: 3 } } }, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'exec', input: {} } }, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"command":"ls"}' } }, { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 2 } }),
  sse({ model: 'gpt', choices: [{ delta: { content: 'a', tool_calls: [{ index: 0, id: 'c', function: { name: 'exec', arguments: '{"a":' } }] } }] }, { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, finish_reason: 'tool_calls' }] }),
  sse({ type: 'response.created', response: { model: 'gpt-5' } }, { type: 'response.output_item.added', item: { type: 'function_call', id: 'fc', call_id: 'c', name: 'exec' } }, { type: 'response.function_call_arguments.delta', item_id: 'fc', delta: '{"x":1}' }),
  sse({ candidates: [{ content: { parts: [{ text: 'hi' }, { functionCall: { name: 'exec', args: { a: 1 } } }] } }] }),
  JSON.stringify({ candidates: [{ content: { parts: [{ text: 'x', thought: true }] }, finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 1 } }),
];

const WEIRD_ROWS: unknown[] = [
  { request: null, raw_response: 'null' },
  { request: 'a string', raw_response: '[1,2,3]' },
  { request: { messages: 'not a list' }, raw_response: '{"choices":"nope"}' },
  { request: { messages: [null, 3, { role: 7, content: 5 }, { role: 'tool', content: { a: 1 } }] }, raw_response: '{"content":7,"stop_reason":null}' },
  { request: { input: [null, { type: 'function_call', arguments: 5 }, { role: 'user', content: [null, 1, { type: 'image_url' }] }] }, raw_response: '{"object":"response","output":[null,{"type":"message","content":"x"}]}' },
  { request: { contents: [{ parts: 'x' }, { role: 'model', parts: [null, { functionCall: null }] }] }, raw_response: '{"candidates":[null]}' },
  { response: { content: [{ type: 'tool_use' }, { type: 'tool_result', content: [null, { text: 5 }] }], tool_calls: 'x', usage: 'y' } },
  { response: 'not an object', raw_response: 42 },
  { seq: 'x', timestamp: {}, latency_ms: 'slow', http_status: '200', request: {}, raw_response: 'data: {"type":"ping"}' },
  { request: {}, raw_response: 'event: only\n\n: comment\n' },
];

describe('trace robustness', () => {
  it('survives every provider body cut at every length', () => {
    for (const body of BODIES) {
      for (let cut = 0; cut <= body.length; cut += 7) {
        const row = { seq: 1, url: 'https://x/v1/messages', http_status: 200, request: { messages: [{ role: 'user', content: 'go' }] }, raw_response: body.slice(0, cut) };
        const t = parseTraceJsonl(JSON.stringify(row));
        expect(() => conversationGroups(t.calls)).not.toThrow();
      }
    }
  });

  it('survives rows with wrong types everywhere', () => {
    const t = parseTraceJsonl(WEIRD_ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n[1,2]\n"str"\nnull\n');
    expect(t.badLines.map((b) => b.line)).toEqual([11, 12, 13]);
    expect(t.calls.length + t.ignoredRows).toBe(WEIRD_ROWS.length);
    const groups = conversationGroups(t.calls);
    expect(groups.length).toBe(t.calls.length);
  });

  it('survives a whole trace file cut mid-line', () => {
    const text = anthropicTrace({ id: 'x', status: 'pass', calls: 4 });
    for (let cut = 0; cut < text.length; cut += Math.ceil(text.length / 60)) {
      const t = parseTraceJsonl(text.slice(0, cut));
      expect(() => conversationGroups(t.calls)).not.toThrow();
      expect(t.badLines.length).toBeLessThanOrEqual(1);
    }
  });
});
