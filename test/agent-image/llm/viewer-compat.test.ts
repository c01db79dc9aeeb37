// What the agent writes, the viewer must read: traces produced through createModel for every
// wire format are parsed back by the viewer's trace parser into tool calls, text and usage.
import { generateText, stepCountIs, streamText } from 'ai';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../agent-image/src/llm/index.js';
import { parseTraceJsonl } from '../../../runner/src/trace/index.js';
import { call, fail, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { lookup, PROVIDER_FORMATS, SECRET, tempTraceFile } from './helpers.js';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});


const EXPECTED_PROVIDER: Record<string, string> = { anthropic: 'anthropic', google: 'google' };

describe('traces written by the llm layer parse in the viewer', () => {
  for (const { provider, format, baseSuffix } of PROVIDER_FORMATS) {
    for (const streaming of [false, true]) {
      it(`${provider} ${streaming ? 'SSE' : 'JSON'}`, async () => {
        fake = await startFakeLlm({
          format,
          script: [fail(503), call('lookup', { word: 'gaia' }, { usage: { input: 40, output: 6 } }), say('Gaia is the earth.', { usage: { input: 70, output: 8 } })],
        });
        const traceFile = tempTraceFile();
        // Real Gemini URLs name Google; on 127.0.0.1 the viewer recognises Gemini by model name.
        const model = format === 'gemini' ? 'gemini-test' : 'm-v';
        const llm = createModel({ provider, model, maxTokens: 1000, apiKey: SECRET, baseUrl: fake.url + (baseSuffix ?? ''), thinking: 'off', traceFile, retry: { baseDelayMs: 5 } });
        const args = { model: llm.model, ...llm.callOptions, prompt: 'What is gaia?', tools: { lookup }, stopWhen: stepCountIs(4) };
        if (streaming) await streamText(args).text;
        else await generateText(args);
        await llm.trace.flush();

        const { calls, badLines } = parseTraceJsonl(readFileSync(traceFile, 'utf8'));
        expect(badLines).toEqual([]);
        expect(calls).toHaveLength(3);
        const [failed, first, second] = calls as [any, any, any];
        expect(failed.status).toBe(503);
        expect(failed.retried).toBe(true);
        expect(first.provider).toBe(EXPECTED_PROVIDER[provider] ?? 'openai-compat');
        expect(first.response.blocks).toContainEqual(expect.objectContaining({ type: 'tool_use', name: 'lookup', input: { word: 'gaia' } }));
        expect(second.response.blocks).toContainEqual({ type: 'text', text: 'Gaia is the earth.' });
        expect(first.usage).toMatchObject({ input: 40, output: 6 });
        expect(second.usage).toMatchObject({ input: 70, output: 8 });
        // The tool result the agent sent back shows in the second call's request.
        const results = second.requestMessages.flatMap((m: any) => m.blocks).filter((b: any) => b.type === 'tool_result');
        expect(results.map((b: any) => b.content).join(' ')).toContain('definition of gaia');
      });
    }
  }
});
