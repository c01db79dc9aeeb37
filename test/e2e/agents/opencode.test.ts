// OpenCode (from npm) evaluated end to end: docs/agents.md. The double speaks OpenAI's chat
// completions (streaming) with tool calls and drives OpenCode's bash tool. OpenCode is kept up
// for the whole run in its ACP mode (bin/agent-serve): the samples run at full clock speed (its
// start-up is off the clock), and beside them a run of its own: the multi-turn sample with
// OpenCode killed by its first command (its failure the turn's reply, restarted, resumed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { opencodeShell, readRequest, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { acpTraces as acpTracesOf, note, replies, scenarioDirs, sent } from './helpers/acp-traces.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const opencode: AgentUnderTest = { name: 'opencode', shell: opencodeShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model', flags: ['--thinking', 'low'] };
/** Kills OpenCode from its own bash tool (the command's shell is its child). */
const KILL = 'kill -9 $PPID';

const acpTraces = (dir: string) => acpTracesOf(dir, 'opencode');

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
        const dirs = scenarioDirs(suite().good.dir);
        for (const [sample, turns] of [[SAMPLES.single, 1], [SAMPLES.multi, 2], [SAMPLES.time, 2]] as const) {
          const traces = acpTraces(dirs.get(sample.split('/')[1]!)!);
          const start = traces.get('serve-1.opencode.jsonl')!;
          expect([...traces.keys()].filter((f) => f.startsWith('serve-')), sample).toEqual(['serve-1.opencode.jsonl']);
          expect([sent(start, 'initialize').length, sent(start, 'session/new').length, sent(start, 'session/load').length], sample).toEqual([1, 1, 0]);
          for (let n = 1; n <= turns; n++) {
            const turn = traces.get(`turn-${n}.opencode.jsonl`)!;
            expect(note(turn), `${sample} turn ${n}`).toEqual({ turn: n, start: 1, pid: note(start).pid, sessionId: note(start).sessionId });
            expect(sent(turn, 'session/prompt'), `${sample} turn ${n}`).toHaveLength(1);
          }
        }
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
        const run = suite().extra.killed!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null], run.err).toEqual([expect.stringMatching(/^(pass|fail)$/), null]);
        const dir = scenarioDirs(run.dir).values().next().value!;
        const traces = acpTraces(dir);
        expect([...traces.keys()].filter((f) => f.startsWith('serve-')).sort()).toEqual(['serve-1.opencode.jsonl', 'serve-2.opencode.jsonl']);
        expect(readFileSync(join(dir, 'agent-trace', 'serve.stderr.log'), 'utf8')).toContain('agent-serve: OpenCode exited (signal SIGKILL)');
        expect(replies(dir)[0]).toMatch(/^Error: the agent program ended during the turn \(exit code 1: agent-serve: OpenCode exited \(signal SIGKILL\)/);
        expect(r!.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
        const [first, second] = [note(traces.get('serve-1.opencode.jsonl')!), note(traces.get('serve-2.opencode.jsonl')!)];
        expect(second).toMatchObject({ start: 2, resumed: true, sessionId: first.sessionId });
        expect(second.pid).not.toBe(first.pid);
        expect(sent(traces.get('serve-2.opencode.jsonl')!, 'session/load')).toHaveLength(1);
        // turn 2's first request holds turn 1's message: the conversation went on
        const turn2 = run.fake.requests.find((q) => userText(q).includes(forward!.when))!;
        expect(userText(turn2)).toContain(askWhich!.when);
      });
    },
  },
);
