// The opencode layer's bin/agent-serve under the serve contract, with a stand-in ACP agent
// (acp-standin.mjs) at OpenCode's path: how it starts the program (`opencode acp`, its
// configuration in OPENCODE_CONFIG_CONTENT, the key by variable, what phones home switched off),
// the provider mapping, a turn as a prompt of one session, the program's failures as failed
// turns, and a restart that resumes the saved session. The real program runs in
// test/e2e/agents/opencode.test.ts.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { opencode } from '../../../runner/src/agents/opencode.js';
// @ts-expect-error the layer's helpers are plain JavaScript
import { baseUrl, opencodeConfig, opencodeEnv, thinkingOptions } from '../../../runner/src/agents/opencode/layer/lib/opencode-config.mjs';
import { diesInTurn2, failuresThenReply, notes, resumedTurn3, standinLayer, twoTurnsOneStart, type Started } from './acp-bridge-cases.js';

const BASE = { PROVIDER: 'openai-compat', MODEL: 'gaia2-model', API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test', BASE_URL: 'http://gw.example:8080/v1' };

const layer = (env: Record<string, string> = {}) => standinLayer(opencode, 'bin/opencode', { ...BASE, ...env }, true);

const configOf = (s: Started) => JSON.parse(s.env.OPENCODE_CONFIG_CONTENT!);
describe('opencode bin/agent-serve (stand-in program)', () => {
  it('starts OpenCode once in ACP mode with its configuration by variable and the key by name; every turn is a prompt of one session', async () => {
    const { host, starts } = layer({ THINKING: 'medium' });
    const only = await twoTurnsOneStart(host, starts);
    expect(only!.argv).toEqual(['acp', '--pure', '--cwd', host.dirs.work]);
    expect(only!.cwd).toBe(host.dirs.work);
    expect(only!.env).toMatchObject({
      GAIA2_OPENCODE_KEY: 'sk-test',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    });
    const config = configOf(only!);
    expect(config).toMatchObject({
      model: 'gaia2/gaia2-model',
      enabled_providers: ['gaia2'],
      autoupdate: false,
      share: 'disabled',
      tools: { '*': false, bash: true },
      permission: { '*': 'deny', bash: 'allow' },
      provider: { gaia2: { npm: '@ai-sdk/openai-compatible', options: { baseURL: 'http://gw.example:8080/v1', apiKey: '{env:GAIA2_OPENCODE_KEY}' } } },
    });
    expect(config.provider.gaia2.models['gaia2-model'].options).toEqual({ reasoningEffort: 'medium' });
    // the key is in the program's environment only: not in its configuration, nor the copy kept for the trace
    expect(only!.env.OPENCODE_CONFIG_CONTENT).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.trace, 'opencode-config.json'), 'utf8')).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.work, 'AGENTS.md'), 'utf8')).toContain('bash');
    const session = readFileSync(join(host.dirs.session, 'opencode-session-id'), 'utf8').trim();
    expect(notes(host, 'turn-1.opencode.jsonl')[0]).toEqual({ turn: 1, start: 1, pid: only!.pid, sessionId: session });
    expect(notes(host, 'turn-2.opencode.jsonl')[0]).toEqual({ turn: 2, start: 1, pid: only!.pid, sessionId: session });
    expect(readFileSync(join(host.dirs.trace, 'serve-1.opencode.jsonl'), 'utf8')).toContain('"method":"session/new"');
  });

  it("each provider is its AI SDK package, its base URL as the package wants it, THINKING as the package's option", () => {
    const cfg = (PROVIDER: string, BASE_URL: string, THINKING = '') => opencodeConfig({ PROVIDER, MODEL: 'm', BASE_URL, THINKING, MAX_TOKENS: '4096' }).provider.gaia2;
    expect(cfg('anthropic', 'http://gw:1')).toMatchObject({ npm: '@ai-sdk/anthropic', options: { baseURL: 'http://gw:1/v1' } });
    expect(cfg('anthropic', 'http://gw:1/v1/')).toMatchObject({ options: { baseURL: 'http://gw:1/v1' } });
    expect(cfg('google', 'http://gw:1/v1beta')).toMatchObject({ npm: '@ai-sdk/google', options: { baseURL: 'http://gw:1/v1beta' } });
    expect(cfg('gemini', 'http://gw:1')).toMatchObject({ npm: '@ai-sdk/google', options: { baseURL: 'http://gw:1/v1beta' } });
    expect(cfg('openai', 'http://gw:1/v1')).toMatchObject({ npm: '@ai-sdk/openai', options: { baseURL: 'http://gw:1/v1' } });
    expect(cfg('openrouter', '')).toMatchObject({ npm: '@ai-sdk/openai-compatible', options: { baseURL: 'https://openrouter.ai/api/v1' } });
    expect(cfg('openai', 'http://gw:1/v1').models.m.limit).toEqual({ context: 200_000, output: 4096 });
    expect(baseUrl('google', 'http://gw:1/v1')).toBe('http://gw:1/v1beta');
    expect(thinkingOptions('anthropic', 'high')).toEqual({ thinking: { type: 'enabled', budgetTokens: 24576 } });
    expect(thinkingOptions('anthropic', 'off')).toEqual({});
    expect(thinkingOptions('google', 'off')).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(thinkingOptions('google', 'low')).toEqual({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
    expect(thinkingOptions('openai-compat', '')).toEqual({});
    expect(() => opencodeConfig({ PROVIDER: 'bedrock' })).toThrow(/PROVIDER bedrock is none of them/);
    // with Agent2Agent's app agents, a command of bash may run 30 min
    expect(opencodeEnv({ GAIA2_APP_AGENTS: 'shopping' }, {}).OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS).toBe('1800000');
    expect(opencodeEnv({}, {}).OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS).toBeUndefined();
  });

  it("the program's own failures fail the turn with its text; the program stays up", async () => {
    const { host, starts } = layer();
    await failuresThenReply(host, starts, 'OpenCode stopped the turn: it reached its limit of model requests in one turn (stopReason max_turn_requests)');
  });

  it('the program dying mid-turn ends agent-serve with it, its last stderr line saying how; the next start resumes the session', async () => {
    const { host, starts } = layer();
    const session = await diesInTurn2(host, 'OpenCode', 'opencode-session-id');
    await resumedTurn3(host);
    expect(starts()).toHaveLength(2);
    expect(notes(host, 'serve-2.opencode.jsonl')[0]).toEqual({ start: 2, pid: starts()[1]!.pid, sessionId: session, resumed: true });
  });

  it('a provider OpenCode is not given: the program does not start, the reason on stderr', async () => {
    const { host, starts } = layer({ PROVIDER: 'bedrock' });
    const s = host.start();
    expect((await s.exited).code).not.toBe(0);
    expect(s.stderr()).toContain('PROVIDER bedrock is none of them');
    expect(starts()).toEqual([]);
  });
});
