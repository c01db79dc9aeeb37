// The Agent2Agent phase with every third-party agent: `gaia2-runner run --agent NAME
// --a2a-app-prop 1` on the single-turn sample, in real containers, all four at once. Shopping is
// run by our app agent (its own scripted chat-completions double per agent, reached through the
// run's gateway as role app_agent, with its own key). Each program is told so by the kit's
// instructions, finds the app's own commands gone (`shopping add-to-cart --help`: "No such
// command"), hands the task to `shopping expert-agent` through its own shell tool, gets the
// expert's answer back, and the run passes with the app agent's writes judged as the agent's.
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventsJsonl } from '@gaia2/contract';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { say, shellExchanges, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { oraclePlay, scriptFor } from '../helpers/oracle-llm-script.js';
import { onlyFile } from '../helpers/run-dir.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { samplePlay, SAMPLES } from './helpers/agent-samples.js';
import { agentLayerHere, readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'A2A_E2E_APP_AGENT_KEY';
const KEY = `sk-app-agent-e2e-${process.pid}`;
const TASK = 'Order two of the black 750ml Insulated Steel Bottles and use the discount code HYDRATE5 at checkout.';
const EXPERT = `shopping expert-agent --task '${TASK}'`;
const [turn] = samplePlay(SAMPLES.single);

interface A2aRun {
  agent: AgentUnderTest;
  run: DrivenRun & { key: string };
  appAgent: FakeLlm;
}
const runs = new Map<string, A2aRun>();


/** Every shell call of the run with the output that came back, in order, from the double's last request. */
const shellCalls = (r: A2aRun) =>
  shellExchanges(r.agent.shell.format, r.run.fake.requests.at(-1)!.body, r.agent.shell.tool).map((x) => ({
    // the command as the program's shell tool takes it: a string argument, or the first of a list (Cline's run_commands)
    command: String(Object.values(x.args).map((v) => (Array.isArray(v) ? v[0] : v)).find((v) => typeof v === 'string') ?? ''),
    result: x.result,
  }));

beforeAll(async () => {
  const agents = Object.values(AGENTS) as AgentUnderTest[];
  for (const a of agents) await agentLayerHere(image, a.name); // one at a time: builds are heavy
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  const done = await Promise.all(
    agents.map(async (agent) => {
      const appAgent = await startFakeLlm({ format: 'openai-chat', script: [...scriptFor(play, 'functions').slice(0, -1), say('task completed')] });
      const run = await runAgentOnce(image, agent, {
        plays: [{ ...turn!, commands: ['shopping add-to-cart --help', EXPERT] }],
        flags: ['--timeout', '900', '--a2a-app-prop', '1', '--a2a-provider', 'openai-compat', '--a2a-model', 'fake-app-agent', '--a2a-base-url', appAgent.url, '--a2a-api-key-env', KEY_VAR],
        env: { [KEY_VAR]: KEY },
      });
      return { agent, run, appAgent };
    }),
  );
  for (const r of done) runs.set(r.agent.name, r);
}, 1_500_000);

afterAll(async () => {
  for (const r of runs.values()) await r.appAgent.close();
});

describe.each(Object.keys(AGENTS))('Agent2Agent with %s (real containers, its provider double, a chat double for the app agent)', (name) => {
  it('passes: the app agent did the work, the judge counted it as the agent’s', () => {
    const { run } = runs.get(name)!;
    const [r] = readResults(run.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, run.err).toBeNull();
    expect(r!.status).toBe('pass');
    expect(r!.daemon_status?.app_agents).toEqual(['Shopping']);
    const lines = parseEventsJsonl(onlyFile(run.dir, 'events.jsonl')).filter((l) => l.app !== 'AgentUserInterface');
    expect(lines.map((l) => [l.fn, l.w])).toEqual([
      ['add_to_cart', true],
      ['checkout', true],
      ['expert_agent', false],
    ]);
    expect(lines[2]).toMatchObject({ args: { task: TASK }, ret: 'task completed' });
  });

  it('the program was told which app an expert runs, found its commands gone, and got the expert’s answer through its shell', () => {
    const r = runs.get(name)!;
    // (in its turn's requests: OpenCode asks for a session title first, without the instructions)
    expect(r.run.fake.requests.some((q) => JSON.stringify(q.body).includes('shopping (run by its expert agent'))).toBe(true);
    const [help, expert] = shellCalls(r);
    expect(help!.result).toMatch(/No such command/);
    expect([expert!.command, expert!.result]).toEqual([EXPERT, expect.stringContaining('task completed')]);
  });

  it('the app agent was served through the gateway as role app_agent, with its own key, which is in no file of the run', () => {
    const { run, appAgent } = runs.get(name)!;
    expect(appAgent.requests.length).toBeGreaterThan(2);
    for (const q of appAgent.requests) expect(q.headers.authorization).toBe(`Bearer ${KEY}`);
    const roles = onlyFile(run.dir, 'model_traffic.jsonl').trim().split('\n').map((l) => JSON.parse(l).role as string);
    expect(roles.filter((x) => x === 'app_agent')).toHaveLength(appAgent.requests.length);
    expect(roles.filter((x) => x === 'agent')).toHaveLength(run.fake.requests.length);
    const files = (readdirSync(run.dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile());
    for (const f of files) {
      const text = readFileSync(join(f.parentPath, f.name), 'utf8');
      expect(text.includes(KEY) || text.includes(run.key), f.name).toBe(false);
    }
  });
});
