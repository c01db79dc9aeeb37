// The claude-code bridge (bin/agent-serve + lib/claude-stream.mjs) with a stand-in for Claude
// Code's streaming JSON mode (claude-standin.mjs): how it maps the launcher's variables onto
// Claude Code's, keeps one program for every turn, maps failures, resumes after a restart and
// answers steers. The real program is driven the same way in test/e2e/agents/claude-code-serve.test.ts.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../../runner/src/agents/claude-code.js';
import { serveLayer, type Serve, type ServeLayer } from './serve-harness.js';

const BASE = { PROVIDER: 'anthropic', MODEL: 'claude-sonnet-4-5', API_KEY: 'sk-ant-test', BASE_URL: 'http://gw.example:8080/v1/' };

interface Seen {
  starts: Array<{ argv: string[]; env: Record<string, string>; pid: number }>;
  stdin: Array<Record<string, any>>;
}

/** A layer whose pkg/claude is the stand-in, recording into a file of its own. */
function standinLayer(): ServeLayer & { seen(): Seen; env: Record<string, string> } {
  const pkg = mkdtempSync(join(tmpdir(), 'claude-standin-'));
  copyFileSync(join(import.meta.dirname, 'claude-standin.mjs'), join(pkg, 'claude'));
  chmodSync(join(pkg, 'claude'), 0o755);
  const layer = serveLayer(claudeCode, pkg);
  const file = join(layer.root, 'standin.jsonl');
  return {
    ...layer,
    env: { ...BASE, STANDIN_RECORD: file },
    seen() {
      const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
      return { starts: lines.filter((l) => l.argv), stdin: lines.filter((l) => l.stdin).map((l) => l.stdin) };
    },
  };
}

const arg = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];
const userTexts = (s: Seen) => s.stdin.filter((m) => m.type === 'user').map((m) => m.message.content);

async function up(layer: ReturnType<typeof standinLayer>, env: Record<string, string> = {}): Promise<Serve> {
  const s = layer.start({ ...layer.env, ...env });
  await s.next('ready');
  return s;
}

