// Trace parsing per provider format, including the reference's pinned cases (the reference's test_trace_parser.py).
import { describe, expect, it } from 'vitest';
import { normalizeEntry, parseRawResponse, parseSseEvents, parseTraceJsonl, canonicalizeRow } from '../../../runner/src/trace/index.js';
import { usageOf } from '@gaia2/contract/lib/llm/trace-usage';

const sse = (...events: unknown[]): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

describe('SSE parsing', () => {
  it('keeps data lines, skips [DONE], comments, event/id lines and bad JSON', () => {
    const text = ': keep-alive\nevent: x\nid: 1\ndata: {"a":1}\n\ndata: not json\ndata: {"b":2}\ndata: [DONE]\n';
    expect(parseSseEvents(text)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseSseEvents('')).toEqual([]);
  });
});

describe('Anthropic', () => {
  const stream = sse(
    { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' world' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'exec', input: {} } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"command":' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"ls -la"}' } },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } },
  );

  it('reassembles text, thinking, tool input, model and usage', () => {
    const r = parseRawResponse(stream);
    expect(r.model).toBe('claude-sonnet-4-5');
    expect(r.stop_reason).toBe('tool_use');
    expect(r.usage).toEqual({ input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 7, output_tokens: 42 });
    expect(r.content).toEqual([
      { type: 'thinking', thinking: 'Let me think' },
      { type: 'text', text: 'Hello world' },
      { type: 'tool_use', id: 'toolu_1', name: 'exec', input: { command: 'ls -la' } },
    ]);
  });

  it("takes message_delta's running totals over message_start's (a server tool adds input)", () => {
    const raw = sse(
      { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 12, cache_read_input_tokens: 100, output_tokens: 1 } } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 40, cache_read_input_tokens: 100, output_tokens: 42, server_tool_use: { web_search_requests: 1 } } },
    );
    expect(canonicalizeRow({ url: 'https://api.anthropic.com/v1/messages', http_status: 200, raw_response: raw }, 0).usage).toMatchObject({ input: 40, cacheRead: 100, output: 42 });
    expect(usageOf(raw)).toMatchObject({ input_tokens: 140, output_tokens: 42 });
  });

  it('gives empty content and usage for a stream with no events', () => {
    const r = parseRawResponse('data: {"type":"ping"}\n');
    expect(r.content).toEqual([]);
    expect(r.usage).toEqual({});
  });

  it('recognises an error event arriving first (the reference misroutes it)', () => {
    const c = canonicalizeRow({ url: 'https://api.anthropic.com/v1/messages', http_status: 200, raw_response: sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }, 0);
    expect(c.error).toEqual({ title: 'overloaded_error', detail: 'Overloaded' });
  });

  it('keeps JSON responses and canonicalises thinking + tool_use with ids', () => {
    const raw = JSON.stringify({ model: 'claude-x', stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 3 }, content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'tool_use', id: 't1', name: 'exec', input: { command: 'date' } }] });
    const r = parseRawResponse(raw);
    expect(r.model).toBe('claude-x');
    expect(Array.isArray(r.content)).toBe(true);
    const c = canonicalizeRow({ url: 'https://api.anthropic.com/v1/messages', http_status: 200, request: { system: 'sys', messages: [{ role: 'user', content: 'hi' }] }, raw_response: raw }, 0);
    expect(c.response.blocks.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(c.response.blocks[1]).toMatchObject({ id: 't1', name: 'exec', input: { command: 'date' } });
    expect(c.requestMessages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(c.provider).toBe('anthropic');
    expect(c.usage).toMatchObject({ input: 5, output: 3 });
  });
});

