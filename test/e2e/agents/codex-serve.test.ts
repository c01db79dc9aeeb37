// Codex's bridge (runner/src/agents/codex/layer/bin/agent-serve) on the host, with the real
// program (@openai/codex 0.169.0, the linux-x64 musl build from the agent cache) kept up as
// `codex app-server`, spoken to over the serve contract as the world's runtime speaks it, against
// an OpenAI Responses double on 127.0.0.1 (streaming). One scenario's life: ready, turns in one
// process, a steer into a running turn, a provider refusal judged as the program's failure, the
// program killed mid-turn and the next start resuming its thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codex } from '../../../runner/src/agents/codex.js';
import { call, fail, readRequest, say, startFakeLlm, type FakeLlm, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { agentPackageTree, serveLayer, steerMsg, turnMsg, type ServeLayer, type ServeProcess } from '../../helpers/serve-harness.js';

const KEY = `sk-codex-serve-${process.pid}`;
/** Commands the double has handed to the program (a call in its answer). */
const handed = new Set<string>();
const exec = (cmd: string) => (handed.add(cmd), call('exec_command', { cmd, yield_time_ms: 30_000 }));
/** Until the double has handed out `cmd`, and a moment more for the program to start it. */
async function untilHanded(cmd: string): Promise<void> {
  while (!handed.has(cmd)) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));
}

/** What the user (or a steer) said last in a request, and how many tool results came after it. */
function lastSaid(q: RecordedRequest): { said: string; results: number } {
  const items = readRequest('openai-responses', q.body).items;
  let last = -1;
  for (let i = items.length - 1; i >= 0 && last < 0; i--) if (items[i]!.kind === 'user') last = i;
  const said = last >= 0 ? (items[last] as { text: string }).text : '';
  return { said, results: items.slice(last + 1).filter((i) => i.kind === 'result').length };
}

/** The model: each message of the test picks its answer. */
function model(q: RecordedRequest): FakeScriptItem {
  const { said, results } = lastSaid(q);
  if (said.includes('First task')) return results === 0 ? exec('echo first-output') : say('Done with the first task.');
  if (said.includes('Second task')) return say('Done with the second task.');
  // The steer test: a command that runs long enough for the steer to arrive while it runs.
  if (said.includes('Long task')) return results === 0 ? exec('sleep 4; echo slept') : say('Long task finished without the steer.');
  if (said.includes('Also add a note')) return say('Long task finished, note added.');
  // Refused after a while: a steer arrives while the request is open.
  if (said.includes('Slow refusal')) return (handed.add('slow refusal'), { ...fail(400), delayMs: 2500 });
  if (said.includes('One more thing')) return say('Took the one more thing.');
  if (said.includes('Refused task')) return fail(400);
  if (said.includes('After the refusal')) return say('Still here after the refusal.');
  if (said.includes('Endless task')) return exec('sleep 120');
  if (said.includes('After the restart')) return say('Back after the restart.');
  return say('Noted.');
}

let fake: FakeLlm;
let layer: ServeLayer;
let first: ServeProcess;
let second: ServeProcess;
const replies: Record<string, { type: string; text: string; detail?: string }> = {};
let steered: { taken: boolean } | undefined;
let steeredIntoRefusal: { taken: boolean } | undefined;
let order: string[] = [];
/** Codex's shell snapshots (name, mtime) as they were when each start said ready. */
const atReady: Array<Array<[string, number]>> & { thread?: string } = [];
const shellSnapshots = (): Array<[string, number]> => {
  const dir = join(layer.user, '.codex/shell_snapshots');
  return existsSync(dir) ? readdirSync(dir).map((n) => [n, statSync(join(dir, n)).mtimeMs]) : [];
};
let killedPid = 0;
let killFrom = 0;
let firstExit: { code: number | null; signal: NodeJS.Signals | null };

const pidOf = (p: ServeProcess): number => Number(p.lines.map((l) => (l.type === 'log' ? /codex pid (\d+)/.exec(l.text)?.[1] : undefined)).find(Boolean));

/** Sends turn `n` and waits for its reply or failure. */
async function turn(p: ServeProcess, n: number, text: string): Promise<{ type: string; text: string; detail?: string }> {
  const from = p.lines.length;
  p.send(turnMsg(n, text));
  const end = await Promise.race([p.next('reply', (m) => m.turn === n, from), p.next('failed', (m) => m.turn === n, from)]);
  return end as { type: string; text: string; detail?: string };
}

