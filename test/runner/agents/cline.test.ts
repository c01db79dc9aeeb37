// The cline layer's bin/agent-serve under the serve contract, with a stand-in ACP agent
// (acp-standin.mjs) at Cline's path: how it starts the program (`cline --acp`, its provider in
// ~/.cline/data/settings/providers.json without the key, the key in the variables Cline reads,
// run_commands the only tool), a turn as a prompt of one session, the program's failures as failed
// turns, and a restart that resumes the saved session. The real program runs in
// test/e2e/agents/cline.test.ts, and with each provider on the host in cline-providers.test.ts.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cline } from '../../../runner/src/agents/cline.js';
// @ts-expect-error the layer's helpers are plain JavaScript
import { baseUrl, clineEnv, clineGlobalSettings, clineProviders, OTHER_TOOLS, PROVIDER_IDS } from '../../../runner/src/agents/cline/layer/lib/cline-settings.mjs';
import { diesInTurn2, failuresThenReply, notes, resumedTurn3, standinLayer, twoTurnsOneStart } from './acp-bridge-cases.js';
import type { ServeHost } from './serve-host.js';

const BASE = { PROVIDER: 'openai-compat', MODEL: 'gaia2-model', API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test', BASE_URL: 'http://gw.example:8080/v1/' };

const layer = (env: Record<string, string> = {}) => standinLayer(cline, 'bin/cline', { ...BASE, ...env }, true);
const settingsFile = (host: ServeHost, name: string) => readFileSync(join(host.dirs.user, '.cline', 'data', 'settings', name), 'utf8');

describe('cline bin/agent-serve (stand-in program)', () => {
  it('starts Cline once in ACP mode with its provider file and the key by variable only; every turn is a prompt of one session', async () => {
    const { host, starts } = layer({ ANTHROPIC_API_KEY: 'sk-other', OPENAI_BASE_URL: 'http://elsewhere/v1' });
    const only = await twoTurnsOneStart(host, starts);
    expect(only!.argv).toEqual(['--acp', '--cwd', host.dirs.work]);
    expect(only!.env).toMatchObject({ OPENAI_API_KEY: 'sk-test', CLINE_API_KEY: 'sk-test', CLINE_PROVIDER: 'openai-compatible', CLINE_DIR: join(host.dirs.user, '.cline') });
    // other providers' keys and base URLs are not passed on
    expect([only!.env.ANTHROPIC_API_KEY, only!.env.OPENAI_BASE_URL]).toEqual([undefined, undefined]);
    expect(JSON.parse(settingsFile(host, 'providers.json'))).toMatchObject({
      lastUsedProvider: 'openai-compatible',
      providers: { 'openai-compatible': { settings: { provider: 'openai-compatible', model: 'gaia2-model', baseUrl: 'http://gw.example:8080/v1' } } },
    });
    const global = JSON.parse(settingsFile(host, 'global-settings.json'));
    expect(global).toMatchObject({ telemetryOptOut: true, autoUpdateEnabled: false, tools: { web_search: { enabled: false } } });
    expect(global.disabledTools).toEqual(expect.arrayContaining(['read_files', 'editor', 'fetch_web_content', 'web_search', 'spawn_agent', 'team_spawn_teammate']));
    expect(global.disabledTools).not.toContain('run_commands');
    // the key is in the program's environment only: not in its settings, nor the copy kept for the trace
    expect(settingsFile(host, 'providers.json')).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.trace, 'cline-providers.json'), 'utf8')).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.work, '.clinerules', 'gaia2.md'), 'utf8')).toContain('run_commands');
    const session = readFileSync(join(host.dirs.session, 'cline-session-id'), 'utf8').trim();
    // the run's model set on the session (Cline would pick one of its catalogue otherwise)
    expect(JSON.parse(readFileSync(join(host.dirs.user, '.standin', `${session}.json`), 'utf8')).model).toBe('gaia2-model');
    expect(notes(host, 'turn-1.cline.jsonl')[0]).toEqual({ turn: 1, start: 1, pid: only!.pid, sessionId: session });
    expect(notes(host, 'turn-2.cline.jsonl')[0]).toEqual({ turn: 2, start: 1, pid: only!.pid, sessionId: session });
  });

  it('the key is its provider variable, else API_KEY; a provider Cline is not given fails', () => {
    expect(clineEnv({ PROVIDER: 'openai-compat', API_KEY: 'b' }, '/x').CLINE_API_KEY).toBe('b');
    expect(OTHER_TOOLS).not.toContain('run_commands');
    expect(() => clineEnv({ PROVIDER: 'bedrock' }, '/x')).toThrow(/PROVIDER bedrock is none of them/);
  });

  it("each PROVIDER is one of Cline's own providers on BASE_URL, its key in that provider's variable only", () => {
    expect([...PROVIDER_IDS].sort()).toEqual([...cline.providers].sort());
    const cases: Array<[string, string, string, string]> = [
      ['openai-compat', 'openai-compatible', 'OPENAI_API_KEY', 'http://gw:8080/v1'],
      ['openai', 'openai-native', 'OPENAI_API_KEY', 'http://gw:8080/v1'],
      ['anthropic', 'anthropic', 'ANTHROPIC_API_KEY', 'http://gw:8080/v1'],
      ['google', 'gemini', 'GEMINI_API_KEY', 'http://gw:8080/v1beta'],
      ['gemini', 'gemini', 'GEMINI_API_KEY', 'http://gw:8080/v1beta'],
      ['openrouter', 'openrouter', 'OPENROUTER_API_KEY', 'http://gw:8080/v1'],
    ];
    for (const [provider, id, variable, url] of cases) {
      const env = { PROVIDER: provider, MODEL: 'm1', API_KEY: 'sk-run', BASE_URL: 'http://gw:8080/v1/', ANTHROPIC_API_KEY: 'sk-a', OPENROUTER_API_KEY: 'sk-o', GOOGLE_API_KEY: 'sk-g', OPENAI_API_KEY: 'sk-run' };
      const file = clineProviders(env);
      expect(file).toMatchObject({ lastUsedProvider: id, providers: { [id]: { settings: { provider: id, model: 'm1', baseUrl: url } } } });
      expect(JSON.stringify(file)).not.toMatch(/sk-/);
      const e = clineEnv(env, '/x');
      expect([e.CLINE_PROVIDER, e[variable]]).toEqual([id, e.CLINE_API_KEY]);
      // no other provider's key is passed on
      const keys = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENROUTER_API_KEY'].filter((k) => e[k] !== undefined);
      expect(keys).toEqual([variable]);
    }
    // the provider's own key variable first, else API_KEY
    expect(clineEnv({ PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-a', API_KEY: 'sk-b' }, '/x').ANTHROPIC_API_KEY).toBe('sk-a');
    expect(clineEnv({ PROVIDER: 'google', GOOGLE_API_KEY: 'sk-g' }, '/x').GEMINI_API_KEY).toBe('sk-g');
    // a base URL with or without its version; none: the provider's own
    expect(baseUrl('anthropic', 'http://gw:8080')).toBe('http://gw:8080/v1');
    expect(baseUrl('google', 'http://gw:8080/v1')).toBe('http://gw:8080/v1beta');
    expect(baseUrl('openrouter', '')).toBe('https://openrouter.ai/api/v1');
    expect(baseUrl('anthropic', '')).toBe('https://api.anthropic.com/v1');
    // the one model-tool switch its global settings take (another name there makes it drop the file)
    expect(clineGlobalSettings().tools).toEqual({ web_search: { enabled: false } });
  });

  it("the program's own failures fail the turn with its text; the program stays up", async () => {
    const { host, starts } = layer();
    await failuresThenReply(host, starts, 'Cline stopped the turn: it reached its limit of model requests in one turn (stopReason max_turn_requests)');
  });

  it('the program dying mid-turn ends agent-serve with it; the next start resumes the session', async () => {
    const { host, starts } = layer();
    const session = await diesInTurn2(host, 'Cline', 'cline-session-id');
    await resumedTurn3(host);
    expect(starts()).toHaveLength(2);
    expect(notes(host, 'serve-2.cline.jsonl')[0]).toEqual({ start: 2, pid: starts()[1]!.pid, sessionId: session, resumed: true });
  });
});
