// The Noise and Agent2Agent phases with a third-party agent: Claude Code (the fastest of the
// four to start a turn) run by `gaia2-runner run --agent claude-code` in real containers
// against a scripted Anthropic Messages double that drives its Bash tool, judged as runs of our
// own agent are (test/e2e/noise-llm.test.ts, agent2agent.test.ts).
//   Noise: `--noise` with a seed whose first add-to-cart fails; the failure's text reaches the
//     model as the Bash result, the model retries, the run passes with one add_to_cart event.
//   Agent2Agent: `--a2a-app-prop 1`; Shopping is run by our app agent (its own scripted
//     provider, reached through the run's gateway as role app_agent); Claude Code is told so,
//     finds the app's own commands gone, hands the task to `shopping expert-agent`, and passes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appForCli } from '../../../agent-image/src/apps/catalog.js';
import { DEFAULT_TOOL_AUGMENTATION, parseEventsJsonl } from '../../../agent-image/src/contract/index.js';
import { ToolNoise } from '../../../agent-image/src/noise/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { CLAUDE_CODE_SHELL, readRequest, say, shellExchanges, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { oraclePlay, scriptFor } from '../helpers/oracle-llm-script.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { agentLayerHere, readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const claude: AgentUnderTest = { name: 'claude-code', shell: CLAUDE_CODE_SHELL, provider: 'anthropic', model: 'claude-sonnet-4-5' };
const FAILURE = 'Calling Shopping__add_to_cart failed with error: Internal error - Retry again later';
const A2A_KEY_VAR = 'PHASES_E2E_APP_AGENT_KEY';
const A2A_KEY = `sk-app-agent-e2e-${process.pid}`;

const [turn] = samplePlay(SAMPLES.single);
const [add, checkout] = turn!.commands as [string, string];
/** argv of a shell line as the CLI gets it (the single quotes are the shell's). */
const argv = (line: string): string[] => line.split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));

/** The Noise seed (tool failures and background events) whose first add-to-cart fails and nothing after it. */
function failingFirstSeed(probability: number): number {
  const sc = JSON.parse(readFileSync(scenarioFile(SAMPLES.single), 'utf8'));
  const shopping = appForCli('shopping')!;
  const seed = [...Array(200).keys()].find((s) => {
    const t = new ToolNoise({ ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: probability, seed: s }, sc);
    return t.draw(argv(add), shopping) !== null && t.draw(argv(add), shopping) === null && t.draw(argv(checkout), shopping) === null;
  });
  if (seed === undefined) throw new Error('no seed fails the first add-to-cart only');
  return seed;
}

/** The single file `name` under a run's output directory. */
function artifact(dir: string, name: string): string {
  const found = (readdirSync(dir, { recursive: true }) as string[]).filter((p) => p.split('/').pop() === name);
  if (found.length !== 1) throw new Error(`${found.length} files ${name} under ${dir}`);
  return readFileSync(join(dir, found[0]!), 'utf8');
}
const jsonLines = (text: string): Array<Record<string, any>> => text.trim().split('\n').map((l) => JSON.parse(l));

/** Every Bash call of the run with the output that came back, in order, from the double's last request. */
const bashCalls = (r: DrivenRun) => shellExchanges('anthropic', r.fake.requests.at(-1)!.body, 'Bash').map((x) => ({ command: String(x.args.command), result: x.result }));

const TASK = 'Order two of the black 750ml Insulated Steel Bottles and use the discount code HYDRATE5 at checkout.';
const EXPERT = `shopping expert-agent --task '${TASK}'`;

let noise: DrivenRun;
let a2a: DrivenRun & { key: string };
let appAgent: FakeLlm;

beforeAll(async () => {
  await agentLayerHere(image, claude.name);
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  appAgent = await startFakeLlm({ format: 'openai-chat', script: [...scriptFor(play, 'functions').slice(0, -1), say('task completed')] });
  const probability = 0.5;
  [noise, a2a] = await Promise.all([
    // The oracle's play with the add-to-cart said twice: the retry after the failure.
    runAgentOnce(image, claude, {
      scenario: scenarioFile(SAMPLES.single),
      plays: [{ ...turn!, commands: [add, add, checkout] }],
      flags: ['--noise', '--noise-seed', String(failingFirstSeed(probability)), '--tool-failure-probability', String(probability)],
    }),
    runAgentOnce(image, claude, {
      scenario: scenarioFile(SAMPLES.single),
      plays: [{ ...turn!, commands: ['shopping add-to-cart --help', EXPERT] }],
      flags: ['--a2a-app-prop', '1', '--a2a-provider', 'openai-compat', '--a2a-model', 'fake-app-agent', '--a2a-base-url', appAgent.url, '--a2a-api-key-env', A2A_KEY_VAR],
      env: { [A2A_KEY_VAR]: A2A_KEY },
    }),
  ]);
}, 900_000);