describe('OpenAI chat', () => {
  it('concatenates content, merges tool calls by index, keeps usage-only final chunk', () => {
    const r = parseRawResponse(
      sse(
        { model: 'gpt-4o', choices: [{ delta: { reasoning_content: 'why ' } }] },
        { model: 'other', choices: [{ delta: { content: 'Hel', reasoning_content: 'not' } }] },
        { choices: [{ delta: { content: 'lo', tool_calls: [{ index: 0, id: 'call_1', function: { name: 'exec', arguments: '{"comm' } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: 'and":"ls"}' } }] }, finish_reason: 'tool_calls' }] },
        { choices: [], usage: { prompt_tokens: 10, completion_tokens: 4 } },
      ),
    );
    expect(r).toMatchObject({ model: 'gpt-4o', content: 'Hello', reasoning: 'why not', finish_reason: 'tool_calls', usage: { prompt_tokens: 10, completion_tokens: 4 } });
    expect(r.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'exec', arguments: '{"command":"ls"}' } }]);
  });

  it('gives usage {} and finish_reason "" with no events', () => {
    expect(parseRawResponse('data: [DONE]\n')).toMatchObject({ usage: {}, finish_reason: '' });
  });

  it('parses JSON with reasoning_content; invalid or empty JSON gives {}', () => {
    const r = parseRawResponse(JSON.stringify({ model: 'gpt-4o', choices: [{ message: { content: 'Hi', reasoning_content: 'thought' }, finish_reason: 'stop' }] }));
    expect(r).toMatchObject({ model: 'gpt-4o', content: 'Hi', finish_reason: 'stop', reasoning: 'thought' });
    expect(parseRawResponse('{not json')).toEqual({});
    expect(parseRawResponse('')).toEqual({});
  });

  it('maps provider-native completion_message and metrics, passing tool_calls through', () => {
    const tc = [{ id: 'x', function: { name: 'exec', arguments: '{}' } }];
    const r = parseRawResponse(JSON.stringify({ completion_message: { content: { type: 'text', text: 'Yo' }, stop_reason: 'stop', tool_calls: tc }, metrics: [{ metric: 'num_prompt_tokens', value: 9 }, { metric: 'num_completion_tokens', value: 2 }] }));
    expect(r).toMatchObject({ content: 'Yo', finish_reason: 'stop', usage: [{ metric: 'num_prompt_tokens', value: 9 }, { metric: 'num_completion_tokens', value: 2 }] });
    expect(r.tool_calls).toEqual(tc);
    expect(canonicalizeRow({ http_status: 200, raw_response: JSON.stringify({ completion_message: { content: 'Yo' }, metrics: [{ metric: 'num_prompt_tokens', value: 9 }, { metric: 'num_completion_tokens', value: 2 }] }) }, 0).usage).toMatchObject({ input: 9, output: 2 });
  });

  it('counts null usage counters as 0 and subtracts cached prompt tokens into cacheRead', () => {
    const c = canonicalizeRow({ http_status: 200, request: { model: 'gemini-2.5-pro', messages: [] }, raw_response: JSON.stringify({ choices: [{ message: { content: 'a' } }], usage: { prompt_tokens: 10, completion_tokens: null } }) }, 0);
    expect(c.usage).toMatchObject({ input: 10, output: 0 });
    expect(c.provider).toBe('google');
    const d = canonicalizeRow({ http_status: 200, raw_response: JSON.stringify({ choices: [{ message: { content: 'a' } }], usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 60 } } }) }, 0);
    expect(d.usage).toMatchObject({ input: 40, cacheRead: 60, output: 5 });
  });
});

