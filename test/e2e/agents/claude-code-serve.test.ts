// Claude Code kept up, on the host: the layer's bin/agent-serve driving the real program (the
// pinned package from the agent cache) against the Anthropic Messages double on 127.0.0.1,
// spoken to as the world's runtime speaks the serve contract. What the bridge relies on, shown
// on the real program: one process for every turn, a message written while a tool runs folded
// into the running turn, one that comes while the model writes its answer left for the next
// turn, an API error as the turn's failure, a restart that resumes the session.
// (The same in real containers through gaia2-runner: claude-code.test.ts.)
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCode } from '../../../runner/src/agents/claude-code.js';
import { ensureAgentPackage } from '../../../runner/src/image/agent-package.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { call, fail, readRequest, say, spokenText, startFakeLlm, type FakeLlm, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { serveLayer, type Serve, type ServeLayer } from '../../runner/agents/serve-harness.js';

const FOLDED = 'The user sent a new message while you were working';

/** What the model was told in a request: the user's words and the tool results, in order. */
function said(q: RecordedRequest): { users: string[]; results: string[] } {
  const items = readRequest('anthropic', q.body).items;
  return {
    users: items.filter((i) => i.kind === 'user').map((i) => spokenText((i as { text: string }).text)).filter(Boolean),
    results: items.filter((i) => i.kind === 'result').map((i) => (i as { text: string }).text),
  };
}

/** The double: each turn's message picks a play by its first words; `ran` counts the tool results since. */
function answer(q: RecordedRequest): FakeScriptItem {
  const items = readRequest('anthropic', q.body).items;
  let at = items.length - 1;
  while (at >= 0 && !(items[at]!.kind === 'user' && spokenText((items[at] as { text: string }).text) !== '')) at--;
  // its last line: after a failed turn Claude Code sends that turn's message and the next one as one user message
  const last = at < 0 ? '' : spokenText((items[at] as { text: string }).text).split('\n').filter(Boolean).at(-1)!;
  const ran = items.slice(at + 1).filter((i) => i.kind === 'result').length;
  if (last.startsWith('Wait for me')) return ran === 0 ? call('Bash', { command: 'sleep 3; echo slept', description: 'wait' }) : say('Waited.');
  if (last.startsWith('Answer slowly')) return say('Slow answer.', { delayMs: 2000 });
  if (last.startsWith('Refuse me')) return fail(400);
  return say(`Heard: ${last}`);
}

let fake: FakeLlm;
let layer: ServeLayer;
let serve: Serve;
const requestsOf = (from: number) => fake.requests.slice(from);

beforeAll(async () => {
  const cacheDir = process.env.GAIA2_AGENT_CACHE || join(projectRoot(), '.cache');
  const pkg = await ensureAgentPackage(claudeCode.package, claudeCode.package.version, { cacheDir });
  fake = await startFakeLlm({ format: 'anthropic', respond: answer });
  layer = serveLayer(claudeCode, pkg);
}, 600_000);

afterAll(async () => {
  serve?.child.kill('SIGKILL');
  await fake?.close();
});