describe('claude-code agent-serve', () => {
  it('starts claude once in its streaming JSON mode, with Bash only, the key and base URL in its own variables, and is ready after initialize', async () => {
    const layer = standinLayer();
    const s = await up(layer, { THINKING: 'medium' });
    expect(s.said.find((m) => m.type === 'ready')).toEqual({ type: 'ready', steer: true });
    const [{ argv, env }] = layer.seen().starts as [Seen['starts'][0]];
    expect(argv.slice(0, 7)).toEqual(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages']);
    expect(argv.join(' ')).toContain('--tools Bash --allowedTools Bash --permission-mode bypassPermissions');
    expect([arg(argv, '--model'), arg(argv, '--effort')]).toEqual(['claude-sonnet-4-5', 'medium']);
    expect(argv.join(' ')).not.toContain('sk-ant-test');
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: 'http://gw.example:8080', MAX_THINKING_TOKENS: '8192' });
    expect(env).toMatchObject({ DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', DISABLE_UPDATES: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });
    expect(env.BASH_DEFAULT_TIMEOUT_MS).toBeUndefined();
    const prompt = arg(argv, '--append-system-prompt')!;
    expect(prompt).toContain('- emails\n- shopping');
    expect(prompt).toContain('2025-10-09 09:00:00');
    // its first word to the program: initialize
    expect(layer.seen().stdin[0]).toMatchObject({ type: 'control_request', request: { subtype: 'initialize' } });
    s.send({ type: 'shutdown', reason: 'test' });
    expect(await s.exited).toEqual({ code: 0, signal: null });
  });

  it('runs every turn in the same process, each message a user message of its own, and keeps the raw stream in the trace directory', async () => {
    const layer = standinLayer();
    const s = await up(layer);
    expect(await s.turn(1, 'plain Ordered the bottles.')).toEqual({ type: 'reply', turn: 1, text: 'Ordered the bottles.' });
    expect(await s.turn(2, 'plain Forwarded it.')).toEqual({ type: 'reply', turn: 2, text: 'Forwarded it.' });
    expect(layer.seen().starts).toHaveLength(1);
    expect(userTexts(layer.seen())).toEqual(['plain Ordered the bottles.', 'plain Forwarded it.']);
    const trace = readFileSync(join(layer.dirs.trace, 'serve-1.claude.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(trace.filter((l) => l.dir === 'in' && l.msg.type === 'result').map((l) => l.msg.result)).toEqual(['Ordered the bottles.', 'Forwarded it.']);
    expect(trace.filter((l) => l.dir === 'out' && l.msg.type === 'user')).toHaveLength(2);
    s.send({ type: 'shutdown', reason: 'test' });
    await s.exited;
  });

  it('THINKING=off switches thinking off; with app agents Bash may run for 30 minutes', async () => {
    const layer = standinLayer();
    const s = await up(layer, { THINKING: 'off', GAIA2_APP_AGENTS: 'shopping' });
    const [{ argv, env }] = layer.seen().starts as [Seen['starts'][0]];
    expect(env.MAX_THINKING_TOKENS).toBe('0');
    expect(argv).not.toContain('--effort');
    expect(env).toMatchObject({ BASH_DEFAULT_TIMEOUT_MS: '1800000', BASH_MAX_TIMEOUT_MS: '1800000' });
    s.send({ type: 'shutdown', reason: 'test' });
    await s.exited;
  });

  it('another provider is refused before the program starts', async () => {
    const layer = standinLayer();
    const s = layer.start({ ...layer.env, PROVIDER: 'openai' });
    expect((await s.exited).code).not.toBe(0);
    expect(s.stderr()).toMatch(/PROVIDER must be anthropic, not openai/);
    expect(layer.seen().starts).toHaveLength(0);
  });

  it("an error result fails the turn with the program's own text; the program stays up for the next turn", async () => {
    const layer = standinLayer();
    const s = await up(layer);
    const failed = await s.turn(1, 'fail');
    expect(failed).toMatchObject({ type: 'failed', turn: 1, text: 'API Error: 400 refused' });
    expect((failed as { detail?: string }).detail).toMatch(/HTTP 400/);
    expect(await s.turn(2, 'plain fine again')).toEqual({ type: 'reply', turn: 2, text: 'fine again' });
    expect(layer.seen().starts).toHaveLength(1);
    s.send({ type: 'shutdown', reason: 'test' });
    await s.exited;
  });

  it('when the program dies, so does the bridge, with its last words on stderr (the world fails the turn and restarts it)', async () => {
    const layer = standinLayer();
    const s = await up(layer);
    s.send({ type: 'turn', turn: 1, kind: 'user', text: 'crash', parts: [{ kind: 'user', text: 'crash' }], sim_time: '2025-10-09 09:00:00' });
    expect((await s.exited).code).toBe(1);
    expect(s.stderr().trim().split('\n').at(-1)).toBe('agent-serve: claude exited (code 3): boom');
    expect(s.said.filter((m) => m.type === 'reply' || m.type === 'failed')).toEqual([]);
  });

  it('a restart resumes the saved session when Claude Code holds its transcript, else starts a new one', async () => {
    const layer = standinLayer();
    const first = await up(layer);
    first.send({ type: 'shutdown', reason: 'test' });
    await first.exited;
    const id = arg(layer.seen().starts[0]!.argv, '--session-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(join(layer.dirs.session, 'claude-session-id'), 'utf8').trim()).toBe(id);
    // no transcript yet (the stand-in writes none): a new session
    const second = await up(layer);
    second.send({ type: 'shutdown', reason: 'test' });
    await second.exited;
    const id2 = arg(layer.seen().starts[1]!.argv, '--session-id')!;
    expect(id2).not.toBe(id);
    expect(layer.seen().starts[1]!.argv).not.toContain('--resume');
    // Claude Code's transcript of it, where it keeps them: resumed
    mkdirSync(join(layer.dirs.user, '.claude/projects/-home-agent-work'), { recursive: true });
    writeFileSync(join(layer.dirs.user, `.claude/projects/-home-agent-work/${id2}.jsonl`), '{}\n');
    const third = await up(layer);
    expect(arg(layer.seen().starts[2]!.argv, '--resume')).toBe(id2);
    expect(layer.seen().starts[2]!.argv).not.toContain('--session-id');
    expect(third.said.find((m) => m.type === 'log')).toMatchObject({ text: expect.stringContaining('start 3') });
    third.send({ type: 'shutdown', reason: 'test' });
    await third.exited;
  });
});

/** Turn 1 of a fresh bridge with one steer sent right after it: the reply, the steer's answer, the order, what the program read. */
async function steeredTurn(turnText: string, steerText: string) {
  const layer = standinLayer();
  const s = await up(layer);
  const reply = s.turn(1, turnText);
  s.steer(1, 1, steerText);
  const out = { layer, s, reply: await reply, steered: s.said.find((m) => m.type === 'steered'), order: s.said.filter((m) => m.type === 'steered' || m.type === 'reply').map((m) => m.type) };
  return { ...out, next: await s.turn(2, 'plain next'), read: layer.seen().stdin, end: () => (s.send({ type: 'shutdown', reason: 'test' }), s.exited) };
}

describe('claude-code agent-serve: messages in the middle of a turn', () => {
  it('a steer while a tool runs is written at once and folded into the turn: taken, answered before the reply', async () => {
    const r = await steeredTurn('tool', 'also the blue one');
    expect(r.reply).toEqual({ type: 'reply', turn: 1, text: 'tool done (and also the blue one)' });
    expect(r.steered).toEqual({ type: 'steered', turn: 1, seq: 1, taken: true });
    expect(r.order).toEqual(['steered', 'reply']);
    expect(userTexts(r.layer.seen())).toEqual(['tool', 'also the blue one', 'plain next']);
    await r.end();
  });

  it('a steer while the model writes its final answer is held, never written: not taken (the world delivers it as the next turn)', async () => {
    const r = await steeredTurn('slow Done.', 'one more thing');
    expect(r.reply).toEqual({ type: 'reply', turn: 1, text: 'Done.' });
    expect(r.steered).toEqual({ type: 'steered', turn: 1, seq: 1, taken: false });
    expect(userTexts(r.layer.seen())).toEqual(['slow Done.', 'plain next']);
    await r.end();
  });

  it('a steer written but not folded by the end of the turn is taken back with cancel_async_message: not taken', async () => {
    const r = await steeredTurn('late', 'missed the fold');
    expect(r.reply).toEqual({ type: 'reply', turn: 1, text: 'late done' });
    expect(r.steered).toEqual({ type: 'steered', turn: 1, seq: 1, taken: false });
    const written = r.read.find((m) => m.type === 'user' && m.message.content === 'missed the fold')!;
    expect(r.read.find((m) => m.request?.subtype === 'cancel_async_message')).toMatchObject({ request: { message_uuid: written.uuid } });
    // the next turn is the program's next turn, not the message taken back
    expect(r.next).toEqual({ type: 'reply', turn: 2, text: 'next' });
    await r.end();
  });

  it('one the program had already started as a turn of its own is taken: the reply holds both answers', async () => {
    const r = await steeredTurn('eager', 'right after');
    expect(r.reply).toEqual({ type: 'reply', turn: 1, text: 'eager done\n\nfollow-up: right after' });
    expect(r.steered).toEqual({ type: 'steered', turn: 1, seq: 1, taken: true });
    expect(r.next).toEqual({ type: 'reply', turn: 2, text: 'next' });
    await r.end();
  });
});
