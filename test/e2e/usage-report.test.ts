// Tokens and cost end to end, through real containers and `run`'s own path (executePlan):
// the LLM agent against a scripted Anthropic-format provider that reports cache reads and
// writes, and a scripted agent judged by an LLM judge on an OpenAI-compatible provider. The
// report's figures must equal the sums of the traces the containers wrote, and the traces
// must equal what the provider said it billed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import REAL from '../fixtures/usage/real-results.json' with { type: 'json' };
import type { RunUsage, ScenarioResult } from '@gaia2/contract';
import { planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import type { Report } from '../../runner/src/report/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { buildRun } from '../../runner/src/viewer/build/run.js';
import { say, startFakeLlm, type FakeReply, type FakeScriptItem } from '../helpers/fake-llm/index.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { TEST_LABEL } from './helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'USAGE_E2E_API_KEY';
const KEY = 'sk-usage-e2e-0123456789abcdef';
const AGENT_MODEL = 'claude-sonnet-4-20250514'; // in the price table: 3 / 15 / 0.30 / 3.75 per MTok
const JUDGE_MODEL = 'judge-model-without-a-price';

interface Sums {
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What the trace file's lines state, summed (the figures a report must reproduce). */
function traceSums(file: string): Sums {
  const s: Sums = { calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const u = (JSON.parse(line) as { usage: Record<string, number> | null }).usage;
    s.calls++;
    if (!u) continue;
    s.input += u.input_tokens!;
    s.output += u.output_tokens!;
    s.cacheRead += u.cache_read_tokens!;
    s.cacheWrite += u.cache_write_tokens!;
  }
  return s;
}

interface Done {
  out: string;
  result: ScenarioResult;
  report: Report;
  reportMd: string;
  scenarioDir: string;
}

type RunFlags = Parameters<typeof planFromRunFlags>[0];

async function runPlan(engine: UnitBackend, flags: Partial<RunFlags> & { scenario: string }, env: Record<string, string> = {}): Promise<Done> {
  const out = join(mkdtempSync(join(tmpdir(), 'gaia2-usage-e2e-')), 'out');
  const hostEnv = { [KEY_VAR]: KEY };
  const plan = planFromRunFlags(
    { image, runtime: 'podman', adapterPort: '8090', timeout: '180', healthTimeout: '60', activityTimeout: '120', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', outputDir: out, ...flags },
    hostEnv,
  );
  const ds = await resolveDataset(plan.target, { env: hostEnv });
  const outcome = await executePlan(plan, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log() {} },
    runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, env: { ...o.env, ...env }, labels: { ...o.labels, ...TEST_LABEL } }),
  });
  const result = outcome.results[0]!;
  const scenarioDir = dirname(readdirSync(out, { recursive: true, encoding: 'utf8' }).map((f) => join(out, f)).find((f) => f.endsWith('/result.json'))!);
  return { out, result, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report, reportMd: readFileSync(join(out, 'report.md'), 'utf8'), scenarioDir };
}

let engine: UnitBackend;
let agentRun: Done;
let judgeRun: Done;
let agentScript: FakeReply[];