/** The bridge's environment: the double as the provider; IS_SANDBOX because the host runs tests as root (Claude Code refuses bypassPermissions to root; in the layer it runs as user agent). */
const env = () => ({ PROVIDER: 'anthropic', MODEL: 'claude-sonnet-4-5', API_KEY: 'sk-ant-serve-test', BASE_URL: fake.url, THINKING: 'low', IS_SANDBOX: '1' });
const pidOf = (s: Serve): number => Number(/pid (\d+)/.exec(s.said.find((m) => m.type === 'log')?.text ?? '')?.[1]);
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('claude-code agent-serve with the real Claude Code 2.1.332 (host, Anthropic double)', () => {
  it('is ready after initialize, before any model request; turns 1 and 2 are turns of one process and one conversation', async () => {
    serve = layer.start(env());
    expect(await serve.next('ready')).toEqual({ type: 'ready', steer: true });
    expect(fake.requests).toHaveLength(0);
    const pid = pidOf(serve);
    expect(await serve.turn(1, 'Good morning')).toEqual({ type: 'reply', turn: 1, text: 'Heard: Good morning' });
    const at = fake.requests.length;
    expect(await serve.turn(2, 'And now?')).toEqual({ type: 'reply', turn: 2, text: 'Heard: And now?' });
    expect(alive(pid)).toBe(true);
    expect(said(requestsOf(at)[0]!).users).toEqual(['Good morning', 'And now?']);
    // the Gaia2 instructions and the key it was given
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain('shopping');
    expect(fake.requests[0]!.headers['x-api-key']).toBe('sk-ant-serve-test');
  }, 120_000);

  it('a message sent while a Bash command runs is folded into the running turn, with that command\'s result: taken', async () => {
    const at = fake.requests.length;
    const reply = serve.turn(3, 'Wait for me');
    serve.steer(3, 1, 'Also, the blue one please');
    expect(await reply).toEqual({ type: 'reply', turn: 3, text: 'Waited.' });
    expect(serve.said.filter((m) => m.type === 'steered')).toEqual([{ type: 'steered', turn: 3, seq: 1, taken: true }]);
    const after = requestsOf(at).map(said);
    const folded = after.at(-1)!.results.at(-1)!;
    expect(folded).toContain('slept');
    expect(folded).toContain(FOLDED);
    expect(folded).toContain('Also, the blue one please');
    // no turn of its own: the last user words are still the turn's message
    expect(after.at(-1)!.users.at(-1)).toBe('Wait for me');
  }, 120_000);

  it('a message sent while the model writes its final answer is not taken, and Claude Code never runs it: the next turn is the next message', async () => {
    const at = fake.requests.length;
    const reply = serve.turn(4, 'Answer slowly');
    serve.steer(4, 2, 'Never mind that');
    expect(await reply).toEqual({ type: 'reply', turn: 4, text: 'Slow answer.' });
    expect(serve.said.filter((m) => m.type === 'steered').at(-1)).toEqual({ type: 'steered', turn: 4, seq: 2, taken: false });
    expect(await serve.turn(5, 'Next message')).toEqual({ type: 'reply', turn: 5, text: 'Heard: Next message' });
    expect(requestsOf(at).map((q) => said(q).users.at(-1))).toEqual(['Answer slowly', 'Next message']);
    expect(JSON.stringify(requestsOf(at).map((q) => q.body.messages))).not.toContain('Never mind that');
  }, 120_000);

  it("a refused request fails the turn with Claude Code's own error text; the same process answers the next turn", async () => {
    const pid = pidOf(serve);
    const failed = await serve.turn(6, 'Refuse me');
    expect(failed).toMatchObject({ type: 'failed', turn: 6, text: expect.stringMatching(/^API Error: 400/) });
    expect(await serve.turn(7, 'Still there?')).toEqual({ type: 'reply', turn: 7, text: 'Heard: Still there?' });
    expect(alive(pid)).toBe(true);
  }, 180_000);

  it('killed, the bridge ends with the reason; started again it resumes the session: the conversation goes on', async () => {
    const pid = pidOf(serve);
    process.kill(pid, 'SIGKILL');
    expect((await serve.exited).code).not.toBe(0);
    expect(serve.stderr()).toContain('claude exited (signal SIGKILL)');
    serve = layer.start(env());
    await serve.next('ready');
    expect(serve.said.find((m) => m.type === 'log')?.text).toMatch(/start 2, session .*, resumed/);
    const at = fake.requests.length;
    expect(await serve.turn(8, 'After the restart')).toEqual({ type: 'reply', turn: 8, text: 'Heard: After the restart' });
    const told = said(requestsOf(at)[0]!).users.join('\n');
    for (const words of ['Good morning', 'Wait for me', 'Still there?', 'After the restart']) expect(told).toContain(words);
    serve.send({ type: 'shutdown', reason: 'test' });
    expect((await serve.exited).code).toBe(0);
    expect(alive(pidOf(serve))).toBe(false);
  }, 180_000);
});
