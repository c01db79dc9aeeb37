import { describe, expect, it } from 'vitest';
import { JUDGE_LLM_ENV, LlmConfigError, createModel, llmConfigFromEnv } from '../../../agent-image/src/llm/index.js';

describe('llmConfigFromEnv', () => {
  it('reads the agent variables', () => {
    expect(
      llmConfigFromEnv({ PROVIDER: 'Anthropic', MODEL: 'claude-x', API_KEY: 'k', THINKING: 'High', MAX_TOKENS: '4096', GAIA2_TRACE_FILE: '/tmp/t.jsonl' }),
    ).toEqual({ provider: 'anthropic', model: 'claude-x', apiKey: 'k', baseUrl: undefined, thinking: 'high', maxTokens: 4096, traceFile: '/tmp/t.jsonl' });
  });

  it('reads the judge variables, without thinking or trace', () => {
    const cfg = llmConfigFromEnv({ GAIA2_JUDGE_PROVIDER: 'openai', GAIA2_JUDGE_MODEL: 'gpt', GAIA2_JUDGE_API_KEY: 'j', THINKING: 'high' }, JUDGE_LLM_ENV);
    expect(cfg).toMatchObject({ provider: 'openai', model: 'gpt', apiKey: 'j', thinking: 'off', traceFile: undefined });
  });

  it.each([
    [{ MODEL: 'm' }, /PROVIDER is not set/],
    [{ PROVIDER: 'anthropic' }, /MODEL is not set/],
    [{ PROVIDER: 'bedrock', MODEL: 'm' }, /PROVIDER must be one of: .*bedrock/],
    [{ PROVIDER: 'openai', MODEL: 'm', THINKING: 'max' }, /THINKING must be one of: off, low, medium, high/],
    [{ PROVIDER: 'openai', MODEL: 'm', MAX_TOKENS: '-3' }, /MAX_TOKENS must be a positive integer/],
  ])('rejects %o', (env, message) => {
    expect(() => llmConfigFromEnv(env)).toThrow(message);
    expect(() => llmConfigFromEnv(env)).toThrow(LlmConfigError);
  });
});

describe('createModel configuration errors', () => {
  it('openai-compat needs BASE_URL', () => {
    expect(() => createModel({ provider: 'openai-compat', model: 'm', thinking: 'off' })).toThrow(/needs BASE_URL/);
  });
  it('hosted providers need a key', () => {
    expect(() => createModel({ provider: 'anthropic', model: 'm', thinking: 'off' })).toThrow(/no API key for provider "anthropic"/);
  });
});