beforeAll(async () => {
  const tree = await agentPackageTree(codex);
  fake = await startFakeLlm({ format: 'openai-responses', respond: model });
  layer = serveLayer(codex, tree, { PROVIDER: 'openai', MODEL: 'gpt-5.1-codex', BASE_URL: fake.url, OPENAI_API_KEY: KEY, API_KEY: KEY, THINKING: 'medium' });

  first = layer.start();
  await first.next('ready');
  atReady.push(shellSnapshots());
  atReady.thread = readFileSync(join(layer.user, 'session/codex-thread-id'), 'utf8').trim();
  replies.first = await turn(first, 1, 'First task: run the command.');
  replies.second = await turn(first, 2, 'Second task, please.');

  // A steer while the command of turn 3 runs.
  const from = first.lines.length;
  first.send(turnMsg(3, 'Long task: wait for it.'));
  await untilHanded('sleep 4; echo slept');
  first.send(steerMsg(3, 1, 'Also add a note to the order.'));
  const reply = await first.next('reply', (m) => m.turn === 3, from);
  steered = await first.next('steered', (m) => m.turn === 3 && m.seq === 1, from);
  order = first.lines.slice(from).filter((l) => l.type === 'steered' || l.type === 'reply').map((l) => l.type);
  replies.long = reply;

  // A steer while a model request is open, which the provider then refuses.
  const slowFrom = first.lines.length;
  const slow = turn(first, 4, 'Slow refusal ahead.');
  await untilHanded('slow refusal');
  first.send(steerMsg(4, 2, 'One more thing for this task.'));
  replies.slow = await slow;
  steeredIntoRefusal = await first.next('steered', (m) => m.seq === 2, slowFrom);

  replies.refused = await turn(first, 5, 'Refused task.');
  replies.afterRefusal = await turn(first, 6, 'After the refusal, say something.');

  // The program killed mid-turn: agent-serve ends at once, saying why (the runtime fails the turn with it); the next start resumes.
  killFrom = first.lines.length;
  first.send(turnMsg(7, 'Endless task.'));
  await untilHanded('sleep 120');
  killedPid = pidOf(first);
  process.kill(killedPid, 'SIGKILL');
  firstExit = await first.exited;

  second = layer.start();
  await second.next('ready');
  atReady.push(shellSnapshots());
  replies.afterRestart = await turn(second, 8, 'After the restart, are you there?');
  second.send({ type: 'shutdown', reason: 'scenario ended' });
  await second.exited;
}, 300_000);

