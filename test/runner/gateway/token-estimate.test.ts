// A request's tokens before it is sent: the prompt's size plus the answer's limit, read from
// the field each API kind uses, or a default when the request sets none.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_ESTIMATE, estimateTokens, maxOutputTokens } from '../../../runner/src/gateway/token-estimate.js';

describe('estimateTokens', () => {
  it('reads the answer limit of every API kind', () => {
    expect(maxOutputTokens({ max_tokens: 64 })).toBe(64); // Anthropic Messages, chat completions
    expect(maxOutputTokens({ max_completion_tokens: 128 })).toBe(128); // chat completions (newer)
    expect(maxOutputTokens({ max_output_tokens: 256 })).toBe(256); // Responses
    expect(maxOutputTokens({ generationConfig: { maxOutputTokens: 512 } })).toBe(512); // Gemini
    expect(maxOutputTokens({ max_tokens: 0 })).toBeNull();
    expect(maxOutputTokens({ max_tokens: 'many' })).toBeNull();
    expect(maxOutputTokens(null)).toBeNull();
  });

  it('prompt bytes / 4, plus the limit or the default', () => {
    const body = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'x'.repeat(4000) }] };
    const text = JSON.stringify(body);
    expect(estimateTokens(text, body)).toBe(Math.ceil(text.length / 4) + 100);
    const { max_tokens: _m, ...open } = body;
    expect(estimateTokens(JSON.stringify(open), open)).toBe(Math.ceil(JSON.stringify(open).length / 4) + DEFAULT_OUTPUT_ESTIMATE);
    // Multi-byte text counts by its bytes (safe side).
    expect(estimateTokens('ééé', null)).toBe(2 + DEFAULT_OUTPUT_ESTIMATE);
  });
});
