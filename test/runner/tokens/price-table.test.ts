import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costUsd, loadPriceTable, priceKey, priceOf } from '../../../runner/src/tokens/index.js';

const table = loadPriceTable(undefined, {});

describe('price table', () => {
  it('matches a model after dropping a provider prefix and a date suffix, and nothing looser', () => {
    expect(priceKey('anthropic/claude-sonnet-4-20250514')).toBe('claude-sonnet-4');
    expect(priceKey('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(priceKey('claude-3-5-sonnet-latest')).toBe('claude-3-5-sonnet');
    expect(priceOf(table, 'openai/gpt-4o-mini')).toMatchObject({ input: 0.15, output: 0.6 });
    // A longer name is another model: never priced as the shorter one it starts with.
    expect(priceOf(table, 'gpt-4o-audio-preview')).toBeNull();
    expect(priceOf(table, 'claude-opus-4-5-20251101')!.input).toBe(5);
    expect(priceOf(table, 'claude-opus-4-20250514')!.input).toBe(15);
    expect(priceOf(table, null)).toBeNull();
  });

  it('cost splits input into fresh, cache-read and cache-written tokens; unknown models cost null', () => {
    const t = { input_tokens: 10_000, output_tokens: 1_000, cache_read_tokens: 6_000, cache_write_tokens: 2_000 };
    expect(costUsd(table, 'claude-sonnet-4', t)).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 12);
    // OpenAI states no cache-write price: written tokens are charged as input.
    expect(costUsd(table, 'gpt-4.1', t)).toBeCloseTo((2_000 * 2 + 6_000 * 0.5 + 2_000 * 2 + 1_000 * 8) / 1e6, 12);
    expect(costUsd(table, 'my-local-llama', t)).toBeNull();
  });

  it('a user file replaces entries per model and adds new ones; GAIA2_PRICES names it too', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'prices-')), 'p.json');
    writeFileSync(f, JSON.stringify({ models: { 'gpt-4o': { input: 1, output: 2 }, 'my-local-llama': { input: 0, output: 0 } } }));
    const t = loadPriceTable(f, {});
    expect(priceOf(t, 'gpt-4o')).toEqual({ input: 1, output: 2 });
    expect(costUsd(t, 'my-local-llama', { input_tokens: 5, output_tokens: 5 })).toBe(0);
    expect(priceOf(t, 'gpt-4o-mini')!.input).toBe(0.15);
    expect(t.sources).toEqual([expect.stringMatching(/^built-in/), f]);
    expect(loadPriceTable(undefined, { GAIA2_PRICES: f }).sources[1]).toBe(f);
  });

  it('a bad file is a ConfigError naming the file and the field', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'prices-')), 'p.json');
    writeFileSync(f, JSON.stringify({ models: { 'gpt-4o': { input: '1', output: 2 } } }));
    expect(() => loadPriceTable(f, {})).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(`${f}: models."gpt-4o".input`) }));
    writeFileSync(f, '{ not json');
    expect(() => loadPriceTable(undefined, { GAIA2_PRICES: f })).toThrow(/GAIA2_PRICES .*cannot read a JSON price table/);
  });
});
