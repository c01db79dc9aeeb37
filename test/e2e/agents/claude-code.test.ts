// Claude Code (the native build from npm) evaluated end to end: docs/agents.md. The double
// speaks Anthropic Messages streaming with tool_use blocks and drives Claude Code's Bash tool.
// Claude Code is kept up for the whole run (bin/agent-serve): the samples run at full clock
// speed (its start-up is off the clock), and after them two runs of its own: one whose model
// answers are all cut off at max_tokens (Claude Code gives up: its own failure, judged), and the
// multi-turn sample with Claude Code killed by its first command (restarted, session resumed);
// and a universe chain of two samples (its home carried from the first into the second).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lastReply, parseEventsJsonl } from '@gaia2/contract';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { readRequest, shellExchanges, spokenText, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { onlyFile, traffic } from '../helpers/run-dir.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { readResults, runAgentOnce, type DrivenRun } from './helpers/third-party-run.js';
import { readCheckpoint } from '../../../runner/src/sequences/checkpoint.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const claude = { ...AGENTS['claude-code'], flags: ['--thinking', 'low'] };
const CUT_OFF = /exceeded the 32000 output token maximum/;
const FOLDED = 'The user sent a new message while you were working';
/** The command that kills Claude Code from its own Bash tool (Bash's shell is its child). */
const KILL = 'kill -9 $PPID';

/** The directory of each scenario of a run: its id → the directory holding its result.json. */
function scenarioDirs(out: string): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const f of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (f.endsWith('/result.json') && !f.includes('.attempts')) dirs.set(f.split('/').at(-2)!, join(out, f, '..'));
  }
  return dirs;
}

