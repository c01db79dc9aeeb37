// The reference launcher's request shaping, loaded into OpenClaw's gateway process
// (runner/src/agents/openclaw/layer/lib/openclaw-shaping.mjs), against a chat-completions double
// on 127.0.0.1: what the model receives (stream off, reasoning effort), what OpenClaw gets back
// (the JSON answer as the event stream it asked for), and the warm-up run's call answered in
// the process, never sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';

let fake: FakeLlm;
/** The module wraps the process's fetch, as in OpenClaw's process; put back for the other files of this worker. */
const original = globalThis.fetch;
let shaping: { shapeBody: (b: object, openrouter: boolean) => object | null; completionToEvents: (j: object) => string };
const fetchOf = () => globalThis.fetch;

beforeAll(async () => {
  fake = await startFakeLlm({ format: 'openai-chat', script: [call('exec', { command: 'ls' }, { text: 'Let me look.' }), say('Done.')] });
  process.env.GAIA2_OC_PROVIDER = 'openai-compat';
  process.env.GAIA2_OC_THINKING = 'low';
  process.env.GAIA2_OC_WARMUP = 'nonce-123';
  // @ts-expect-error a plain .mjs of the layer, no types
  shaping = await import('../../../runner/src/agents/openclaw/layer/lib/openclaw-shaping.mjs');
});
afterAll(async () => {
  globalThis.fetch = original;
  for (const k of ['GAIA2_OC_PROVIDER', 'GAIA2_OC_THINKING', 'GAIA2_OC_WARMUP']) delete process.env[k];
  await fake?.close();
});

const post = (body: object) => fetchOf()(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('chat-completions shaping (openai-compat)', () => {
  it('sends stream:false with reasoning {effort} and hands OpenClaw the answer as events, text beside tool calls left out', async () => {
    const res = await post({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests.at(-1)!.body).toMatchObject({ stream: false, reasoning: { effort: 'low' } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const chunks = text.split('\n\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const deltas = chunks.flatMap((c) => c.choices.map((x: { delta: Record<string, unknown> }) => x.delta));
    expect(deltas.some((d) => d.content === 'Let me look.')).toBe(false);
    expect(deltas.find((d) => Array.isArray(d.tool_calls) && (d.tool_calls as Array<{ function: { name?: string } }>)[0]!.function.name === 'exec')).toBeTruthy();
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: expect.any(Number) });
  });

  it('keeps a reasoning setting OpenClaw made, and openrouter keeps its stream and asks for reasoning by enabling it', () => {
    expect(shaping.shapeBody({ stream: true, reasoning: { effort: 'high' } }, false)).toEqual({ stream: false, reasoning: { effort: 'high' } });
    expect(shaping.shapeBody({ stream: true }, true)).toEqual({ stream: true, reasoning: { enabled: true } });
  });

  it("answers the warm-up run's call inside the process with a refusal: the double never sees it", async () => {
    const before = fake.requests.length;
    const res = await post({ model: 'm', stream: true, messages: [{ role: 'user', content: 'gaia2 warm-up nonce-123' }] });
    expect(res.status).toBe(400);
    expect(fake.requests.length).toBe(before);
  });
});