afterAll(async () => {
  for (const p of [first, second]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
  await fake?.close();
});

const requestsWith = (text: string) => fake.requests.filter((q) => lastSaid(q).said.includes(text));

describe('codex agent-serve on the host: the real codex app-server kept up, driven over the serve contract', () => {
  it("says ready with steer once Codex's shell snapshot of the thread is written (taken while the clock is held, not in the first turn), on each start", () => {
    expect(atReady).toHaveLength(2);
    for (const [i, p] of [first, second].entries()) {
      const at = p.lines.findIndex((l) => l.type === 'ready');
      expect(p.lines[at]).toEqual({ type: 'ready', steer: true });
      // A snapshot of this start's thread, new at this start, written before the ready line was read.
      const fresh = atReady[i]!.filter(([n]) => !(atReady[i - 1] ?? []).some(([m]) => m === n));
      expect(fresh.map(([n]) => n)).toEqual([expect.stringMatching(new RegExp(`^${atReady.thread}\\.\\d+\\.sh$`))]);
      expect(fresh[0]![1]).toBeLessThanOrEqual(p.times[at]!);
    }
  });

  it('writes the config of the per-turn launcher and AGENTS.md, and keeps the key out of files', () => {
    const config = readFileSync(join(layer.user, '.codex/config.toml'), 'utf8');
    for (const line of [
      'model_provider = "gaia2"', 'model = "gpt-5.1-codex"', 'model_reasoning_effort = "medium"', 'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"', 'check_for_update_on_startup = false', '[features]\nplugins = false', '[analytics]\nenabled = false',
      '[feedback]\nenabled = false', 'exporter = "none"', `base_url = "${fake.url}"`, 'env_key = "GAIA2_CODEX_KEY"', 'wire_api = "responses"',
    ]) expect(config).toContain(line);
    expect(config).not.toContain(KEY);
    expect(readFileSync(join(layer.user, 'work/AGENTS.md'), 'utf8')).toContain('exec_command');
    for (const q of fake.requests) expect(q.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('runs each turn in the same app-server process and thread: the command ran, its output went back, the reply is the last message', () => {
    expect(replies.first).toEqual({ type: 'reply', turn: 1, text: 'Done with the first task.' });
    expect(replies.second).toEqual({ type: 'reply', turn: 2, text: 'Done with the second task.' });
    const output = readRequest('openai-responses', requestsWith('First task').at(-1)!.body).items.find((i) => i.kind === 'result');
    expect(output && 'text' in output ? output.text : '').toContain('first-output');
    // One process: one start logged, one thread (Codex's prompt cache key is the thread id) for every request of the first start.
    expect(first.lines.filter((l) => l.type === 'log' && /codex pid/.test(l.text))).toHaveLength(1);
    const threads = new Set(fake.requests.map((q) => q.body.prompt_cache_key));
    expect(threads.size).toBe(1);
    const said = readRequest('openai-responses', requestsWith('Second task')[0]!.body).items.map((i) => ('text' in i ? i.text : '')).join('\n');
    expect(said).toContain('First task: run the command.');
    expect(said).toContain('Done with the first task.');
  });

  it('takes a steer into the running turn: answered taken before the reply, and the model saw it in the same turn', () => {
    expect(steered).toMatchObject({ taken: true });
    expect(order).toEqual(['steered', 'reply']);
    expect(replies.long).toEqual({ type: 'reply', turn: 3, text: 'Long task finished, note added.' });
    const q = requestsWith('Also add a note')[0]!;
    // In the turn's conversation: the long command's output, then the steer.
    const items = readRequest('openai-responses', q.body).items.map((i) => ('text' in i ? `${i.kind}: ${i.text}` : i.kind));
    const output = items.findIndex((i) => i.startsWith('result:') && i.includes('slept'));
    expect(output).toBeGreaterThan(items.findIndex((i) => i.includes('Long task: wait for it.')));
    expect(items.slice(output + 1)).toEqual(['user: Also add a note to the order.']);
  });

  it("a provider refusal fails the turn with Codex's own error text, and the next turn runs in the same process", () => {
    expect(replies.refused).toMatchObject({ type: 'failed', turn: 5, text: expect.stringContaining('fake-llm scripted HTTP 400') });
    expect(replies.afterRefusal).toEqual({ type: 'reply', turn: 6, text: 'Still here after the refusal.' });
  });

  it('a steer while a model request is open: once that request ends (here refused), Codex asks the model again with the steer, in the same turn', () => {
    expect(steeredIntoRefusal).toMatchObject({ taken: true });
    expect(replies.slow).toEqual({ type: 'reply', turn: 4, text: 'Took the one more thing.' });
    const items = readRequest('openai-responses', requestsWith('One more thing')[0]!.body).items.map((i) => ('text' in i ? i.text : i.kind));
    expect(items.slice(-2)).toEqual(['Slow refusal ahead.', 'One more thing for this task.']);
  });

  it('the program killed mid-turn: agent-serve ends at once with why as its last stderr line (no answer to that turn), and the next start resumes the thread', () => {
    expect(killedPid).toBeGreaterThan(0);
    expect(firstExit.code).toBe(1);
    // (after it, Codex's own last stderr line, if any)
    expect(first.stderr().trim().split('\n').at(-1)).toMatch(/^agent-serve: codex app-server exited \(signal SIGKILL\)/);
    expect(first.lines.slice(killFrom).filter((l) => l.type === 'reply' || l.type === 'failed')).toEqual([]);
    expect(second.lines.find((l) => l.type === 'ready')).toEqual({ type: 'ready', steer: true });
    expect(second.lines.some((l) => l.type === 'log' && l.text.includes('resumed thread'))).toBe(true);
    expect(replies.afterRestart).toEqual({ type: 'reply', turn: 8, text: 'Back after the restart.' });
    const said = readRequest('openai-responses', requestsWith('After the restart')[0]!.body).items.map((i) => ('text' in i ? i.text : '')).join('\n');
    expect(said).toContain('First task: run the command.');
    expect(said).toContain('Endless task.');
  });

  it("writes the app server's raw protocol stream per start to the trace directory", () => {
    const files = readdirSync(layer.trace).sort();
    expect(files).toEqual(['codex-app-server.1.jsonl', 'codex-app-server.2.jsonl']);
    const methods = readFileSync(join(layer.trace, files[0]!), 'utf8').trim().split('\n').map((l) => JSON.parse(l).msg.method);
    for (const m of ['initialize', 'thread/start', 'turn/start', 'turn/steer', 'turn/completed']) expect(methods).toContain(m);
    expect(readFileSync(join(layer.trace, files[1]!), 'utf8')).toContain('"thread/resume"');
    expect(existsSync(join(layer.user, 'session/codex-thread-id'))).toBe(true);
  });
});
