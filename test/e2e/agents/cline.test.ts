// Cline (from npm) evaluated end to end: docs/agents.md. The double speaks OpenAI's chat
// completions (streaming) with tool calls and drives Cline's run_commands tool. Cline is kept up
// for the whole run in its ACP mode (bin/agent-serve): the samples run at full clock speed (its
// start-up is off the clock), and beside them a run of its own: the multi-turn sample with Cline
// killed by its first command (its failure the turn's reply, restarted, resumed).
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
const cline: AgentUnderTest = AGENTS.cline;
/** Kills Cline from its own run_commands tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';

/** Everything said to the model as the user in a request. */
const userText = (q: RecordedRequest): string => readRequest('openai-chat', q.body).items.map((i) => (i.kind === 'user' ? i.text : '')).join('\n');
/** The system prompt Cline sent. */
const systemText = (q: RecordedRequest): string => JSON.stringify((q.body as { messages?: Array<{ role: string; content: unknown }> }).messages?.filter((m) => m.role === 'system') ?? []);

const [askWhich, forward] = samplePlay(SAMPLES.multi);

describeAgentSuite(
  cline,
  { tools: { exactly: ['run_commands'] }, keyHeader: 'authorization' },
  {
    extra: async (env) => {
      const on = { DOCKER_HOST: String(env.DOCKER_HOST) };
      // the multi-turn sample, Cline killed by the first command of turn 1: the double places a
      // request by the first play it names, so the later one comes first.
      const killed = await runAgentOnce(image, cline, { scenario: scenarioFile(SAMPLES.multi), plays: [forward!, { ...askWhich!, commands: [KILL, ...askWhich!.commands] }], env: on });
      return { killed } as Record<string, DrivenRun>;
    },
    tests: (suite) => {
      it('one Cline process and one ACP session played each sample, whatever its turns', () => {
        expectOneStartPerSample(suite().good.dir, 'cline');
      });

      it("every request carries the scenario's date in Cline's system prompt (its own clock reads the simulated time), never the host's, our instructions, and offers run_commands alone", () => {
        const requests = suite().good.fake.requests;
        expect(requests.length).toBeGreaterThan(0);
        const now = new Date();
        const hostDay = `Date: ${now.getMonth() + 1}/${now.getDate()}/${now.getFullYear()}`;
        for (const q of requests) {
          expect(systemText(q)).toMatch(/Date: 10\/\d{1,2}\/2025/);
          expect(systemText(q)).not.toContain(hostDay);
          expect(systemText(q)).toContain('# Gaia2: you are the user');
          expect(readRequest('openai-chat', q.body).tools).toEqual(['run_commands']);
        }
      });

      it('the provider Cline got is kept in the trace, without the key', () => {
        const dir = scenarioDirs(suite().good.dir).get(SAMPLES.single.split('/')[1]!)!;
        const text = readFileSync(join(dir, 'agent-trace', 'cline-providers.json'), 'utf8');
        const providers = JSON.parse(text) as Record<string, any>;
        expect(providers.lastUsedProvider).toBe('openai-compatible');
        expect(providers.providers['openai-compatible'].settings.model).toBe('gaia2-double-model');
        expect(providers.providers['openai-compatible'].settings).not.toHaveProperty('apiKey');
      });

      it('Cline killed mid-turn: the turn ends with its failure as the reply, the program is started again and resumes its session', () => {
        expectKilledAndResumed(suite().extra.killed!, 'cline', 'Cline', userText, askWhich!.when, forward!.when);
      });
    },
  },
);