describe('OpenAI Responses', () => {
  const request = { model: 'gpt-5', input: [{ role: 'developer', content: 'You are a phone agent' }, { role: 'user', content: [{ type: 'input_text', text: 'list files' }] }, { type: 'function_call', call_id: 'c0', name: 'exec', arguments: '{"command":"pwd"}' }, { type: 'function_call_output', call_id: 'c0', output: 'file1' }] };
  it('uses response.completed, adding reasoning from the summary deltas', () => {
    const raw = sse(
      { type: 'response.created', response: { model: 'gpt-5' } },
      { type: 'response.reasoning_summary_text.delta', delta: 'Plan it' },
      { type: 'response.completed', response: { object: 'response', model: 'gpt-5', usage: { input_tokens: 50, output_tokens: 5, input_tokens_details: { cached_tokens: 20 } }, output: [{ type: 'reasoning', summary: [] }, { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'exec', arguments: '{"command":"ls -la"}' }] } },
    );
    const e = normalizeEntry({ url: 'https://api.openai.com/v1/responses', http_status: 200, request, raw_response: raw });
    expect(e.response).toMatchObject({ model: 'gpt-5', status: 200, finish_reason: 'tool_calls', reasoning: 'Plan it' });
    expect((e.response!.tool_calls as Array<{ id: string }>)[0]!.id).toBe('call_9');
    const c = canonicalizeRow({ url: 'https://api.openai.com/v1/responses', http_status: 200, request, raw_response: raw }, 0);
    expect(c.requestMessages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(c.requestMessages[3]!.blocks[0]).toEqual({ type: 'tool_result', id: 'c0', content: 'file1' });
    expect(c.usage).toMatchObject({ input: 30, cacheRead: 20, output: 5 });
  });

  it('gives content and stop for a completed message', () => {
    const raw = sse({ type: 'response.completed', response: { object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Done' }] }] } });
    expect(parseRawResponse(raw)).toMatchObject({ content: 'Done', finish_reason: 'stop' });
  });

  it('rebuilds a truncated stream from item and argument deltas', () => {
    const raw = sse(
      { type: 'response.created', response: { model: 'gpt-5', usage: null } },
      { type: 'response.reasoning_summary_text.delta', delta: 'Think' },
      { type: 'response.output_item.added', item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'exec' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"command":' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', arguments: '{"command":"ls"}' },
    );
    const r = parseRawResponse(raw);
    expect(r).toMatchObject({ model: 'gpt-5', reasoning: 'Think', finish_reason: 'tool_calls' });
    expect(r.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'exec', arguments: '{"command":"ls"}' } }]);
  });
});

describe('Google', () => {
  const json = { modelVersion: 'gemini-3.1-pro', candidates: [{ content: { parts: [{ text: 'Thinking hard', thought: true }, { functionCall: { name: 'exec', args: { command: 'date' } } }, { text: 'Done' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 6, totalTokenCount: 26 } };

  it('maps JSON: model, content, reasoning, stop, google-call-<n> ids, usage', () => {
    const r = parseRawResponse(JSON.stringify(json));
    expect(r).toMatchObject({ model: 'gemini-3.1-pro', content: 'Done', reasoning: 'Thinking hard', finish_reason: 'stop', usage: json.usageMetadata });
    expect(r.tool_calls).toEqual([{ id: 'google-call-2', type: 'function', function: { name: 'exec', arguments: '{"command":"date"}' } }]);
  });

  it('merges SSE chunks and de-duplicates a resent call with extended args', () => {
    const raw = sse(
      { modelVersion: 'gemini-2.5-pro', candidates: [{ content: { parts: [{ text: 'Pl', thought: true }] } }] },
      { candidates: [{ content: { parts: [{ text: 'an', thought: true }, { functionCall: { name: 'exec', args: { command: 'date' } } }] } }] },
      { candidates: [{ content: { parts: [{ functionCall: { name: 'exec', args: { command: 'date', cwd: '/' } } }] } }] },
      { candidates: [{ content: { parts: [{ text: 'Done' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 2 } },
    );
    const r = parseRawResponse(raw);
    expect(r).toMatchObject({ model: 'gemini-2.5-pro', reasoning: 'Plan', content: 'Done', finish_reason: 'stop', usage: { promptTokenCount: 11, candidatesTokenCount: 2 } });
    expect(r.tool_calls).toEqual([{ id: 'google-call-1', type: 'function', function: { name: 'exec', arguments: '{"command":"date","cwd":"/"}' } }]);
  });

  it('counts every usageMetadata field: tool-use prompt as input, thoughts as output, cached content as cache reads', () => {
    const usageMetadata = { promptTokenCount: 100, toolUsePromptTokenCount: 30, cachedContentTokenCount: 40, candidatesTokenCount: 6, thoughtsTokenCount: 9, totalTokenCount: 145 };
    const raw = JSON.stringify({ ...json, usageMetadata });
    const c = canonicalizeRow({ url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3.1-pro:generateContent', http_status: 200, raw_response: raw }, 0);
    expect(c.usage).toEqual({ input: 90, cacheRead: 40, cacheWrite: 0, output: 15, reasoning: 9 });
    // The same body as the image's trace line records it: one reading, the same counts.
    expect(usageOf(raw)).toEqual({ input_tokens: 130, output_tokens: 15, cache_read_tokens: 40, cache_write_tokens: 0 });
  });

  it('canonicalises requests: system instruction, roles, functionCall/functionResponse', () => {
    const request = {
      systemInstruction: { parts: [{ text: 'You are helpful' }] },
      contents: [
        { role: 'user', parts: [{ text: 'What time is it?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'exec', args: { command: 'date' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'exec', response: { output: 'Thu' } } }] },
      ],
    };
    const c = canonicalizeRow({ url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3.1-pro:generateContent', http_status: 200, request, raw_response: JSON.stringify(json) }, 0);
    expect(c.requestMessages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(c.requestMessages[2]!.blocks[0]).toMatchObject({ type: 'tool_use', name: 'exec', input: { command: 'date' } });
    expect(c.requestMessages[3]!.blocks[0]).toEqual({ type: 'tool_result', id: '', name: 'exec', content: '{"output":"Thu"}' });
    expect(c.model).toBe('gemini-3.1-pro');
    expect(c.provider).toBe('google');
    expect(c.stopReason).toBe('stop');
  });
});

describe('entry normalisation and trace files', () => {
  it('returns Format B rows as the same object and never mutates Format A rows', () => {
    const b = { response: { content: 'x' } };
    expect(normalizeEntry(b)).toBe(b);
    const a = { seq: 1, http_status: 201, raw_response: JSON.stringify({ model: 'm', stop_reason: 'end_turn', content: [{ type: 'text', text: 'hi' }] }) };
    const keys = Object.keys(a);
    const n = normalizeEntry(a);
    expect(Object.keys(a)).toEqual(keys);
    expect(n.response).toMatchObject({ status: 201, model: 'm' });
    expect(normalizeEntry({ raw_response: '' }).response).toBeUndefined();
  });

  it('keeps truncated bodies raw, skips summary/npm rows, reports bad lines, marks retries', () => {
    const rows = [
      { seq: 1, url: 'https://x/v1/chat/completions', http_status: 429, request: { messages: [{ role: 'user', content: 'go' }] }, raw_response: '{"error":{"type":"rate_limit","message":"slow down"}}' },
      { seq: 2, url: 'https://x/v1/chat/completions', http_status: 200, request: { messages: [{ role: 'user', content: 'go' }] }, raw_response: '{"choices":[{"message":{"content":"partial' + '...[truncated]' },
      { timestamp: 1775115853.2, model: 'm', api_calls: 3, input_tokens: 1, output_tokens: 1, completed: true },
      { url: 'https://registry.npmjs.org/openclaw', request: {}, raw_response: '{}' },
    ];
    const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n{"seq": 3, "torn';
    const t = parseTraceJsonl(text);
    expect(t.calls).toHaveLength(2);
    expect(t.ignoredRows).toBe(2);
    expect(t.badLines).toEqual([{ line: 5, text: '{"seq": 3, "torn' }]);
    expect(t.calls[0]!.retried).toBe(true);
    expect(t.calls[0]!.error).toEqual({ title: 'rate_limit', detail: 'slow down' });
    expect(t.calls[1]!.unparsed).toContain('...[truncated]');
    expect(t.calls[1]!.retried).toBe(false);
  });

  it('reads our agent\'s network-failure rows and attempt counter (docs/trace-format.md)', () => {
    const req = { model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }] };
    const text = [
      { seq: 1, url: 'https://x/v1/chat/completions', http_status: 0, attempt: 1, request: req, raw_response: '{"error":"socket hang up","type":"fetch_error"}' },
      { seq: 2, url: 'https://x/v1/chat/completions', http_status: 408, attempt: 2, request: req, raw_response: '{"error":{"type":"timeout","message":"slow"}}' },
      { seq: 3, url: 'https://x/v1/chat/completions', http_status: 200, attempt: 3, request: req, raw_response: '{"choices":[{"message":{"content":"ok"}}]}' },
    ].map((r) => JSON.stringify(r)).join('\n');
    const t = parseTraceJsonl(text);
    expect(t.calls.map((c) => c.retried)).toEqual([true, true, false]);
    expect(t.calls[0]!.error).toEqual({ title: 'fetch_error', detail: 'socket hang up' });
  });

  it('does not take an answered call for a retry when the next line is a gateway record of several attempts', () => {
    // The gateway writes one line per request; `attempt` there counts the attempts it made.
    const text = [
      { seq: 1, url: 'https://x/v1/chat/completions', http_status: 200, attempt: 1, request: { messages: [{ role: 'user', content: 'go' }] }, raw_response: '{"choices":[{"message":{"content":"one"}}]}' },
      { seq: 2, url: 'https://x/v1/chat/completions', http_status: 200, attempt: 3, request: { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'one' }, { role: 'user', content: 'more' }] }, raw_response: '{"choices":[{"message":{"content":"two"}}]}' },
    ].map((r) => JSON.stringify(r)).join('\n');
    expect(parseTraceJsonl(text).calls.map((c) => c.retried)).toEqual([false, false]);
  });
});
