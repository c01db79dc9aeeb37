// The one normaliser of provider usage (agent-image/src/llm/trace-usage.ts) against a usage
// object of every provider kind, shaped as the providers return them
// (test/fixtures/usage/provider-usage.json), and the three readers built on it agreeing: the
// image's trace line (usageOf), the runner's trace pages (canonicalizeRow) and a run's usage
// from a trace another writer made (usageOfTrace).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeUsage, fullUsage, usageOf, type NormalUsage } from '../../../agent-image/src/llm/trace-usage.js';
import { canonicalizeRow, totalInput } from '../../../runner/src/trace/index.js';
import { usageOfTrace } from '../../../runner/src/usage/run-usage.js';

interface Case {
  name: string;
  body?: Record<string, unknown> & { usage?: unknown; usageMetadata?: unknown };
  sse?: Array<{ event?: string; data: unknown }>;
  expect: NormalUsage;
}
const FIXTURE = new URL('../../fixtures/usage/provider-usage.json', import.meta.url);
const CASES = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: Case[] }).cases;

const rawOf = (c: Case): string =>
  c.body
    ? JSON.stringify(c.body)
    : c.sse!.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');

const URLS: Record<string, string> = {
  anthropic: 'https://api.anthropic.com/v1/messages',
  'openai chat': 'https://api.openai.com/v1/chat/completions',
  'openai responses': 'https://api.openai.com/v1/responses',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
};
const urlOf = (c: Case): string => URLS[Object.keys(URLS).find((k) => c.name.startsWith(k))!]!;

describe('one provider-usage normaliser', () => {
  it('the fixture covers every provider kind, JSON and streamed', () => {
    for (const kind of Object.keys(URLS)) {
      expect(CASES.some((c) => c.name.startsWith(kind) && c.body)).toBe(true);
      expect(CASES.some((c) => c.name.startsWith(kind) && c.sse)).toBe(true);
    }
  });

  for (const c of CASES) {
    it(`${c.name}: counts every input and output token, cache and reasoning apart`, () => {
      if (c.body) expect(fullUsage(normalizeUsage(c.body.usage ?? c.body.usageMetadata))).toEqual(c.expect);
      const { reasoning_tokens: _r, ...recorded } = c.expect;
      expect(usageOf(rawOf(c))).toEqual(recorded);
    });

    it(`${c.name}: the runner's trace pages and run usage count the same`, () => {
      const row = { seq: 1, url: urlOf(c), http_status: 200, request: { model: 'm', messages: [] }, raw_response: rawOf(c) };
      const call = canonicalizeRow(row, 0);
      expect({ in: totalInput(call.usage), out: call.usage.output, read: call.usage.cacheRead, write: call.usage.cacheWrite, reasoning: call.usage.reasoning }).toEqual({
        in: c.expect.input_tokens,
        out: c.expect.output_tokens,
        read: c.expect.cache_read_tokens,
        write: c.expect.cache_write_tokens,
        reasoning: c.expect.reasoning_tokens,
      });
      expect(usageOfTrace(JSON.stringify(row), null)).toMatchObject({ llm_calls: 1, input_tokens: c.expect.input_tokens, output_tokens: c.expect.output_tokens, cache_read_tokens: c.expect.cache_read_tokens, cache_write_tokens: c.expect.cache_write_tokens });
    });
  }

  it('a partial object states only what it holds (an Anthropic message_delta), so stream parts merge', () => {
    expect(normalizeUsage({ output_tokens: 210 })).toEqual({ output_tokens: 210 });
    expect(normalizeUsage(null)).toEqual({});
  });
});
