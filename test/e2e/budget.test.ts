// Budgets end to end (issue T, item 4): our LLM agent in a real container plays a scenario
// against a scripted Anthropic-format provider whose every answer bills 1,100 tokens, through
// the model gateway. With a cap of 2,000 tokens per scenario run, the third call is refused by
// the gateway (it never reaches the provider) and the run ends as a judged failure with reason
// `budget`; with the same cap for the whole run, the first scenario ends the same way and the
// second never starts (exit 3: --retry runs it).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { planFromDatasetFlags, planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan, type ExecuteOutcome } from '../../runner/src/orchestrator/index.js';
import type { RunPlan } from '../../runner/src/plan/plan.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm/index.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { TEST_LABEL } from './helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'BUDGET_E2E_API_KEY';
const hostEnv = { [KEY_VAR]: 'sk-budget-e2e-0123456789abcdef' };
const SCENARIO = 'execution/exec_shopping_bottle_order.json';
const common = { image, runtime: 'podman', adapterPort: '8090', timeout: '180', healthTimeout: '60', activityTimeout: '120', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', agent: 'default', provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKeyEnv: KEY_VAR } as const;

/** The oracle's play, each answer billing 1,000 input and 100 output tokens. */
function fakeProvider(): Promise<FakeLlm> {
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  const script = scriptFor(play, 'functions').map((item) => ({ ...(item as FakeReply), usage: { input: 1000, output: 100 } }));
  expect(script.length).toBeGreaterThanOrEqual(3); // the cap (2 calls) must cut the play short
  return startFakeLlm({ format: 'anthropic', script });
}

async function execute(engine: UnitBackend, plan: RunPlan, logs: string[]): Promise<ExecuteOutcome> {
  const ds = await resolveDataset(plan.target, { env: hostEnv });
  return executePlan(plan, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log: (l) => void logs.push(l) },
    runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, env: { ...o.env, GAIA2_AGENT_TOOLS: 'functions' }, labels: { ...o.labels, ...TEST_LABEL } }),
  });
}

let engine: UnitBackend;
const fakes: FakeLlm[] = [];
let perRun: { outcome: ExecuteOutcome; fake: FakeLlm; out: string; logs: string[] };
let whole: { outcome: ExecuteOutcome; fake: FakeLlm; out: string; logs: string[] };

beforeAll(async () => {
  engine = await connectEngine();
  const [a, b] = await Promise.all([fakeProvider(), fakeProvider()]);
  fakes.push(a!, b!);
  const outA = join(mkdtempSync(join(tmpdir(), 'gaia2-budget-e2e-')), 'out');
  const data = mkdtempSync(join(tmpdir(), 'gaia2-budget-e2e-data-'));
  for (const f of [SCENARIO, 'search/search_email_flight_code.json']) {
    mkdirSync(join(data, f.split('/')[0]!), { recursive: true });
    writeFileSync(join(data, f), readFileSync(join(root, 'examples/scenarios', f)));
  }
  const outB = join(mkdtempSync(join(tmpdir(), 'gaia2-budget-e2e-')), 'out');
  const logsA: string[] = [];
  const logsB: string[] = [];
  const [oa, ob] = await Promise.all([
    execute(engine, planFromRunFlags({ ...common, scenario: join(root, 'examples/scenarios', SCENARIO), baseUrl: a!.url, outputDir: outA, maxRunTokens: '2000' }, hostEnv), logsA),
    execute(engine, planFromDatasetFlags({ ...common, dataset: data, concurrency: '1', passAt: '1', revision: 'main', baseUrl: b!.url, outputDir: outB, totalMaxTokens: '2000' }, hostEnv), logsB),
  ]);
  perRun = { outcome: oa, fake: a!, out: outA, logs: logsA };
  whole = { outcome: ob, fake: b!, out: outB, logs: logsB };
}, 400_000);

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await engine?.close();
});

const resultFile = (out: string, id: string): ScenarioResult => {
  const files = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ScenarioResult);
  return files.find((r) => r.scenario_id === id)!;
};

describe('budgets, enforced by the model gateway (real container, fake provider)', () => {
  it('a scenario run over [run].max_tokens: the call past the cap never reaches the provider, the run is a judged failure (budget)', () => {
    const [r] = perRun.outcome.results;
    expect(perRun.fake.requests).toHaveLength(2); // 1,100 then 2,200 tokens: the third call is refused
    expect(r).toMatchObject({ status: 'fail', success: false, budget_exceeded: { limit: 'max_tokens', cap: 2000, spent: 2200 } });
    expect(r!.failure_reasons).toEqual([expect.stringMatching(/^Budget: this scenario run spent 2200 tokens .*\[run\]\.max_tokens = 2000/)]);
    expect(r!.error_kind).toBeUndefined();
    expect(perRun.outcome.report.overall).toMatchObject({ runs: 1, failed: 1, errors: 0 });
    expect(resultFile(perRun.out, 'exec_shopping_bottle_order').budget_exceeded).toEqual(r!.budget_exceeded);
    const cfg = JSON.parse(readFileSync(join(perRun.out, 'run_config.json'), 'utf8'));
    expect(cfg.run_options.budget).toEqual({ max_cost_usd: null, max_tokens: 2000, total_max_cost_usd: null, total_max_tokens: null });
  });

  it('the whole run over [run].total_max_tokens: that run ends (budget), no new one starts, and the outcome says why', () => {
    expect(whole.fake.requests, JSON.stringify([whole.outcome.results.map((r) => [r.scenario_id, r.status, r.error]), whole.logs])).toHaveLength(2);
    const results = whole.outcome.results;
    expect(results.map((r) => r.scenario_id)).toEqual(['exec_shopping_bottle_order']); // the search scenario never started
    expect(results[0]).toMatchObject({ status: 'fail', budget_exceeded: { limit: 'total_max_tokens', cap: 2000, spent: 2200 } });
    expect(whole.outcome.notStarted).toMatch(/^Budget: the whole run spent 2200 tokens/);
    expect(whole.logs.join('\n')).toMatch(/no new scenario run starts; the runs in flight finish\. Raise the cap and resume with --retry/);
  });
});