afterAll(async () => {
  await appAgent?.close();
});

describe('Noise phase with claude-code (real containers, Anthropic double)', () => {
  it('the injected failure came back to the model as the Bash output; the retry passed', () => {
    const [r] = readResults(noise.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, noise.err).toBeNull();
    expect(r!.status).toBe('pass');
    const calls = bashCalls(noise);
    expect(calls.map((c) => c.command)).toEqual([add, add, checkout]);
    expect(calls[0]!.result).toContain(FAILURE);
    expect(calls[1]!.result).not.toContain('failed with error');
    expect(calls[2]!.result).toMatch(/order_id/);
  });

  it('the failed call left no event; noise.jsonl records it and the background events of the phase', () => {
    const events = parseEventsJsonl(artifact(noise.dir, 'events.jsonl'));
    expect(events.filter((e) => e.fn === 'add_to_cart')).toHaveLength(1);
    const records = jsonLines(artifact(noise.dir, 'noise.jsonl'));
    expect(records.filter((x) => x.kind === 'tool_failure').map((x) => [x.tool, x.message])).toEqual([['Shopping__add_to_cart', FAILURE]]);
    expect(records.filter((x) => x.kind === 'env_event').length).toBeGreaterThan(0);
    expect(JSON.parse(artifact(noise.dir, 'run_config.json')).noise).toMatchObject({ tool_augmentation: { tool_failure_probability: 0.5 } });
  });
});

describe('Agent2Agent with claude-code (real containers, Anthropic double for Claude Code, chat double for the app agent)', () => {
  it('passes: the app agent did the work, the judge counted it as the agent’s', () => {
    const [r] = readResults(a2a.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, a2a.err).toBeNull();
    expect(r!.status).toBe('pass');
    expect(r!.daemon_status?.app_agents).toEqual(['Shopping']);
    const lines = parseEventsJsonl(artifact(a2a.dir, 'events.jsonl')).filter((l) => l.app !== 'AgentUserInterface');
    expect(lines.map((l) => [l.fn, l.w])).toEqual([
      ['add_to_cart', true],
      ['checkout', true],
      ['expert_agent', false],
    ]);
    expect(lines[2]).toMatchObject({ args: { task: TASK }, ret: 'task completed' });
  });

  it('Claude Code was told which app an expert runs, found its commands gone, and got the expert’s answer through Bash', () => {
    const system = JSON.stringify(a2a.fake.requests[0]!.body.system);
    expect(system).toContain('shopping (run by its expert agent');
    expect(readRequest('anthropic', a2a.fake.requests[0]!.body).tools).toEqual(['Bash']);
    const [help, expert] = bashCalls(a2a);
    expect(help!.result).toMatch(/No such command/);
    expect([expert!.command, expert!.result]).toEqual([EXPERT, expect.stringContaining('task completed')]);
  });

  it('the app agent was served through the gateway as role app_agent, with its own key, which is in no file of the run', () => {
    expect(appAgent.requests.length).toBeGreaterThan(2);
    for (const q of appAgent.requests) expect(q.headers.authorization).toBe(`Bearer ${A2A_KEY}`);
    const roles = jsonLines(artifact(a2a.dir, 'model_traffic.jsonl')).map((l) => l.role);
    expect(roles.filter((x) => x === 'app_agent')).toHaveLength(appAgent.requests.length);
    expect(roles.filter((x) => x === 'agent')).toHaveLength(a2a.fake.requests.length);
    const files = (readdirSync(a2a.dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]).filter((e) => e.isFile());
    for (const f of files) {
      const text = readFileSync(join(f.parentPath, f.name), 'utf8');
      expect(text.includes(A2A_KEY) || text.includes(a2a.key), f.name).toBe(false);
    }
  });
});
