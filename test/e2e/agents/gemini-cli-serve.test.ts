// Gemini CLI kept up, on the host: the layer's bin/agent-serve run as the world's runtime runs it
// (the serve contract, test/runner/agents/serve-host.ts) with the real program from npm in its
// ACP mode, against a double of the Gemini API that drives its shell tool. What the container
// suite (gemini-cli.test.ts) cannot see from outside: the process and session of each turn, the
// program's behaviour on a message sent during a turn, its failures, and a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiCli } from '../../../runner/src/agents/gemini-cli.js';
import { ensureAgentPackage } from '../../../runner/src/image/agent-package.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
// @ts-expect-error the kit is plain JavaScript (installed in the layer as lib/)
import { AcpClient } from '../../../runner/src/agents/kit/acp-client.mjs';
import { fail, GEMINI_CLI_SHELL, readRequest, say, shellDriver, startFakeLlm, type DriverTurn, type FakeLlm, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { serveHost, type ServeHost, type ServeRun } from '../../runner/agents/serve-host.js';

const cacheDir = process.env.GAIA2_AGENT_CACHE ?? join(projectRoot(), '.cache');
let pkg = '';
const doubles: FakeLlm[] = [];

beforeAll(async () => {
  pkg = await ensureAgentPackage(geminiCli.package, geminiCli.package.version, { cacheDir });
}, 300_000);
afterAll(async () => {
  for (const d of doubles) await d.close();
});

/** A Gemini API double: the plays through run_shell_command, with `instead` answering some requests otherwise. */
async function double(plays: DriverTurn[], instead?: (r: RecordedRequest) => FakeScriptItem | undefined): Promise<FakeLlm> {
  const driver = shellDriver(GEMINI_CLI_SHELL, plays);
  const fake = await startFakeLlm({ format: 'gemini', respond: (r) => instead?.(r) ?? driver.respond(r) });
  doubles.push(fake);
  return fake;
}

const layer = (fake: FakeLlm, env: Record<string, string> = {}): ServeHost =>
  serveHost(geminiCli, pkg, { PROVIDER: 'google', MODEL: 'gemini-2.5-flash', API_KEY: 'gk-serve-test', BASE_URL: fake.url, THINKING: 'low', ...env });

/** Our notes in a trace file of the program (`dir: "note"`): start, pid, session. */
const notes = (host: ServeHost, file: string): Array<Record<string, unknown>> =>
  readFileSync(join(host.dirs.trace, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { dir: string; msg: Record<string, unknown> }).filter((l) => l.dir === 'note').map((l) => l.msg);

/** Everything said to the model in a request, flattened. */
const said = (q: RecordedRequest): string => readRequest('gemini', q.body).items.map((i) => ('text' in i ? i.text : JSON.stringify(i))).join('\n');

/** The tool results the model was given in a request. */
const results = (q: RecordedRequest): string => readRequest('gemini', q.body).items.map((i) => (i.kind === 'result' ? i.text : '')).join('\n');

const until = async (what: string, ok: () => boolean, ms = 120_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const shutdown = async (s: ServeRun): Promise<void> => {
  s.send({ type: 'shutdown', reason: 'test over' });
  await s.exited;
};

describe('gemini-cli kept up (bin/agent-serve, the real program in ACP mode, on the host)', () => {
  it('one program and one session for every turn: ready before the first message, each turn a prompt of it, the shell output back to the model', async () => {
    const fake = await double([
      { when: 'Which files', commands: ["printf '%s-%s' from-the-shell 42"], reply: 'There is one file.' },
      { when: 'And now', commands: [], reply: 'Still one.' },
    ]);
    const host = layer(fake);
    const s = host.start();
    expect(await s.next('ready')).toEqual({ type: 'ready', steer: false });
    // Ready means the session exists: nothing was asked of the model yet.
    expect(fake.requests).toHaveLength(0);
    expect(await s.turn(1, 'Which files are there?')).toEqual({ type: 'reply', turn: 1, text: 'There is one file.' });
    expect(await s.turn(2, 'And now?')).toEqual({ type: 'reply', turn: 2, text: 'Still one.' });
    await shutdown(s);
    expect((await s.exited).code).toBe(0);

    const [t1, t2] = [notes(host, 'turn-1.gemini.jsonl')[0]!, notes(host, 'turn-2.gemini.jsonl')[0]!];
    expect(t1.pid).toEqual(expect.any(Number));
    expect([t2.pid, t2.sessionId, t2.start]).toEqual([t1.pid, t1.sessionId, 1]);
    expect(readFileSync(join(host.dirs.session, 'gemini-session-id'), 'utf8').trim()).toBe(t1.sessionId);
    // The command ran in the program's own shell tool and its output went back to the model.
    expect(fake.requests.map(results).join('\n')).toContain('from-the-shell-42');
    // Turn 2's request carries turn 1: the same conversation, not a new one.
    const second = fake.requests.at(-1)!;
    expect(said(second)).toContain('Which files are there?');
    expect(said(second)).toContain('There is one file.');
    expect(readRequest('gemini', second.body).tools).toEqual(['run_shell_command']);
    // The settings of the per-turn launcher, kept: the key by variable, thinking as a model override.
    expect(String(second.headers['x-goog-api-key'])).toBe('gk-serve-test');
    expect(second.body.generationConfig?.thinkingConfig).toMatchObject({ thinkingBudget: 2048 });
    // The protocol stream of each turn is kept raw in the trace directory.
    expect(readFileSync(join(host.dirs.trace, 'turn-1.gemini.jsonl'), 'utf8')).toContain('"sessionUpdate":"tool_call"');
  });

  it('a second prompt during a turn does not join it: Gemini CLI aborts the running prompt (its command killed, the turn "cancelled"); so agent-serve takes no steer', async () => {
    let second = false;
    const fake = await double([{ when: 'Start the long job', commands: ['sleep 20; echo long-job-finished'], reply: 'Long job done.' }], () => (second ? say('Answer to the second message.') : undefined));
    const host = layer(fake);
    const acp = new AcpClient({ command: process.execPath, args: [join(pkg, 'bundle/gemini.js'), '--acp', '--yolo', '-m', 'gemini-2.5-flash'], cwd: host.dirs.work, env: { PATH: process.env.PATH, HOME: host.dirs.user, GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.origin, GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' }, traceFile: join(host.dirs.trace, 'mid-turn.jsonl') });
    try {
      await acp.start();
      await acp.newSession(host.dirs.work);
      const first = acp.prompt('Start the long job.');
      await until('the shell command to start', () => readFileSync(join(host.dirs.trace, 'mid-turn.jsonl'), 'utf8').includes('"status":"in_progress"'));
      second = true;
      const [a, b] = await Promise.all([first, acp.prompt('A second message, sent during the turn.')]);
      expect(a.stopReason).toBe('cancelled');
      expect([b.stopReason, b.reply]).toEqual(['end_turn', 'Answer to the second message.']);
      // The second prompt went to the model with the first one's call unanswered: the command never finished.
      expect(fake.requests.map(results).join('\n')).not.toContain('long-job-finished');
      expect(said(fake.requests.at(-1)!)).toContain('A second message, sent during the turn.');
    } finally {
      await acp.stop();
    }
    // The bridge says so at ready, and answers a steer anyway sent with "not taken" (it comes again as the next turn).
    const s = layer(fake).start();
    expect(await s.next('ready')).toEqual({ type: 'ready', steer: false });
    s.send({ type: 'steer', turn: 1, seq: 1, kind: 'user', text: 'more', parts: [], sim_time: '2025-10-09 09:00:01' });
    expect(await s.next('steered')).toEqual({ type: 'steered', turn: 1, seq: 1, taken: false });
    await shutdown(s);
  });

  it("a provider's refusal fails the turn with Gemini CLI's own error text; the program stays up for the next turn", async () => {
    let refuse = true;
    const fake = await double([{ when: 'Try again', commands: [], reply: 'It worked this time.' }], () => (refuse ? ((refuse = false), fail(400)) : undefined));
    const host = layer(fake);
    const s = host.start();
    await s.next('ready');
    const failed = await s.turn(1, 'Do something.');
    expect(failed).toMatchObject({ type: 'failed', turn: 1, text: expect.stringContaining('fake-llm scripted HTTP 400') });
    expect(await s.turn(2, 'Try again.')).toEqual({ type: 'reply', turn: 2, text: 'It worked this time.' });
    expect(notes(host, 'turn-2.gemini.jsonl')[0]!.pid).toBe(notes(host, 'turn-1.gemini.jsonl')[0]!.pid);
    await shutdown(s);
  });

  it('the program killed during a turn: agent-serve exits with it, saying how; started again it resumes the same session (twice: killed between turns too)', async () => {
    // Resumed, Gemini CLI sends the interrupted message and the next one as one user turn (the
    // killed turn left no answer): the double places a request by the first play it names, latest first.
    const fake = await double([
      { when: 'Still there', commands: [], reply: 'Still here.' },
      { when: 'Are you back', commands: [], reply: 'Yes, back.' },
      { when: 'Book it', commands: ['sleep 60'], reply: 'never' },
    ]);
    const host = layer(fake);
    const s = host.start();
    await s.next('ready');
    const turn1 = s.turn(1, 'Book it, please.');
    const trace1 = join(host.dirs.trace, 'turn-1.gemini.jsonl');
    await until('the shell command to start', () => existsSync(trace1) && readFileSync(trace1, 'utf8').includes('"status":"in_progress"'));
    const first = notes(host, 'turn-1.gemini.jsonl')[0]!;
    process.kill(first.pid as number, 'SIGKILL');
    // agent-serve ends with it, saying how: the runtime fails the turn with that line and starts it again.
    await expect(turn1).rejects.toThrow(/exited before saying reply/);
    expect((await s.exited).code).toBe(1);
    expect(s.stderr().trim().split('\n').at(-1)).toBe('agent-serve: Gemini CLI exited (signal SIGKILL)');

    // Within the minute the session began (Gemini CLI's own record would be emptied: setAsideSessionFiles).
    const again = host.start();
    await again.next('ready');
    expect(await again.turn(2, 'Are you back?')).toEqual({ type: 'reply', turn: 2, text: 'Yes, back.' });
    const start2 = notes(host, 'serve-2.gemini.jsonl')[0]!;
    expect(start2).toMatchObject({ start: 2, resumed: true, sessionId: first.sessionId });
    expect(start2.pid).not.toBe(first.pid);
    expect(said(fake.requests.at(-1)!)).toContain('Book it, please.');

    // Killed while idle: agent-serve exits at once, so the runtime can start it again before the next turn.
    process.kill(start2.pid as number, 'SIGKILL');
    expect((await again.exited).code).toBe(1);
    const third = host.start();
    await third.next('ready');
    expect(await third.turn(3, 'Still there?')).toEqual({ type: 'reply', turn: 3, text: 'Still here.' });
    await shutdown(third);
    expect(notes(host, 'serve-3.gemini.jsonl')[0]).toMatchObject({ start: 3, resumed: true, sessionId: first.sessionId });
    const last = said(fake.requests.at(-1)!);
    for (const earlier of ['Book it, please.', 'Are you back?', 'Yes, back.']) expect(last).toContain(earlier);
  });

  it('a provider it does not speak: no start, the reason on stderr', async () => {
    const fake = await double([]);
    const s = layer(fake, { PROVIDER: 'anthropic' }).start();
    expect((await s.exited).code).not.toBe(0);
    expect(s.stderr()).toMatch(/PROVIDER must be google \(or gemini\), not anthropic/);
    expect(fake.requests).toHaveLength(0);
  });
});
