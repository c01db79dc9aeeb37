// Qwen Code (from npm) evaluated end to end: docs/agents.md. The double speaks OpenAI's chat
// completions (streaming) with tool calls and drives Qwen Code's run_shell_command tool. Qwen
// Code is kept up for the whole run in its ACP mode (bin/agent-serve): the samples run at full
// clock speed (its start-up is off the clock), and beside them a run of its own: the multi-turn
// sample with Qwen Code killed by its first command (its failure the turn's reply, restarted,
// resumed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { qwenCodeShell, readRequest, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { acpTraces as acpTracesOf, note, replies, scenarioDirs, sent } from './helpers/acp-traces.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const qwen: AgentUnderTest = { name: 'qwen-code', shell: qwenCodeShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model', flags: ['--thinking', 'low'] };
/** Kills Qwen Code from its own shell tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';

const acpTraces = (dir: string) => acpTracesOf(dir, 'qwen');

/** Everything said to the model as the user in a request. */
const userText = (q: RecordedRequest): string => readRequest('openai-chat', q.body).items.map((i) => (i.kind === 'user' ? i.text : '')).join('\n');

const [askWhich, forward] = samplePlay(SAMPLES.multi);

describeAgentSuite(
  qwen,
  { tools: { exactly: ['run_shell_command'] }, keyHeader: 'authorization' },
  {
    extra: async (env) => {
      const on = { DOCKER_HOST: String(env.DOCKER_HOST) };
      // the multi-turn sample, Qwen Code killed by the first command of turn 1: the double places
      // a request by the first play it names, so the later one comes first.
      const killed = await runAgentOnce(image, qwen, { scenario: scenarioFile(SAMPLES.multi), plays: [forward!, { ...askWhich!, commands: [KILL, ...askWhich!.commands] }], env: on });
      return { killed } as Record<string, DrivenRun>;
    },
    tests: (suite) => {
      it('one Qwen Code process and one ACP session played each sample, whatever its turns', () => {
        const dirs = scenarioDirs(suite().good.dir);
        for (const [sample, turns] of [[SAMPLES.single, 1], [SAMPLES.multi, 2], [SAMPLES.time, 2]] as const) {
          const traces = acpTraces(dirs.get(sample.split('/')[1]!)!);
          const start = traces.get('serve-1.qwen.jsonl')!;
          expect([...traces.keys()].filter((f) => f.startsWith('serve-')), sample).toEqual(['serve-1.qwen.jsonl']);
          expect([sent(start, 'initialize').length, sent(start, 'session/new').length, sent(start, 'session/load').length], sample).toEqual([1, 1, 0]);
          for (let n = 1; n <= turns; n++) {
            const turn = traces.get(`turn-${n}.qwen.jsonl`)!;
            expect(note(turn), `${sample} turn ${n}`).toEqual({ turn: n, start: 1, pid: note(start).pid, sessionId: note(start).sessionId });
            expect(sent(turn, 'session/prompt'), `${sample} turn ${n}`).toHaveLength(1);
          }
        }
      });

      it("every request carries the scenario's date (Qwen Code's own clock reads the simulated time), never the host's, and offers the shell alone", () => {
        const requests = suite().good.fake.requests;
        expect(requests.length).toBeGreaterThan(0);
        const hostDay = new Date().toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
        for (const q of requests) {
          const body = JSON.stringify(q.body);
          expect(body).toMatch(/Today's date is \w+day, October \d{1,2}, 2025/);
          expect(body).not.toContain(hostDay);
          expect(readRequest('openai-chat', q.body).tools).toEqual(['run_shell_command']);
        }
      });

      it('the settings Qwen Code got are kept in the trace, without the key', () => {
        const dir = scenarioDirs(suite().good.dir).get(SAMPLES.single.split('/')[1]!)!;
        const settings = JSON.parse(readFileSync(join(dir, 'agent-trace', 'qwen-settings.json'), 'utf8')) as Record<string, any>;
        expect(settings.security.auth.selectedType).toBe('openai');
        expect(settings.modelProviders.openai[0].envKey).toBe('GAIA2_QWEN_KEY');
        expect(settings.tools.core).toEqual(['run_shell_command']);
      });

      it('Qwen Code killed mid-turn: the turn ends with its failure as the reply, the program is started again and resumes its session', () => {
        const run = suite().extra.killed!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null], run.err).toEqual([expect.stringMatching(/^(pass|fail)$/), null]);
        const dir = scenarioDirs(run.dir).values().next().value!;
        const traces = acpTraces(dir);
        expect([...traces.keys()].filter((f) => f.startsWith('serve-')).sort()).toEqual(['serve-1.qwen.jsonl', 'serve-2.qwen.jsonl']);
        expect(readFileSync(join(dir, 'agent-trace', 'serve.stderr.log'), 'utf8')).toContain('agent-serve: Qwen Code exited (signal SIGKILL)');
        expect(replies(dir)[0]).toMatch(/^Error: the agent program ended during the turn \(exit code 1: agent-serve: Qwen Code exited \(signal SIGKILL\)/);
        expect(r!.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
        const [first, second] = [note(traces.get('serve-1.qwen.jsonl')!), note(traces.get('serve-2.qwen.jsonl')!)];
        expect(second).toMatchObject({ start: 2, resumed: true, sessionId: first.sessionId });
        expect(second.pid).not.toBe(first.pid);
        expect(sent(traces.get('serve-2.qwen.jsonl')!, 'session/load')).toHaveLength(1);
        // turn 2's first request holds turn 1's message: the conversation went on
        const turn2 = run.fake.requests.find((q) => userText(q).includes(forward!.when))!;
        expect(userText(turn2)).toContain(askWhich!.when);
      });
    },
  },
);