/** The raw stream of each start of the program in a scenario (agent-trace/serve-N.claude.jsonl), by N. */
function serveTraces(dir: string): Map<number, Array<{ dir: string; msg: Record<string, any> }>> {
  const traces = new Map<number, Array<{ dir: string; msg: Record<string, any> }>>();
  for (const f of readdirSync(join(dir, 'agent-trace'))) {
    const n = /^serve-(\d+)\.claude\.jsonl$/.exec(f)?.[1];
    if (n) traces.set(Number(n), readFileSync(join(dir, 'agent-trace', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
  }
  return traces;
}

/** The user's words in a request (without Claude Code's reminders). */
const userWords = (q: RecordedRequest): string[] =>
  readRequest('anthropic', q.body)
    .items.filter((i) => i.kind === 'user')
    .map((i) => spokenText((i as { text: string }).text))
    .filter(Boolean);

const [single] = samplePlay(SAMPLES.single);
const [askWhich, forward] = samplePlay(SAMPLES.multi);

/** A dataset of the single-turn and the multi-turn sample, and a sequences file chaining them in that order. */
function chainOfTwo(): { data: string; sequences: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-cc-chain-'));
  const data = join(dir, 'data');
  for (const s of [SAMPLES.single, SAMPLES.multi]) {
    mkdirSync(join(data, s.split('/')[0]!), { recursive: true });
    cpSync(scenarioFile(s), join(data, `${s}.json`));
  }
  const sequences = join(dir, 'chains.jsonl');
  writeFileSync(sequences, `${JSON.stringify({ universe_id: 'u-claude', scenarios: [SAMPLES.single, SAMPLES.multi].map((s) => ({ scenario_id: s.split('/')[1] })) })}\n`);
  return { data, sequences };
}

describeAgentSuite(
  claude,
  { tools: { exactly: ['Bash'] }, keyHeader: 'x-api-key' },
  {
    extra: async (env) => {
      const on = { DOCKER_HOST: String(env.DOCKER_HOST) };
      const chain = chainOfTwo();
      const [cutOff, killed, chained] = await Promise.all([
        // every answer cut off at max_tokens: Claude Code retries, then gives up with its own error
        runAgentOnce(image, claude, { plays: [single!], env: on, filter: () => ({ text: 'Ordering the bott', truncated: true }) }),
        // the multi-turn sample, Claude Code killed by the first command of turn 1
        runAgentOnce(image, claude, { scenario: scenarioFile(SAMPLES.multi), plays: [{ ...askWhich!, commands: [KILL, ...askWhich!.commands] }, forward!], env: on }),
        // the two samples as one universe chain: the second starts from the home the first left
        runAgentOnce(image, claude, { args: ['run-dataset', '-d', chain.data, '--sequences', chain.sequences], plays: [single!, askWhich!, forward!], env: on }),
      ]);
      return { cutOff, killed, chained } as Record<string, DrivenRun>;
    },
    tests: (suite) => {
      it('one Claude Code process played each sample, whatever its turns: one start, one initialize, a result per turn', () => {
        const dirs = scenarioDirs(suite().good.dir);
        const turns = { [SAMPLES.single]: 1, [SAMPLES.multi]: 2, [SAMPLES.time]: 1 };
        for (const [sample, n] of Object.entries(turns)) {
          const traces = serveTraces(dirs.get(sample.split('/')[1]!)!);
          expect([...traces.keys()], sample).toEqual([1]);
          const stream = traces.get(1)!;
          expect(stream.filter((l) => l.dir === 'out' && l.msg.request?.subtype === 'initialize'), sample).toHaveLength(1);
          expect(stream.filter((l) => l.dir === 'out' && l.msg.type === 'user' && l.msg.message.content !== undefined).length, sample).toBeGreaterThanOrEqual(n);
          expect(stream.filter((l) => l.dir === 'in' && l.msg.type === 'result'), sample).toHaveLength(n);
        }
      });

      it("Lucia's email, announced while the agent worked on the time sample, reached the running turn: folded into a Bash result", () => {
        // It comes at +20 s while the turn waits for that email, so a command of the turn runs after it: the notification is folded in there.
        const results = suite().good.fake.requests.flatMap((q) => shellExchanges('anthropic', q.body, 'Bash')).map((x) => x.result ?? '');
        const folded = results.filter((r) => r.includes(FOLDED));
        expect(folded.length).toBeGreaterThan(0);
        expect(folded.join('\n')).toMatch(/\[Notification\] emails: New email received from lucia\.paredes@altamar\.example/);
      });

      it("Claude Code failing on its own (every answer cut off) ends the turn with its error as the reply: judged, not an error", () => {
        const run = suite().extra.cutOff!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null, r!.error_kind ?? null], run.err).toEqual(['fail', null, null]);
        expect(lastReply(parseEventsJsonl(onlyFile(run.dir, 'events.jsonl')))).toMatch(CUT_OFF);
        // the provider answered every request (the program gave up, not the provider)
        const statuses = traffic(scenarioDirs(run.dir).values().next().value!).filter((l) => l.role === 'agent').map((l) => l.http_status);
        expect(statuses.length).toBeGreaterThan(0);
        expect(new Set(statuses)).toEqual(new Set([200]));
      });

      it("a universe chain played by Claude Code: both judged, the second from the first's home (Claude Code's own files carried, its credentials not)", async () => {
        const run = suite().extra.chained!;
        const results = readResults(run.dir).sort((a, b) => (a.universe_position ?? 0) - (b.universe_position ?? 0));
        expect(results.map((r) => [r.universe_id, r.universe_position, r.status === 'error' ? r.error : 'judged', r.carry_error ?? null]), run.err).toEqual([
          ['u-claude', 0, 'judged', null],
          ['u-claude', 1, 'judged', null],
        ]);
        const first = readdirSync(run.dir, { recursive: true, encoding: 'utf8' }).find((f) => /sequential_state\/u-claude\/0_[^/]+\.tar\.gz$/.test(f));
        expect(first, 'the first scenario left its checkpoint').toBeDefined();
        const carried = (await readCheckpoint(join(run.dir, first!)))!;
        const home = carried.home.map((e) => e.path);
        expect(home.some((p) => p.startsWith('.claude/'))).toBe(true);
        expect(home.filter((p) => /credentials/i.test(p))).toEqual([]);
      });

      it('Claude Code killed mid-turn: the turn ends with the failure as its reply, the program is started again and resumes its session', () => {
        const run = suite().extra.killed!;
        const [r] = readResults(run.dir);
        expect(r!.status, run.err).toMatch(/^(pass|fail)$/);
        const dir = scenarioDirs(run.dir).values().next().value!;
        const traces = serveTraces(dir);
        expect([...traces.keys()].sort()).toEqual([1, 2]);
        expect(readFileSync(join(dir, 'agent-trace', 'serve.stderr.log'), 'utf8')).toContain('claude exited (signal SIGKILL)');
        const replies = parseEventsJsonl(onlyFile(run.dir, 'events.jsonl')).filter((e) => e.fn === 'send_message_to_user').map((e) => String((e.args as { content?: unknown }).content));
        expect(replies[0]).toMatch(/^Error: the agent program ended during the turn/);
        // start 2 resumed the session: turn 2's first request holds turn 1's conversation. (The
        // fatal command itself is there only when Claude Code wrote it to its transcript before
        // the kill: a CI run once resumed without it, so it is not asserted.)
        const turn2 = run.fake.requests.find((q) => userWords(q).at(-1)?.includes(forward!.when))!;
        expect(userWords(turn2)).toContain(askWhich!.when);
        const resumedWith = traces.get(2)!.find((l) => l.dir === 'in' && l.msg.type === 'system' && l.msg.subtype === 'init')?.msg.session_id;
        expect(resumedWith).toBe(traces.get(1)!.find((l) => l.dir === 'in' && l.msg.type === 'system' && l.msg.subtype === 'init')?.msg.session_id);
      });
    },
  },
);
