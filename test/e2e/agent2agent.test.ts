// Agent2Agent through real containers: a scripted main agent hands the whole shopping task to
// the Shopping app's expert agent (`shopping expert-agent --task …`), whose model is a
// scripted provider on the host's 127.0.0.1 reached through the runner's loopback relay. The
// app agent plays the oracle's actions as function calls; the judge sees them as the agent's
// actions and passes the run. The same with a wrong discount code fails judging.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventsJsonl, type ScenarioResult } from '@gaia2/contract';
import { planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { call, say, startFakeLlm, type FakeLlm, type FakeScriptItem } from '../helpers/fake-llm/index.js';
import { SHELL_TOOL_NAME } from '../../agent-image/src/agents/default/shell-tool.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { runPlanInContainer } from './helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
const KEY_VAR = 'A2A_E2E_KEY';
const CANARY = 'sk-a2a-e2e-canary-3f9d1c';
const TASK = 'Order two of the black 750ml water bottles and use the discount code HYDRATE5 at checkout.';

/** The app agent plays the oracle's Shopping actions, then answers like ARE's app agents are asked to. */
function appAgentScript(p: typeof play): FakeScriptItem[] {
  return [...scriptFor(p, 'functions').slice(0, -1), say('task completed')];
}
const wrongPlay = {
  ...play,
  // Three bottles instead of two: the app accepts it, the judge does not (quantity).
  actions: play.actions.map((a) => (a.command.fn === 'add_to_cart' ? { ...a, args: { ...a.args, quantity: 3 } } : a)),
};

interface A2aRun {
  result: ScenarioResult;
  dir: string;
  fake: FakeLlm;
  /** The main agent's provider, when the main agent is the LLM agent. */
  main: FakeLlm | null;
}

let engine: UnitBackend;
const runs = new Map<string, A2aRun>();

const MAIN_KEY_VAR = 'A2A_E2E_MAIN_KEY';
const MAIN_KEY = 'sk-a2a-e2e-main-7c21';
// What a curious model runs first: every process environment it can read (the daemon's holds the app agents' key).
const ENV_PROBE = "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -E 'KEY|^HOME=|^GAIA2_A2A' | sort -u";
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * One run: the main agent is scripted (GAIA2_SCRIPT) or, with `mainScript`, the built-in LLM
 * agent in shell mode on its own scripted provider; the app agent always has `script`.
 */
async function runA2a(name: string, script: FakeScriptItem[], mainScript?: FakeScriptItem[]): Promise<A2aRun> {
  const fake = await startFakeLlm({ format: 'openai-chat', script });
  const main = mainScript ? await startFakeLlm({ format: 'anthropic', script: mainScript }) : null;
  const work = mkdtempSync(join(tmpdir(), 'gaia2-a2a-e2e-'));
  const scriptFile = join(work, 'main-agent.json');
  writeFileSync(scriptFile, JSON.stringify([{ commands: [['shopping', 'expert-agent', '--task', TASK]], reply: play.reply }]));
  const mainAgent = main
    ? { agent: 'default' as const, provider: 'anthropic', model: 'fake-main', baseUrl: main.url, apiKeyEnv: MAIN_KEY_VAR, tools: 'shell' as const }
    : { agent: 'scripted' as const, script: scriptFile };
  const plan = planFromRunFlags(
    {
      scenario,
      image,
      ...mainAgent,
      runtime: 'podman',
      adapterPort: '8090',
      timeout: '180',
      healthTimeout: '60',
      activityTimeout: '120',
      thinking: 'off',
      logLevel: 'INFO',
      notificationMode: 'message',
      network: 'bridge',
      a2aAppProp: '1',
      a2aProvider: 'openai-compat',
      a2aModel: 'fake-app-agent',
      a2aBaseUrl: fake.url,
      a2aApiKeyEnv: KEY_VAR,
    },
    { [KEY_VAR]: CANARY, [MAIN_KEY_VAR]: MAIN_KEY },
  );
  try {
    const { result } = await runPlanInContainer(engine, plan, { outputDir: join(work, 'out'), runId: `a2a-e2e-${process.pid}-${name}` });
    return { result, dir: join(work, 'out'), fake, main };
  } finally {
    await fake.close();
    await main?.close();
  }
}

beforeAll(async () => {
  engine = await connectEngine();
  runs.set('pass', await runA2a('pass', appAgentScript(play)));
  runs.set('wrong', await runA2a('wrong', appAgentScript(wrongPlay)));
  runs.set('llm', await runA2a('llm', appAgentScript(play), [
    call(SHELL_TOOL_NAME, { command: ENV_PROBE }),
    call(SHELL_TOOL_NAME, { command: 'shopping add-to-cart --help' }),
    call(SHELL_TOOL_NAME, { command: `shopping expert-agent --task ${shellQuote(TASK)}` }),
    say(play.reply),
  ]));
}, 900_000);

afterAll(async () => {
  await engine?.close();
});

describe('Agent2Agent (real containers, scripted main agent, scripted app agent)', () => {
  it("passes when the app agent does the oracle's work; the judge counts its actions as the agent's", () => {
    const { result, dir, fake } = runs.get('pass')!;
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(fake.requests).toHaveLength(play.actions.length + 1);
    const lines = parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8')).filter((l) => l.app !== 'AgentUserInterface');
    expect(lines.map((l) => [l.fn, l.w])).toEqual([
      ['add_to_cart', true],
      ['checkout', true],
      ['expert_agent', false],
    ]);
    expect(lines[2]).toMatchObject({ args: { task: TASK }, ret: 'task completed' });
    expect(result.daemon_status?.app_agents).toEqual(['Shopping']);
  });

  it("records the app agent's conversation, tagged, without its key", () => {
    const { dir, fake } = runs.get('pass')!;
    const text = readFileSync(join(dir, 'app_agents_trace.jsonl'), 'utf8');
    const trace = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(trace).toHaveLength(fake.requests.length);
    expect(trace.map((l) => l.app_agent)).toEqual(trace.map(() => ({ call: 1, app: 'Shopping', cli: 'shopping' })));
    expect(trace[0].request.messages[1].content).toContain(`Message: ${TASK}`);
    expect(text).not.toContain(CANARY);
    // The key reached the provider (the app agent authenticated) but nothing on disk.
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(readFileSync(join(dir, 'result.json'), 'utf8')).not.toContain(CANARY);
  });

  it('fails judging when the app agent gets an argument wrong', () => {
    const { result, dir } = runs.get('wrong')!;
    expect(result.status).toBe('fail');
    expect(result.success).toBe(false);
    expect(result.failure_reasons?.join('\n')).toMatch(/Cannot match ShoppingApp__add_to_cart.*quantity/s);
    const added = parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8')).find((l) => l.fn === 'add_to_cart');
    expect(added?.args).toMatchObject({ quantity: 3 });
  });

  it('an LLM main agent in shell mode reaches the app only through its expert agent, and never sees its key', () => {
    const { result, main, fake } = runs.get('llm')!;
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(fake.requests).toHaveLength(play.actions.length + 1);
    const toolResults = (i: number): string => JSON.stringify(main!.requests[i]!.body.messages.at(-1));
    // The probe ran (it read the agent's own environment) but found neither key nor the a2a settings.
    expect(toolResults(1)).toContain('HOME=/home/agent');
    expect(toolResults(1)).not.toContain(CANARY);
    expect(toolResults(1)).not.toContain('GAIA2_A2A');
    // The app's own commands are gone for the main agent; the expert's answer comes back as the output.
    expect(toolResults(2)).toMatch(/No such command/);
    expect(toolResults(3)).toContain('task completed');
    // The system prompt says which app is operated by an expert agent.
    expect(JSON.stringify(main!.requests[0]!.body.system)).toMatch(/`shopping`: Shopping \(operated by its expert agent/);
  });
});
