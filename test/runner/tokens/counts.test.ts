// The one token type's adder and the cost sum: what the report, the viewer and result.json
// rely on when they add roles and calls.
import { describe, expect, it } from 'vitest';
import { addCost, addTokens, freshInput, sumTokens, ZERO_TOKENS } from '../../../runner/src/tokens/index.js';

describe('adding tokens', () => {
  it('adds every count, an absent cache count as 0', () => {
    const a = { input_tokens: 100, output_tokens: 10, cache_read_tokens: 60, cache_write_tokens: 20, llm_calls: 2 };
    const b = { input_tokens: 7, output_tokens: 3 };
    expect(addTokens(a, b)).toEqual({ input_tokens: 107, output_tokens: 13, cache_read_tokens: 60, cache_write_tokens: 20, llm_calls: 2 });
  });

  it('keeps a call count only when one side counts calls (an agent report has none)', () => {
    expect(addTokens({ input_tokens: 1, output_tokens: 1 }, { input_tokens: 2, output_tokens: 2 })).not.toHaveProperty('llm_calls');
    expect(addTokens({ input_tokens: 1, output_tokens: 1 }, { input_tokens: 2, output_tokens: 2, llm_calls: 0 })).toHaveProperty('llm_calls', 0);
  });

  it('sums the parts that are there; nothing sums to zero and leaves ZERO_TOKENS as it was', () => {
    expect(sumTokens([null, { input_tokens: 5, output_tokens: 1, llm_calls: 1 }, undefined, { input_tokens: 3, output_tokens: 2, llm_calls: 1 }])).toEqual({ input_tokens: 8, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0, llm_calls: 2 });
    expect(sumTokens([])).toEqual({ input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 });
    expect(ZERO_TOKENS).toEqual({ input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('fresh input is input less what the cache read and wrote, never below 0', () => {
    expect(freshInput({ input_tokens: 100, output_tokens: 0, cache_read_tokens: 60, cache_write_tokens: 20 })).toBe(20);
    expect(freshInput({ input_tokens: 10, output_tokens: 0, cache_read_tokens: 60 })).toBe(0);
  });
});

describe('adding costs', () => {
  it('is unknown as soon as one part is', () => {
    expect(addCost(0.5, 0.25)).toBe(0.75);
    expect(addCost(0.5, null)).toBeNull();
    expect(addCost(null, 0)).toBeNull();
  });
});
