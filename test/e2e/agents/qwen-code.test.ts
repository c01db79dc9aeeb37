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
import { readRequest, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { scenarioDirs } from './helpers/acp-traces.js';
import { expectKilledAndResumed, expectOneStartPerSample } from './helpers/acp-suite-checks.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';
import { AGENTS } from './helpers/agents-under-test.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const qwen: AgentUnderTest = AGENTS['qwen-code'];
/** Kills Qwen Code from its own shell tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';

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
        expectOneStartPerSample(suite().good.dir, 'qwen');
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
        expectKilledAndResumed(suite().extra.killed!, 'qwen', 'Qwen Code', userText, askWhich!.when, forward!.when);
      });
    },
  },
);
