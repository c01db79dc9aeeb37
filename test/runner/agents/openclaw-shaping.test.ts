// OpenClaw's way to the model through bin/agent-serve's proxy
// (runner/src/agents/openclaw/layer/lib/openclaw-shaping.mjs), against provider doubles on
// 127.0.0.1: what the model receives (the reference launcher's shaping: stream off, reasoning
// effort), what OpenClaw gets back (the JSON answer as the event stream it asked for), other
// providers passed as they are (streams too), and the warm-up's call answered in place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
// @ts-expect-error a plain .mjs of the layer, no types
import { shapeBody, startModelProxy } from '../../../runner/src/agents/openclaw/layer/lib/openclaw-shaping.mjs';

type Proxy = { url: string; close(): Promise<void> };
let chat: FakeLlm;
let anthropic: FakeLlm;
let compat: Proxy;
let messages: Proxy;

beforeAll(async () => {
  chat = await startFakeLlm({ format: 'openai-chat', script: [call('exec', { command: 'ls' }, { text: 'Let me look.' }), say('Done.')] });
  anthropic = await startFakeLlm({ format: 'anthropic', script: [say('Hello from the stream.')] });
  compat = await startModelProxy({ upstream: chat.url, provider: 'openai-compat', effort: 'low', warmup: 'nonce-123' });
  messages = await startModelProxy({ upstream: anthropic.origin, provider: 'anthropic', effort: 'low', warmup: 'nonce-123' });
});
afterAll(async () => {
  await Promise.all([compat?.close(), messages?.close(), chat?.close(), anthropic?.close()]);
});

const post = (base: string, path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('chat completions (openai-compat) through the proxy', () => {
  it('the base URL keeps the upstream path; the model gets stream:false with reasoning {effort}, the key header as sent', async () => {
    expect(compat.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await post(compat.url, '/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer tok-1' });
    expect(chat.requests.at(-1)!.body).toMatchObject({ stream: false, reasoning: { effort: 'low' } });
    expect(chat.requests.at(-1)!.headers.authorization).toBe('Bearer tok-1');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const chunks = text.split('\n\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const deltas = chunks.flatMap((c) => c.choices.map((x: { delta: Record<string, unknown> }) => x.delta));
    // text beside tool calls is left out, as the reference's launcher does
    expect(deltas.some((d) => d.content === 'Let me look.')).toBe(false);
    expect(deltas.find((d) => Array.isArray(d.tool_calls) && (d.tool_calls as Array<{ function: { name?: string } }>)[0]!.function.name === 'exec')).toBeTruthy();
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: expect.any(Number) });
  });

  it("answers the warm-up run's call in place with a refusal: the double never sees it", async () => {
    const before = chat.requests.length;
    const res = await post(compat.url, '/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'gaia2 warm-up nonce-123' }] });
    expect(res.status).toBe(400);
    expect(chat.requests.length).toBe(before);
  });

  it('keeps a reasoning setting OpenClaw made; openrouter keeps its stream and asks for reasoning by enabling it; off adds nothing', () => {
    expect(shapeBody({ stream: true, reasoning: { effort: 'high' } }, { openrouter: false, effort: 'low' })).toEqual({ stream: false, reasoning: { effort: 'high' } });
    expect(shapeBody({ stream: true }, { openrouter: true, effort: 'low' })).toEqual({ stream: true, reasoning: { enabled: true } });
    expect(shapeBody({ stream: true }, { openrouter: true, effort: 'off' })).toBeNull();
  });
});

describe('other providers through the proxy', () => {
  it('Anthropic Messages: the request and its event stream pass as they are', async () => {
    const res = await post(messages.url, '/v1/messages', { model: 'claude', stream: true, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': 'tok-2' });
    expect(anthropic.requests.at(-1)!.body).toEqual({ model: 'claude', stream: true, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(anthropic.requests.at(-1)!.headers['x-api-key']).toBe('tok-2');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('Hello fro');
  });
});

describe("the gateway process's fetch (lib/openclaw-offline.mjs)", () => {
  it('reaches loopback only: the model proxy is there, a price list elsewhere fails as offline', async () => {
    const original = globalThis.fetch;
    try {
      // @ts-expect-error a plain .mjs of the layer, no types
      const { isLoopback } = await import('../../../runner/src/agents/openclaw/layer/lib/openclaw-offline.mjs');
      expect(isLoopback('http://127.0.0.1:4000/v1/chat/completions')).toBe(true);
      expect(isLoopback('http://localhost:4000/x')).toBe(true);
      expect(isLoopback('http://[::1]:4000/x')).toBe(true);
      expect(isLoopback('https://openrouter.ai/api/v1/models')).toBe(false);
      await expect(fetch('https://openrouter.ai/api/v1/models')).rejects.toThrow(/reaches nothing but its model endpoint/);
      const res = await fetch(`${compat.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'gaia2 warm-up nonce-123' }] }) });
      expect(res.status).toBe(400);
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe("the gateway process's name lookups (lib/openclaw-offline.mjs, with a base URL)", () => {
  it("answer for this machine only: OpenClaw 2026.9's plugin-catalog host fails at once as offline, localhost still resolves", async () => {
    // @ts-expect-error a plain .mjs of the layer, no types
    const { isLoopbackName, loopbackOnlyLookups } = await import('../../../runner/src/agents/openclaw/layer/lib/openclaw-offline.mjs');
    expect(isLoopbackName('localhost')).toBe(true);
    expect(isLoopbackName('127.0.0.1')).toBe(true);
    expect(isLoopbackName('clawhub.ai')).toBe(false);
    // a stand-in for node:dns whose lookups would reach a resolver: the patched ones must not call it for clawhub.ai
    const asked: string[] = [];
    const fake = {
      lookup: (name: string, _o: unknown, cb: (e: Error | null, a?: string, f?: number) => void) => (asked.push(name), cb(null, '127.0.0.1', 4)),
      promises: { lookup: async (name: string, _o?: unknown) => (asked.push(name), [{ address: '127.0.0.1', family: 4 }]) },
    };
    loopbackOnlyLookups(fake);
    await expect(fake.promises.lookup('clawhub.ai', { all: true })).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const err = await new Promise<Error | null>((resolve) => fake.lookup('clawhub.ai', {}, (e: Error | null) => resolve(e)));
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
    await expect(fake.promises.lookup('localhost', {})).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(asked).toEqual(['localhost']);
  });
});
