// Codex's bridge (runner/src/agents/codex/layer/bin/agent-serve) with a stand-in for `codex
// app-server` (codex-app-server-standin.mjs): the config.toml it writes (its own provider at
// BASE_URL; analytics, feedback, OTel, update check and plugins off), how it starts the program
// (through the clock helper when there is one), approvals answered yes, the reply, a failed
// turn, a restart resuming the saved thread, and another provider refused. The real program is
// driven the same way in test/e2e/agents/codex-serve.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codex } from '../../../runner/src/agents/codex.js';
import { serveLayer, turnMsg, type ServeProcess } from '../../helpers/serve-harness.js';

const BIN = 'vendor/x86_64-unknown-linux-musl/bin/codex';
const BASE = { PROVIDER: 'openai', MODEL: 'gpt-5.1-codex', OPENAI_API_KEY: 'sk-oai-test', API_KEY: 'sk-oai-test', BASE_URL: 'http://gw.example:8080/v1/', THINKING: 'high' };
const running: ServeProcess[] = [];

/** A package tree whose codex is the stand-in; what it saw goes to seen.json, what it was sent to sent.jsonl. */
function standinLayer(env: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'gaia2-codex-standin-'));
  const bin = join(root, 'pkg', BIN);
  mkdirSync(join(bin, '..'), { recursive: true });
  copyFileSync(join(import.meta.dirname, 'codex-app-server-standin.mjs'), bin);
  chmodSync(bin, 0o755);
  const files = { seen: join(root, 'seen.json'), sent: join(root, 'sent.jsonl') };
  const layer = serveLayer(codex, join(root, 'pkg'), { ...BASE, STANDIN_SEEN: files.seen, STANDIN_LOG: files.sent, GAIA2_SIMCLOCK_EXEC: join(root, 'none'), ...env });
  const start = (extra: Record<string, string> = {}) => {
    const p = layer.start(extra);
    running.push(p);
    return p;
  };
  return {
    root,
    layer,
    start,
    seen: () => JSON.parse(readFileSync(files.seen, 'utf8')) as { argv: string[]; env: Record<string, string> },
    sent: () => readFileSync(files.sent, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method?: string; params?: any; result?: any; id?: number }),
  };
}

afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

describe('codex agent-serve', () => {
  it("writes the provider config and AGENTS.md, starts the app server, says ready with steer once the thread's shell snapshot is written, and replies with the turn's last message", async () => {
    const s = standinLayer();
    const p = s.start();
    expect(await p.next('ready')).toEqual({ type: 'ready', steer: true });
    // Not before the thread's shell snapshot is there (Codex's first turn would wait for it).
    const [snap] = readdirSync(join(s.layer.user, '.codex/shell_snapshots'));
    expect(snap).toMatch(/^thr-new\.\d+\.sh$/);
    expect(statSync(join(s.layer.user, '.codex/shell_snapshots', snap!)).mtimeMs).toBeLessThanOrEqual(p.times[p.lines.findIndex((l) => l.type === 'ready')]!);
    const config = readFileSync(join(s.layer.user, '.codex/config.toml'), 'utf8');
    for (const line of [
      'model_provider = "gaia2"', 'model = "gpt-5.1-codex"', 'model_reasoning_effort = "high"', 'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"', 'check_for_update_on_startup = false', '[features]\nplugins = false', '[analytics]\nenabled = false',
      '[feedback]\nenabled = false', 'exporter = "none"', 'base_url = "http://gw.example:8080/v1"', 'env_key = "GAIA2_CODEX_KEY"', 'wire_api = "responses"',
    ]) expect(config).toContain(line);
    expect(config).not.toContain('sk-oai-test');
    expect(readFileSync(join(s.layer.user, 'work/AGENTS.md'), 'utf8')).toContain('exec_command');
    const { argv, env } = s.seen();
    expect(argv).toEqual(['app-server', '--strict-config']);
    expect(env).toMatchObject({ GAIA2_CODEX_KEY: 'sk-oai-test', CODEX_HOME: join(s.layer.user, '.codex') });
    p.send(turnMsg(1, 'Forward the invoice'));
    // The stand-in asked to approve a command: the bridge said yes, and the reply is the turn's last message.
    expect(await p.next('reply')).toEqual({ type: 'reply', turn: 1, text: 'Did: Forward the invoice (approval {"decision":"accept"})' });
    expect(s.sent().filter((m) => m.method === 'thread/start').map((m) => m.params)).toEqual([{ cwd: join(s.layer.user, 'work') }]);
    expect(readFileSync(join(s.layer.user, 'session/codex-thread-id'), 'utf8').trim()).toBe('thr-new');
  });

  it('THINKING=off is effort "none"; unset leaves Codex its default', async () => {
    for (const [thinking, line] of [['off', 'model_reasoning_effort = "none"'], ['', null]] as const) {
      const s = standinLayer({ THINKING: thinking });
      await s.start().next('ready');
      const config = readFileSync(join(s.layer.user, '.codex/config.toml'), 'utf8');
      if (line) expect(config).toContain(line);
      else expect(config).not.toContain('model_reasoning_effort');
    }
  });

  it('[agent].context_window is its model_context_window; unset leaves Codex its own', async () => {
    for (const [value, line] of [['100000', 'model_context_window = 100000'], ['', null]] as const) {
      const s = standinLayer({ GAIA2_AGENT_CONTEXT_WINDOW: value });
      await s.start().next('ready');
      const config = readFileSync(join(s.layer.user, '.codex/config.toml'), 'utf8');
      if (line) expect(config).toContain(line);
      else expect(config).not.toContain('model_context_window');
    }
  });

  it('starts codex through the clock helper when the image has it (a static binary reads the simulated clock only that way)', async () => {
    const s = standinLayer();
    const helper = join(s.root, 'simclock-exec');
    writeFileSync(helper, `#!/bin/bash\necho "$@" > ${JSON.stringify(join(s.root, 'helper-argv'))}\nexec "$@"\n`, { mode: 0o755 });
    await s.start({ GAIA2_SIMCLOCK_EXEC: helper }).next('ready');
    expect(readFileSync(join(s.root, 'helper-argv'), 'utf8').trim()).toBe(`${join(s.layer.home, 'pkg', BIN)} app-server --strict-config`);
  });

  it("a turn Codex ends as failed is the program's failure, with Codex's error text", async () => {
    const s = standinLayer();
    const p = s.start();
    p.send(turnMsg(1, 'this one will fail'));
    expect(await p.next('failed')).toMatchObject({ turn: 1, text: 'unexpected status 401 Unauthorized', detail: expect.stringContaining('status failed') });
  });

  it('a later start resumes the saved thread instead of starting one', async () => {
    const s = standinLayer();
    writeFileSync(join(s.layer.user, 'session/codex-thread-id'), 'thr-saved\n');
    const p = s.start({ GAIA2_SERVE_START: '2' });
    await p.next('ready');
    expect(s.sent().filter((m) => m.method?.startsWith('thread/')).map((m) => [m.method, m.params.threadId])).toEqual([['thread/resume', 'thr-saved']]);
    p.send(turnMsg(3, 'go on'));
    expect(await p.next('reply')).toMatchObject({ turn: 3 });
  });

  it('another provider is refused before the program starts', async () => {
    const s = standinLayer({ PROVIDER: 'anthropic' });
    const p = s.start();
    expect((await p.exited).code).not.toBe(0);
    expect(p.stderr()).toMatch(/PROVIDER must be openai, not anthropic/);
    expect(p.lines.some((l) => l.type === 'ready')).toBe(false);
  });
});
