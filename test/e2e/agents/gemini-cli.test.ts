// Gemini CLI (from npm) evaluated end to end: docs/agents.md. The double speaks the Gemini
// API's streamGenerateContent (SSE) with functionCall parts and drives run_shell_command.
// Gemini CLI is kept up for the whole run in its ACP mode (bin/agent-serve): the samples run at
// full clock speed (its start-up is off the clock), and beside them two runs of its own: one
// whose model repeats the same call until Gemini CLI stops the turn (its own failure, judged),
// and the multi-turn sample with Gemini CLI killed by its first command (restarted, resumed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lastReply, parseEventsJsonl } from '@gaia2/contract';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { call, readRequest, shellExchanges, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { onlyFile, traffic } from '../helpers/run-dir.js';
import { acpTraces as acpTracesOf, events, note, replies, scenarioDirs, sent } from './helpers/acp-traces.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile, WAIT_FOR_EMAIL } from './helpers/agent-samples.js';
import { readResults, runAgentOnce, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const gemini = { ...AGENTS['gemini-cli'], flags: ['--thinking', 'low'] };
/** Kills Gemini CLI from its own shell tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';
/** What the model calls again and again in the looping run. */
const SAME = 'shopping --help';

const acpTraces = (dir: string) => acpTracesOf(dir, 'gemini');

/** Everything said to the model as the user in a request. */
const userText = (q: RecordedRequest): string => readRequest('gemini', q.body).items.map((i) => (i.kind === 'user' ? i.text : '')).join('\n');

const [askWhich, forward] = samplePlay(SAMPLES.multi);
const [single] = samplePlay(SAMPLES.single);

describeAgentSuite(
  gemini,
  { tools: { exactly: ['run_shell_command'] }, keyHeader: 'x-goog-api-key' },
  {
    extra: async (env) => {
      const on = { DOCKER_HOST: String(env.DOCKER_HOST) };
      const [looped, killed] = await Promise.all([
        // the model calls the same command over and over: Gemini CLI's loop detection ends the turn
        runAgentOnce(image, gemini, { plays: [single!], env: on, filter: () => call('run_shell_command', { command: SAME }) }),
        // the multi-turn sample, Gemini CLI killed by the first command of turn 1. Resumed, Gemini
        // CLI sends the killed turn's message and the next as one user turn: the double places a
        // request by the first play it names, so the later one comes first.
        runAgentOnce(image, gemini, { scenario: scenarioFile(SAMPLES.multi), plays: [forward!, { ...askWhich!, commands: [KILL, ...askWhich!.commands] }], env: on }),
      ]);
      return { looped, killed } as Record<string, DrivenRun>;
    },
    tests: (suite) => {
      it('one Gemini CLI process and one ACP session played each sample, whatever its turns', () => {
        const dirs = scenarioDirs(suite().good.dir);
        for (const [sample, turns] of [[SAMPLES.single, 1], [SAMPLES.multi, 2], [SAMPLES.time, 2]] as const) {
          const traces = acpTraces(dirs.get(sample.split('/')[1]!)!);
          const start = traces.get('serve-1.gemini.jsonl')!;
          expect([...traces.keys()].filter((f) => f.startsWith('serve-')), sample).toEqual(['serve-1.gemini.jsonl']);
          expect([sent(start, 'initialize').length, sent(start, 'session/new').length, sent(start, 'session/load').length], sample).toEqual([1, 1, 0]);
          for (let n = 1; n <= turns; n++) {
            const turn = traces.get(`turn-${n}.gemini.jsonl`)!;
            expect(note(turn), `${sample} turn ${n}`).toEqual({ turn: n, start: 1, pid: note(start).pid, sessionId: note(start).sessionId });
            expect(sent(turn, 'session/prompt'), `${sample} turn ${n}`).toHaveLength(1);
          }
        }
      });

      it('an email that arrives while a turn runs waits for the next turn: Gemini CLI takes no input during a prompt', () => {
        const dir = scenarioDirs(suite().good.dir).get(SAMPLES.time.split('/')[1]!)!;
        const ev = events(dir);
        const t = (fn: string, match = '') => ev.find((e) => e.fn === fn && JSON.stringify(e.args).includes(match))!.t;
        const [asked, arrived, answered] = [t('send_message_to_agent'), t('send_email_to_user_only', 'Boat trip'), t('send_message_to_user')];
        expect(arrived).toBeGreaterThan(asked);
        expect(arrived).toBeLessThan(answered);
        // delivered after the reply, as turn 2's prompt; the waiting command saw the email itself, and nothing was folded into its result
        expect(t('send_message_to_agent', '[Notification]')).toBeGreaterThanOrEqual(answered);
        const turn2 = acpTraces(dir).get('turn-2.gemini.jsonl')!;
        expect(sent(turn2, 'session/prompt')[0]!.msg.params.prompt[0].text).toMatch(/^\[Notification\] emails: New email received from lucia\.paredes/);
        const waited = suite()
          .good.fake.requests.flatMap((q) => shellExchanges('gemini', q.body, 'run_shell_command'))
          .find((x) => x.args.command === WAIT_FOR_EMAIL && x.result !== null)!;
        expect(waited.result).toContain('arrived');
        expect(waited.result).not.toContain('[Notification]');
      });

      it('Gemini CLI stopping a turn on its own (a loop of the same call) ends the turn with its failure text as the reply: judged, not an error', () => {
        const run = suite().extra.looped!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null, r!.error_kind ?? null], run.err).toEqual(['fail', null, null]);
        expect(lastReply(parseEventsJsonl(onlyFile(run.dir, 'events.jsonl')))).toMatch(/^Gemini CLI stopped the turn: it detected a loop/);
        // the runner weighed the failed turn against the gateway's record and let the run stand
        expect(r!.agent_failed).toMatchObject({ turns: [1], text: expect.stringMatching(/^Gemini CLI stopped the turn/), evidence: 'gateway_record' });
        // the provider answered every request: the program gave up, not the provider
        const dir = scenarioDirs(run.dir).values().next().value!;
        const statuses = traffic(dir).filter((l) => l.role === 'agent').map((l) => l.http_status);
        expect(statuses.length).toBeGreaterThanOrEqual(5);
        expect(new Set(statuses)).toEqual(new Set([200]));
        expect(shellExchanges('gemini', run.fake.requests.at(-1)!.body, 'run_shell_command').every((x) => x.args.command === SAME)).toBe(true);
      });

      it('Gemini CLI killed mid-turn: the turn ends with its failure as the reply, the program is started again and resumes its session', () => {
        const run = suite().extra.killed!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null], run.err).toEqual([expect.stringMatching(/^(pass|fail)$/), null]);
        const dir = scenarioDirs(run.dir).values().next().value!;
        const traces = acpTraces(dir);
        expect([...traces.keys()].filter((f) => f.startsWith('serve-')).sort()).toEqual(['serve-1.gemini.jsonl', 'serve-2.gemini.jsonl']);
        expect(readFileSync(join(dir, 'agent-trace', 'serve.stderr.log'), 'utf8')).toContain('agent-serve: Gemini CLI exited (signal SIGKILL)');
        expect(replies(dir)[0]).toBe('Error: the agent program ended during the turn (exit code 1: agent-serve: Gemini CLI exited (signal SIGKILL))');
        expect(r!.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
        const [first, second] = [note(traces.get('serve-1.gemini.jsonl')!), note(traces.get('serve-2.gemini.jsonl')!)];
        expect(second).toMatchObject({ start: 2, resumed: true, sessionId: first.sessionId });
        expect(second.pid).not.toBe(first.pid);
        expect(sent(traces.get('serve-2.gemini.jsonl')!, 'session/load')).toHaveLength(1);
        expect(note(traces.get('turn-2.gemini.jsonl')!)).toMatchObject({ start: 2, pid: second.pid });
        // turn 2's first request holds turn 1's message: the conversation went on
        const turn2 = run.fake.requests.find((q) => userText(q).includes(forward!.when))!;
        expect(userText(turn2)).toContain(askWhich!.when);
      });
    },
  },
);