beforeAll(async () => {
  engine = await connectEngine();
  // The LLM agent plays the oracle of a one-turn scenario; every answer reports its own usage.
  const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  agentScript = scriptFor(play, 'functions').map((item, i) => ({ ...(item as FakeReply), usage: { input: 200 + i, output: 30 + 7 * i, cacheRead: 1000 * i, cacheWrite: i === 0 ? 1500 : 40 } }));
  const agentFake = await startFakeLlm({ format: 'anthropic', script: agentScript });
  // A scripted agent whose reworded chat message needs the LLM judge (an OpenAI-compatible one).
  const judgeFake = await startFakeLlm({ format: 'openai-chat', script: [] as FakeScriptItem[], fallback: say('Verdict: [[Success]] / [[True]]', { usage: { input: 900, output: 12, cacheRead: 512 } }) });
  const kenji = '+819055553412';
  const judgedScript = [
    { commands: [['chats', 'send-message', '--user-id', kenji, '--content', 'Hello Kenji - is 2pm today still fine for our sync?']], reply: "I asked Kenji whether 14:00 still works; I'll adjust once he answers." },
    {
      commands: [
        ['calendar', 'delete-event', '--event-id', '418a3a83b10a5f26fb14f2e92decb19d'],
        ['calendar', 'add-event', '--title', 'Sync with Kenji', '--start-datetime', '2025-10-10 10:00:00', '--end-datetime', '2025-10-10 10:30:00', '--attendees', '["Kenji Watanabe"]'],
        ['chats', 'send-message', '--user-id', kenji, '--content', 'Done - I moved our sync to tomorrow 10:00-10:30.'],
      ],
      reply: 'Kenji proposed tomorrow 10:00-10:30; I moved the event and confirmed with him.',
    },
  ];
  const scriptFile = join(mkdtempSync(join(tmpdir(), 'gaia2-usage-e2e-script-')), 'script.json');
  writeFileSync(scriptFile, JSON.stringify(judgedScript));
  try {
    [agentRun, judgeRun] = await Promise.all([
      runPlan(engine, { scenario, agent: 'default', provider: 'anthropic', model: AGENT_MODEL, apiKeyEnv: KEY_VAR, baseUrl: agentFake.url }, { GAIA2_AGENT_TOOLS: 'functions' }),
      runPlan(
        engine,
        {
          scenario: join(root, 'examples/scenarios/adaptability/adapt_chats_kenji_sync.json'),
          agent: 'scripted',
          script: scriptFile,
          judgeModel: JUDGE_MODEL,
          judgeProvider: 'openai-compat',
          judgeBaseUrl: judgeFake.url,
          judgeApiKeyEnv: KEY_VAR,
        },
        { GAIA2_SCRIPT: JSON.stringify(judgedScript) },
      ),
    ]);
  } finally {
    await agentFake.close();
    await judgeFake.close();
  }
}, 400_000);

afterAll(async () => {
  await engine?.close();
});

