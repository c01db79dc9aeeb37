// Agent2Agent from a TOML config through the orchestrator, as `gaia2-runner run-config` runs
// it: [agent2agent] → plan → container env (relayed loopback endpoint, key by name) → results,
// run_config.json, and a viewer page that nests the app agent's conversation — all from a
// real container run with a scripted main agent and a scripted app-agent provider.
import { readRunRecord } from '../../runner/src/record/read.js';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { buildViewer } from '../../runner/src/viewer/index.js';
import { runTomlConfig } from './helpers/run-toml.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
const KEY = 'sk-a2a-config-canary-51d0';
const TASK = 'Order two of the black 750ml water bottles with the code HYDRATE5.';

let engine: UnitBackend;
let fake: FakeLlm;
let out: string;
let result: ScenarioResult;
let env: Record<string, string> = {};

beforeAll(async () => {
  engine = await connectEngine();
  fake = await startFakeLlm({ format: 'openai-chat', script: [...scriptFor(play, 'functions').slice(0, -1), say('task completed')] });
  const work = mkdtempSync(join(tmpdir(), 'gaia2-a2a-config-'));
  mkdirSync(join(work, 'data', 'execution'), { recursive: true });
  cpSync(join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json'), join(work, 'data', 'execution', 'exec_shopping_bottle_order.json'));
  writeFileSync(join(work, 'main.json'), JSON.stringify([{ commands: [['shopping', 'expert-agent', '--task', TASK]], reply: play.reply }]));
  out = join(work, 'out');
  const hostEnv = { A2A_CONFIG_KEY: KEY };
  ({ result, env } = await runTomlConfig(engine, join(work, 'a2a.toml'), [
    '[target]',
    'dataset_root = "data"',
    '[agent]',
    `image = "${image}"`,
    'name = "scripted"',
    'script = "main.json"',
    '[agent2agent]',
    'app_prop = 1',
    'provider = "openai-compat"',
    'model = "fake-app-agent"',
    `base_url = "${fake.url}"`,
    'api_key_env = "A2A_CONFIG_KEY"',
    '[run]',
    'output_dir = "out"',
    'timeout = 180',
    'health_timeout = 60',
  ], hostEnv));
  await buildViewer(out);
}, 600_000);

afterAll(async () => {
  await fake?.close();
  await engine?.close();
});

/** The scenario's output directory: the one holding trace.html. */
function scenarioDir(dir: string): string {
  const page = (readdirSync(dir, { recursive: true }) as string[]).find((p) => p.endsWith('trace.html'));
  if (!page) throw new Error(`no trace.html under ${dir}`);
  return join(dir, page, '..');
}

describe('Agent2Agent through run-config (real container)', () => {
  it('passes, with the app agent reached through the relayed endpoint and its key by name', () => {
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(JSON.parse(env.GAIA2_A2A!)).toMatchObject({ app_prop: 1, provider: 'openai-compat', model: 'fake-app-agent' });
    // Through the run's model gateway (docs/gateway.md): its URL and a token, the key stays on the host.
    expect(env.GAIA2_A2A_BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/openai-compat\/v1$/);
    expect(env.GAIA2_A2A_API_KEY).toMatch(/^g2gw-/);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('records the settings in run_config.json and results.jsonl without the key', () => {
    expect(readRunRecord(join(out, 'run_config.json')).rec.agent2agent_options).toMatchObject({ app_prop: 1, seed: null, provider: 'openai-compat', model: 'fake-app-agent' });
    for (const f of ['run_config.json', 'results.jsonl']) expect(readFileSync(join(out, f), 'utf8')).not.toContain(KEY);
    const line = JSON.parse(readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n')[0]!);
    expect(line.daemon_status.app_agents).toEqual(['Shopping']);
  });

  it("the trace page nests the app agent's conversation under the expert_agent event", () => {
    const html = readFileSync(join(scenarioDir(out), 'trace.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const hosts = data.items.filter((i: { appAgents?: unknown[] }) => i.appAgents?.length);
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({ k: 'event', fn: 'expert_agent' });
    const agent = hosts[0].appAgents[0];
    expect(agent).toMatchObject({ call: 1, app: 'Shopping', cli: 'shopping', task: TASK, answer: 'task completed', llmCalls: play.actions.length + 1 });
    expect(agent.items.filter((i: { k: string }) => i.k === 'tool').map((i: { name: string }) => i.name)).toEqual(['shopping__add_to_cart', 'shopping__checkout']);
  });
});
