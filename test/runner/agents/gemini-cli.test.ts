// The gemini-cli layer's bin/agent-serve under the serve contract, with a stand-in ACP agent
// (acp-standin.mjs) at Gemini CLI's path: how it starts the program (ACP mode, YOLO, the model,
// the per-turn launcher's settings and variables), a turn as a prompt of one session, the
// program's failures as failed turns, and a restart that resumes the saved session. The real
// program runs in test/e2e/agents/gemini-cli-serve.test.ts and gemini-cli.test.ts.
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geminiCli } from '../../../runner/src/agents/gemini-cli.js';
import { diesInTurn2, failuresThenReply, notes, resumedTurn3, standinLayer, twoTurnsOneStart } from './acp-bridge-cases.js';
import type { ServeHost, ServeRun } from './serve-host.js';

const BASE = { PROVIDER: 'google', MODEL: 'gemini-2.5-flash', API_KEY: 'gk-test', GOOGLE_API_KEY: 'gk-test', BASE_URL: 'http://gw.example:8080/v1beta' };

/** The layer with the stand-in as pkg/bundle/gemini.js (Gemini CLI is started by Node). */
const layer = (env: Record<string, string> = {}) => standinLayer(geminiCli, 'bundle/gemini.js', { ...BASE, ...env });

const settingsOf = (host: ServeHost) => JSON.parse(readFileSync(join(host.dirs.user, '.gemini', 'settings.json'), 'utf8'));
async function readyThenDown(host: ServeHost, env: Record<string, string> = {}): Promise<ServeRun> {
  const s = host.start(env);
  await s.next('ready');
  s.send({ type: 'shutdown', reason: 'test' });
  await s.exited;
  return s;
}

describe('gemini-cli bin/agent-serve (stand-in program)', () => {
  it('starts Gemini CLI once in ACP mode (YOLO, the model) with the launcher settings; every turn is a prompt of one session', async () => {
    const { host, starts } = layer({ THINKING: 'low' });
    const only = await twoTurnsOneStart(host, starts);
    expect(only!.argv).toEqual(['--acp', '--yolo', '-m', 'gemini-2.5-flash']);
    expect(only!.env).toMatchObject({ GEMINI_API_KEY: 'gk-test', GOOGLE_GEMINI_BASE_URL: 'http://gw.example:8080', GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(only!.env.GOOGLE_API_KEY).toBeUndefined();
    expect(settingsOf(host)).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: false } },
      tools: { core: ['run_shell_command'], shell: { inactivityTimeout: 300 } },
      modelConfigs: { overrides: [{ match: { model: 'gemini-2.5-flash' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } } }] },
    });
    expect(readFileSync(join(host.dirs.work, 'GEMINI.md'), 'utf8')).toContain('run_shell_command');
    // One session, saved for a restart; each turn's protocol stream in a trace file of its own, with the program's pid.
    const session = readFileSync(join(host.dirs.session, 'gemini-session-id'), 'utf8').trim();
    expect(notes(host, 'turn-1.gemini.jsonl')[0]).toEqual({ turn: 1, start: 1, pid: only!.pid, sessionId: session });
    expect(notes(host, 'turn-2.gemini.jsonl')[0]).toEqual({ turn: 2, start: 1, pid: only!.pid, sessionId: session });
    expect(readFileSync(join(host.dirs.trace, 'turn-2.gemini.jsonl'), 'utf8')).toContain('"method":"session/prompt"');
    expect(readFileSync(join(host.dirs.trace, 'serve-1.gemini.jsonl'), 'utf8')).toContain('"method":"session/new"');
  });

  it('THINKING: off is no thinking budget, Gemini 3 gets a level; with Agent2Agent the shell waits 30 min for a silent command', async () => {
    const off = layer({ THINKING: 'off' });
    await readyThenDown(off.host);
    expect(settingsOf(off.host).modelConfigs.overrides[0].modelConfig.generateContentConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    const g3 = layer({ THINKING: 'high', MODEL: 'gemini-3-pro', GAIA2_APP_AGENTS: 'shopping' });
    await readyThenDown(g3.host);
    const s = settingsOf(g3.host);
    expect(s.modelConfigs.overrides).toEqual([{ match: { model: 'gemini-3-pro' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } } } }]);
    expect(s.tools.shell).toEqual({ inactivityTimeout: 1800 });
    expect(g3.starts()[0]!.argv).toEqual(['--acp', '--yolo', '-m', 'gemini-3-pro']);
    const unset = layer({ THINKING: '' });
    await readyThenDown(unset.host);
    expect(settingsOf(unset.host).modelConfigs.overrides).toEqual([]);
  });

  it("the program's own failures fail the turn with its text: an error answer, a turn it stopped itself; the program stays up", async () => {
    const { host, starts } = layer();
    await failuresThenReply(host, starts, 'Gemini CLI stopped the turn: it detected a loop in its own calls, or reached its limit of turns (stopReason max_turn_requests)');
  });

  it('the program dying mid-turn ends agent-serve with it, its last stderr line saying how (the runtime fails the turn with that); the next start resumes the session', async () => {
    const { host, starts } = layer();
    const session = await diesInTurn2(host, 'Gemini CLI', 'gemini-session-id');
    // Gemini CLI's own record of the session, as 0.61 names it: set aside before the new process starts.
    const chats = join(host.dirs.user, '.gemini', 'tmp', 'work', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, `session-2025-10-09T09-00-${session.slice(0, 8)}.jsonl`), '{}\n');
    await resumedTurn3(host);
    expect(starts()).toHaveLength(2);
    expect(notes(host, 'serve-2.gemini.jsonl')[0]).toEqual({ start: 2, pid: starts()[1]!.pid, sessionId: session, resumed: true });
    expect(readdirSync(chats)).toEqual([`session-2025-10-09T09-00-resumed2-${session.slice(0, 8)}.jsonl`]);
  });

  it('a session that cannot be resumed is replaced by a new one (said in the log)', async () => {
    const { host } = layer();
    writeFileSync(join(host.dirs.session, 'gemini-session-id'), 'gone-session\n');
    const s = await readyThenDown(host, { GAIA2_SERVE_START: '2' });
    expect(s.said.find((m) => m.type === 'log' && m.level === 'warn')).toMatchObject({ text: expect.stringContaining('could not resume session gone-session') });
    const now = readFileSync(join(host.dirs.session, 'gemini-session-id'), 'utf8').trim();
    expect(now).not.toBe('gone-session');
    expect(notes(host, 'serve-2.gemini.jsonl')[0]).toMatchObject({ resumed: false, sessionId: now });
  });

  it('a provider other than google or gemini: the program does not start, the reason on stderr', async () => {
    const { host, starts } = layer({ PROVIDER: 'openai' });
    const s = host.start();
    expect((await s.exited).code).not.toBe(0);
    expect(s.stderr()).toContain('gemini-cli speaks the Gemini API only: PROVIDER must be google (or gemini), not openai');
    expect(s.said.some((m) => m.type === 'ready')).toBe(false);
    expect(starts()).toEqual([]);
  });
});
