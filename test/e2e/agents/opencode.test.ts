// OpenCode (from npm) evaluated end to end: docs/agents.md. The double speaks OpenAI's chat
// completions (streaming) with tool calls and drives OpenCode's bash tool. OpenCode is kept up
// for the whole run in its ACP mode (bin/agent-serve): the samples run at full clock speed (its
// start-up is off the clock), and beside them a run of its own: the multi-turn sample with
// OpenCode killed by its first command (its failure the turn's reply, restarted, resumed).
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
const opencode: AgentUnderTest = AGENTS.opencode;
/** Kills OpenCode from its own bash tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';

/** Everything said to the model as the user in a request. */
const userText = (q: RecordedRequest): string => readRequest('openai-chat', q.body).items.map((i) => (i.kind === 'user' ? i.text : '')).join('\n');
/** The system prompt OpenCode sent. */
const systemText = (q: RecordedRequest): string => JSON.stringify((q.body as { messages?: Array<{ role: string; content: unknown }> }).messages?.filter((m) => m.role === 'system') ?? []);

const [askWhich, forward] = samplePlay(SAMPLES.multi);

describeAgentSuite(
  opencode,
  { tools: { exactly: ['bash'] }, keyHeader: 'authorization' },
  {
    extra: async (env) => {
      const on = { DOCKER_HOST: String(env.DOCKER_HOST) };
      // the multi-turn sample, OpenCode killed by the first command of turn 1: the double places a
      // request by the first play it names, so the later one comes first.
      const killed = await runAgentOnce(image, opencode, { scenario: scenarioFile(SAMPLES.multi), plays: [forward!, { ...askWhich!, commands: [KILL, ...askWhich!.commands] }], env: on });
      return { killed } as Record<string, DrivenRun>;
    },
    tests: (suite) => {
      it('one OpenCode process and one ACP session played each sample, whatever its turns', () => {
        expectOneStartPerSample(suite().good.dir, 'opencode');
      });

      it("OpenCode's system prompt carries the scenario's date (its own clock reads the simulated time) and our instructions", () => {
        const withTools = suite().good.fake.requests.filter((q) => Array.isArray((q.body as { tools?: unknown }).tools));
        expect(withTools.length).toBeGreaterThan(0);
        for (const q of withTools) {
          expect(systemText(q)).toMatch(/Today's date: \w{3} Oct \d\d 2025/);
          expect(systemText(q)).toContain('# Gaia2: you are the user');
        }
      });

      it('the requests that offer no tool are OpenCode titling the session (one per sample), not turns of the agent', () => {
        const bare = suite().good.fake.requests.filter((q) => !Array.isArray((q.body as { tools?: unknown }).tools));
        expect(bare).toHaveLength(3);
        for (const q of bare) expect(systemText(q)).toContain('You are a title generator');
      });

      it('the configuration OpenCode got is kept in the trace, without the key, and offers bash alone', () => {
        const dir = scenarioDirs(suite().good.dir).get(SAMPLES.single.split('/')[1]!)!;
        const config = JSON.parse(readFileSync(join(dir, 'agent-trace', 'opencode-config.json'), 'utf8')) as Record<string, any>;
        expect(config.provider.gaia2.npm).toBe('@ai-sdk/openai-compatible');
        expect(config.provider.gaia2.options.apiKey).toBe('{env:GAIA2_OPENCODE_KEY}');
        expect(config.tools).toEqual({ '*': false, bash: true });
      });

      it('OpenCode killed mid-turn: the turn ends with its failure as the reply, the program is started again and resumes its session', () => {
        expectKilledAndResumed(suite().extra.killed!, 'opencode', 'OpenCode', userText, askWhich!.when, forward!.when);
      });
    },
  },
);
