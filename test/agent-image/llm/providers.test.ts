import { generateText, stepCountIs, streamText } from 'ai';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../agent-image/src/llm/index.js';
import { call, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { lookup, PROVIDER_FORMATS, readTrace, SECRET, tempTraceFile } from './helpers.js';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});


describe('createModel speaks every provider wire format', () => {
  for (const { provider, format, baseSuffix } of PROVIDER_FORMATS) {
    for (const streaming of [false, true]) {
      it(`${provider} (${format}, ${streaming ? 'streaming' : 'JSON'}) runs a tool call then answers, and traces both calls`, async () => {
        fake = await startFakeLlm({
          format,
          script: [call('lookup', { word: 'gaia' }, { usage: { input: 50, output: 7 } }), say('Gaia is the earth.', { usage: { input: 80, output: 9, cacheRead: 20, cacheWrite: 5 } })],
        });
        const traceFile = tempTraceFile();
        const llm = createModel({
          provider,
          model: 'm-1',
          apiKey: SECRET,
          baseUrl: fake.url + (baseSuffix ?? ''),
          thinking: 'off',
          traceFile,
        });
        const args = { model: llm.model, ...llm.callOptions, prompt: 'What is gaia?', tools: { lookup }, stopWhen: stepCountIs(4) };
        let text: string;
        if (streaming) {
          const r = streamText(args);
          text = await r.text;
        } else {
          text = (await generateText(args)).text;
        }
        await llm.trace.flush();
        expect(text).toBe('Gaia is the earth.');

        expect(fake.requests).toHaveLength(2);
        // The tool result went back to the model in the second request.
        expect(JSON.stringify(fake.requests[1]!.body)).toContain('definition of gaia');
        if (format !== 'gemini') expect(fake.requests.every((r) => r.stream === streaming)).toBe(true);

        const lines = readTrace(traceFile);
        expect(lines.map((l) => l.seq)).toEqual([1, 2]);
        for (const l of lines) {
          expect(Object.keys(l)).toEqual(
            expect.arrayContaining(['seq', 'timestamp', 'type', 'url', 'latency_ms', 'http_status', 'request', 'raw_response']),
          );
          expect(l.type).toBe('llm_call');
          expect(l.http_status).toBe(200);
          expect(Number.isNaN(Date.parse(l.timestamp))).toBe(false);
          expect(Number.isInteger(l.latency_ms)).toBe(true);
          expect(l.url.startsWith(fake!.origin)).toBe(true);
          expect(typeof l.request).toBe('object');
          expect(typeof l.raw_response).toBe('string');
          expect(l.raw_response.includes('data:')).toBe(streaming);
        }
        expect(lines[0].usage).toEqual({ input_tokens: 50, output_tokens: 7, cache_read_tokens: 0, cache_write_tokens: 0 });
        // Cached input counts as input everywhere; only Anthropic's format reports cache writes.
        const written = format === 'anthropic' ? 5 : 0;
        expect(lines[1].usage).toEqual({ input_tokens: 100 + written, output_tokens: 9, cache_read_tokens: 20, cache_write_tokens: written });
        expect(llm.trace.totals).toEqual({ input_tokens: 150 + written, output_tokens: 16, cache_read_tokens: 20, cache_write_tokens: written, llm_calls: 2 });
        expect(readFileSync(traceFile, 'utf8')).not.toContain(SECRET);
      });
    }
  }
});

describe('THINKING reaches each provider in its own vocabulary', () => {
  const cases: Array<[string, (body: any) => unknown, unknown]> = [
    ['anthropic', (b) => b.thinking, { type: 'enabled', budget_tokens: 8192 }],
    ['openai', (b) => b.reasoning?.effort, 'medium'],
    ['openai-compat', (b) => b.reasoning_effort, 'medium'],
    ['openrouter', (b) => b.reasoning, { effort: 'medium' }],
    ['google', (b) => b.generationConfig?.thinkingConfig?.thinkingBudget, 8192],
  ];
  for (const [provider, pick, expected] of cases) {
    it(`${provider}: medium`, async () => {
      const entry = PROVIDER_FORMATS.find((p) => p.provider === provider)!;
      fake = await startFakeLlm({ format: entry.format, script: [say('ok')] });
      const llm = createModel({ provider: entry.provider, model: 'm-2', apiKey: SECRET, baseUrl: fake.url, thinking: 'medium', maxTokens: 20000 });
      await generateText({ model: llm.model, ...llm.callOptions, prompt: 'hi' });
      expect(pick(fake.requests[0]!.body)).toEqual(expected);
    });
  }

  it('off sends no reasoning settings', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('ok')] });
    const llm = createModel({ provider: 'openai-compat', model: 'm', baseUrl: fake.url, thinking: 'off' });
    await generateText({ model: llm.model, ...llm.callOptions, prompt: 'hi' });
    expect(fake.requests[0]!.body.reasoning_effort).toBeUndefined();
    // No key configured: none sent (local vLLM/Ollama style).
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('MAX_TOKENS becomes the output token limit', async () => {
    fake = await startFakeLlm({ format: 'anthropic', script: [say('ok')] });
    const llm = createModel({ provider: 'anthropic', model: 'm', apiKey: SECRET, baseUrl: fake.origin, thinking: 'off', maxTokens: 321 });
    await generateText({ model: llm.model, ...llm.callOptions, prompt: 'hi' });
    // The bare origin works too: /v1 is added for Anthropic.
    expect(fake.requests[0]!.path).toBe('/v1/messages');
    expect(fake.requests[0]!.body.max_tokens).toBe(321);
    expect(fake.requests[0]!.headers['x-api-key']).toBe(SECRET);
  });
});