describe('tokens and cost from real runs (real containers, fake providers)', () => {
  it('the agent trace states what the provider billed, call by call', () => {
    expect(agentRun.result.status).toBe('pass');
    const t = traceSums(join(agentRun.scenarioDir, 'trace.jsonl'));
    expect(t.calls).toBe(agentScript.length);
    const billed = agentScript.map((s) => s.usage!);
    // Anthropic's input_tokens leaves cached input out; the trace counts every input token.
    expect(t.input).toBe(billed.reduce((n, u) => n + u.input + u.cacheRead! + u.cacheWrite!, 0));
    expect(t.output).toBe(billed.reduce((n, u) => n + u.output, 0));
    expect(t.cacheRead).toBe(billed.reduce((n, u) => n + u.cacheRead!, 0));
    expect(t.cacheWrite).toBe(billed.reduce((n, u) => n + u.cacheWrite!, 0));
  });

  it('result.json and report.json carry the trace sums for the agent, and the cost at the table price', () => {
    const t = traceSums(join(agentRun.scenarioDir, 'trace.jsonl'));
    const usage = agentRun.result.usage as RunUsage;
    // The run went through the model gateway: its record, with the same per-call usage, is the source.
    expect(usage.agent).toEqual({ model: AGENT_MODEL, source: 'gateway', llm_calls: t.calls, input_tokens: t.input, output_tokens: t.output, cache_read_tokens: t.cacheRead, cache_write_tokens: t.cacheWrite });
    expect(usage.judge).toBeUndefined();
    const onDisk = JSON.parse(readFileSync(join(agentRun.scenarioDir, 'result.json'), 'utf8')) as ScenarioResult;
    expect(onDisk.usage).toEqual(usage);
    const a = agentRun.report.overall.usage.agent;
    expect(a).toEqual({ input: t.input, output: t.output, cache_read: t.cacheRead, cache_write: t.cacheWrite, llm_calls: t.calls, runs: 1 });
    expect(agentRun.report.splits.execution!.usage.agent).toEqual(a);
    const fresh = t.input - t.cacheRead - t.cacheWrite;
    const cost = (fresh * 3 + t.cacheRead * 0.3 + t.cacheWrite * 3.75 + t.output * 15) / 1e6;
    expect(agentRun.report.overall.usage.cost.agent.usd).toBeCloseTo(cost, 12);
    expect(agentRun.report.overall.usage.cost.total_usd).toBeCloseTo(cost, 12);
    expect(agentRun.reportMd).toContain(`| **overall** | agent | 1 | ${t.calls} | ${t.input.toLocaleString('en-US')} | ${t.cacheRead.toLocaleString('en-US')} | ${t.cacheWrite.toLocaleString('en-US')} | ${t.output.toLocaleString('en-US')} | $${cost.toFixed(4)} |`);
  });

  it('the judge is billed apart from its own trace; an unpriced model shows tokens and no cost', () => {
    expect(judgeRun.result.status).toBe('pass');
    const t = traceSums(join(judgeRun.scenarioDir, 'judge_trace.jsonl'));
    expect(t.calls).toBeGreaterThan(0);
    expect(t.input).toBe(t.calls * (900 + 512));
    const usage = judgeRun.result.usage as RunUsage;
    expect(usage.agent).toBeUndefined(); // the scripted agent calls no LLM
    expect(usage.judge).toEqual({ model: JUDGE_MODEL, source: 'gateway', llm_calls: t.calls, input_tokens: t.input, output_tokens: t.output, cache_read_tokens: t.cacheRead, cache_write_tokens: 0 });
    const j = judgeRun.report.overall.usage;
    expect(j.judge).toMatchObject({ input: t.input, output: t.output, cache_read: t.cacheRead, llm_calls: t.calls, runs: 1 });
    expect(j.agent.runs).toBe(0);
    expect(j.cost.judge).toEqual({ usd: null, priced_runs: 0, unpriced_models: [JUDGE_MODEL] });
    expect(j.cost.total_usd).toBeNull();
    expect(judgeRun.reportMd).toContain(`unknown (no price for ${JUDGE_MODEL})`);
  });

  it('the dashboard rows show the same tokens and cost (judge tokens apart)', () => {
    const [agentRow] = buildRun(agentRun.out, { incremental: false, threads: 1 }).rows;
    const a = agentRun.report.overall.usage;
    expect(agentRow).toMatchObject({ llmCalls: a.agent.llm_calls, tokensIn: a.agent.input, tokensOut: a.agent.output, judgeTokensIn: 0 });
    expect(agentRow!.costUsd).toBeCloseTo(a.cost.total_usd!, 12);
    const [judgedRow] = buildRun(judgeRun.out, { incremental: false, threads: 1 }).rows;
    const j = judgeRun.report.overall.usage;
    expect(judgedRow).toMatchObject({ tokensIn: 0, judgeTokensIn: j.judge.input, judgeTokensOut: j.judge.output, costUsd: null });
  });

  it("the unit tests' usage fixture is what these real runs write (test/fixtures/usage/real-results.json)", () => {
    expect(agentRun.result.usage).toEqual(REAL.llm_agent.usage);
    expect((agentRun.result.daemon_status as { usage?: unknown }).usage).toEqual(REAL.llm_agent.daemon_status_usage);
    expect(judgeRun.result.usage).toEqual(REAL.judged_by_llm.usage);
  });

  it('run_config.json names the exact image (id and context hash) the engine ran', () => {
    const rec = JSON.parse(readFileSync(join(agentRun.out, 'run_config.json'), 'utf8'));
    const inspect = (fmt: string) => execFileSync('podman', ['image', 'inspect', image, '--format', fmt], { encoding: 'utf8' }).trim();
    expect(rec.image).toBe(image);
    expect(String(rec.image_id).replace(/^sha256:/, '')).toBe(inspect('{{.Id}}'));
    expect(rec.image_context_hash).toBe(inspect('{{index .Labels "gaia2.context-hash"}}'));
    expect(rec.image_context_hash).toMatch(/^[0-9a-f]{16,}$/);
    expect(rec.agent_options).toMatchObject({ provider: 'anthropic', model: AGENT_MODEL, api_key_env: KEY_VAR });
  });
});
