// The qwen-code layer's bin/agent-serve under the serve contract, with a stand-in ACP agent
// (acp-standin.mjs) at Qwen Code's path: how it starts the program (`qwen --acp`, its settings in
// ~/.qwen/settings.json, the key by variable, what phones home switched off), the provider
// mapping, a turn as a prompt of one session, the program's failures as failed turns, and a
// restart that resumes the saved session. The real program runs in
// test/e2e/agents/qwen-code.test.ts and qwen-code-providers.test.ts.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { qwenCode } from '../../../runner/src/agents/qwen-code.js';
// @ts-expect-error the layer's helpers are plain JavaScript
import { baseUrl, OTHER_TOOLS, qwenEnv, qwenSettings, reasoningEffort } from '../../../runner/src/agents/qwen-code/layer/lib/qwen-settings.mjs';
import { diesInTurn2, failuresThenReply, notes, resumedTurn3, standinLayer, twoTurnsOneStart } from './acp-bridge-cases.js';
import type { ServeHost } from './serve-host.js';

const BASE = { PROVIDER: 'openai-compat', MODEL: 'gaia2-model', API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test', BASE_URL: 'http://gw.example:8080/v1' };

/** The layer with the stand-in as the package's cli.js (Qwen Code is started by Node). */
const layer = (env: Record<string, string> = {}) => standinLayer(qwenCode, 'node_modules/@qwen-code/qwen-code/cli.js', { ...BASE, ...env });
const settingsFile = (host: ServeHost) => readFileSync(join(host.dirs.user, '.qwen', 'settings.json'), 'utf8');

describe('qwen-code bin/agent-serve (stand-in program)', () => {
  it('starts Qwen Code once in ACP mode with its settings and the key by name; every turn is a prompt of one session', async () => {
    const { host, starts } = layer({ THINKING: 'medium', OPENAI_BASE_URL: 'http://elsewhere/v1', OPENAI_MODEL: 'other' });
    const only = await twoTurnsOneStart(host, starts);
    expect(only!.argv).toEqual(['--acp']);
    expect(only!.env).toMatchObject({ GAIA2_QWEN_KEY: 'sk-test', QWEN_CODE_NO_RELAUNCH: 'true', QWEN_TELEMETRY_ENABLED: 'false', QWEN_USAGE_STATISTICS_ENABLED: 'false' });
    // variables that would override the settings' provider are not passed on
    expect([only!.env.OPENAI_BASE_URL, only!.env.OPENAI_MODEL]).toEqual([undefined, undefined]);
    const settings = JSON.parse(settingsFile(host));
    expect(settings).toMatchObject({
      security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
      model: { name: 'gaia2-model', reasoningEffort: 'medium' },
      modelProviders: { openai: [{ id: 'gaia2-model', baseUrl: 'http://gw.example:8080/v1', envKey: 'GAIA2_QWEN_KEY' }] },
      tools: { core: ['run_shell_command'], approvalMode: 'yolo', toolSearch: { enabled: false }, webSearch: { enabled: false } },
      experimental: { emitToolUseSummaries: false },
      memory: { enableManagedAutoMemory: false },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    });
    expect(settings.tools.disabled).toEqual(expect.arrayContaining(['web_fetch', 'web_search', 'read_file', 'edit', 'agent']));
    expect(settings.tools.disabled).not.toContain('run_shell_command');
    // the key is in the program's environment only: not in its settings, nor the copy kept for the trace
    expect(settingsFile(host)).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.trace, 'qwen-settings.json'), 'utf8')).not.toContain('sk-test');
    expect(readFileSync(join(host.dirs.work, 'QWEN.md'), 'utf8')).toContain('run_shell_command');
    const session = readFileSync(join(host.dirs.session, 'qwen-session-id'), 'utf8').trim();
    expect(notes(host, 'turn-1.qwen.jsonl')[0]).toEqual({ turn: 1, start: 1, pid: only!.pid, sessionId: session });
    expect(notes(host, 'turn-2.qwen.jsonl')[0]).toEqual({ turn: 2, start: 1, pid: only!.pid, sessionId: session });
    expect(readFileSync(join(host.dirs.trace, 'serve-1.qwen.jsonl'), 'utf8')).toContain('"method":"session/new"');
  });

  it("each provider is its auth type, its base URL as that provider's SDK wants it, THINKING as its reasoning effort", () => {
    const entry = (PROVIDER: string, BASE_URL: string) => {
      const s = qwenSettings({ PROVIDER, MODEL: 'm', BASE_URL, MAX_TOKENS: '4096' });
      return [s.security.auth.selectedType, s.modelProviders[s.security.auth.selectedType][0]];
    };
    expect(entry('anthropic', 'http://gw:1/v1/')).toEqual(['anthropic', expect.objectContaining({ baseUrl: 'http://gw:1' })]);
    expect(entry('google', 'http://gw:1/v1beta')).toEqual(['gemini', expect.objectContaining({ baseUrl: 'http://gw:1' })]);
    expect(entry('gemini', 'http://gw:1')).toEqual(['gemini', expect.objectContaining({ baseUrl: 'http://gw:1' })]);
    expect(entry('openai', 'http://gw:1/v1')).toEqual(['openai-responses', expect.objectContaining({ baseUrl: 'http://gw:1/v1' })]);
    expect(entry('openrouter', '')).toEqual(['openai', expect.objectContaining({ baseUrl: 'https://openrouter.ai/api/v1' })]);
    expect(entry('openai', 'http://gw:1/v1')[1].generationConfig).toEqual({ contextWindowSize: 200_000, samplingParams: { max_tokens: 4096 } });
    expect(baseUrl('google', 'http://gw:1/v1')).toBe('http://gw:1');
    expect([reasoningEffort('off'), reasoningEffort('High'), reasoningEffort('')]).toEqual(['none', 'high', undefined]);
    expect(qwenSettings({ PROVIDER: 'anthropic' }).model.reasoningEffort).toBeUndefined();
    expect(OTHER_TOOLS).not.toContain('run_shell_command');
    expect(() => qwenSettings({ PROVIDER: 'bedrock' })).toThrow(/PROVIDER bedrock is none of them/);
    // the key of the provider, else API_KEY; with Agent2Agent's app agents a shell command may run 30 min
    expect(qwenEnv({ PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'a', API_KEY: 'b' }).GAIA2_QWEN_KEY).toBe('a');
    expect(qwenEnv({ PROVIDER: 'google', API_KEY: 'b' }).GAIA2_QWEN_KEY).toBe('b');
    expect(qwenSettings({ GAIA2_APP_AGENTS: 'shopping' }).tools.shell).toEqual({ enableInteractiveShell: true, defaultTimeoutMs: 1_800_000 });
    expect(qwenSettings({}).tools.shell).toEqual({ enableInteractiveShell: true });
  });

  it("the program's own failures fail the turn with its text; the program stays up", async () => {
    const { host, starts } = layer();
    await failuresThenReply(host, starts, 'Qwen Code stopped the turn: it reached its limit of model requests in one turn (stopReason max_turn_requests)');
  });

  it('the program dying mid-turn ends agent-serve with it, its last stderr line saying how; the next start resumes the session', async () => {
    const { host, starts } = layer();
    const session = await diesInTurn2(host, 'Qwen Code', 'qwen-session-id');
    await resumedTurn3(host);
    expect(starts()).toHaveLength(2);
    expect(notes(host, 'serve-2.qwen.jsonl')[0]).toEqual({ start: 2, pid: starts()[1]!.pid, sessionId: session, resumed: true });
  });

  it('a provider Qwen Code is not given: the program does not start, the reason on stderr', async () => {
    const { host, starts } = layer({ PROVIDER: 'bedrock' });
    const s = host.start();
    expect((await s.exited).code).not.toBe(0);
    expect(s.stderr()).toContain('PROVIDER bedrock is none of them');
    expect(starts()).toEqual([]);
  });
});
