// The model gateway end to end: real containers, real HTTP, our own `default` agent and the
// judge against doubles of the providers' wire formats on the host's loopback, through the
// runner's own path (executePlan). It proves that the provider key never reaches the engine
// (create bodies, environment, files, labels) nor the run's files while the doubles receive it;
// that a provider admitting one request at a time costs time, not runs; that a provider that
// always refuses ends a run with a typed error in bounded time; that the traffic record's usage
// is what the double billed; and that a finished pass@2 run replays with no provider at all,
// with the same verdicts and judged events.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../agent-image/src/contract/index.js';
import { planFromDatasetFlags, type DatasetFlags } from '../../runner/src/config/cli-flags.js';
import type { RunPlan } from '../../runner/src/plan/plan.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, type UnitBackend, type ContainerSpec } from '../../runner/src/engine/index.js';
import { maskVolatile, TRAFFIC_FILE, type TrafficLine } from '../../runner/src/gateway/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan, type ExecuteOutcome } from '../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { oraclePlay } from './helpers/oracle-llm-script.js';
import { phaseModel, type PhaseCase } from './helpers/phase-model.js';
import { TEST_LABEL } from './helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'GATEWAY_E2E_KEY';
const CANARY = 'sk-gateway-e2e-CANARY-7f3a9c1e5d';
const golden = (id: string, f: string) => oraclePlay(join(root, 'test/fixtures/golden/cases', id, `${f}.events.jsonl`));
const bottle = golden('exec_shopping_bottle_order', 'oracle');
const flight = golden('search_email_flight_code', 'with_reads');
const CASES: PhaseCase[] = [
  { task: 'Order two of the black 750ml Insulated Steel Bottles', ...bottle, expert: { cli: 'shopping', task: '-', actions: [], answer: '-' } },
  { task: 'booking confirmation code for my Lisbon flight', ...flight, expert: { cli: 'emails', task: '-', actions: [], answer: '-' } },
];

/** An engine that keeps every create request it was given (what the engine receives). */
function spying(engine: UnitBackend, specs: ContainerSpec[]): UnitBackend {
  return new Proxy(engine, {
    get(target, prop, recv) {
      if (prop === 'create') return (spec: ContainerSpec) => (specs.push(spec), target.create(spec));
      const v = Reflect.get(target, prop, recv);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

function subset(ids: Record<string, string[]>): string {
  const f = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-subset-')), 'subset.json');
  writeFileSync(f, JSON.stringify({ name: 'gateway', splits: ids }));
  return f;
}

function plan(out: string, f: Partial<DatasetFlags>): RunPlan {
  return planFromDatasetFlags(
    {
      dataset: join(root, 'examples/scenarios'), image, runtime: 'podman', adapterPort: '8090', timeout: '300', healthTimeout: '60', activityTimeout: '240',
      thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', outputDir: out, concurrency: '1', passAt: '1', revision: 'main',
      agent: 'default', provider: 'openai-compat', model: 'fake-gateway', apiKeyEnv: KEY_VAR, tools: 'shell', ...f,
    } as DatasetFlags,
    { [KEY_VAR]: CANARY },
  );
}

async function execute(engine: UnitBackend, p: RunPlan, logs: string[] = []): Promise<ExecuteOutcome> {
  const hostEnv = { [KEY_VAR]: CANARY };
  const ds = await resolveDataset(p.target, { env: hostEnv });
  return executePlan(p, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log: (l) => void logs.push(l) },
    runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, labels: { ...o.labels, ...TEST_LABEL } }),
    gatewayBackoff: { baseDelayMs: 200, maxDelayMs: 2000 },
  });
}

/** Every file under a directory, as text. */
function allFiles(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8', withFileTypes: false })
    .map((f) => join(dir, f))
    .filter((f) => {
      try {
        return readFileSync(f) && true;
      } catch {
        return false;
      }
    })
    .map((f) => ({ path: relative(dir, f), text: readFileSync(f, 'utf8') }));
}

const resultsOf = (out: string): Map<string, ScenarioResult> =>
  new Map(
    readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('result.json') && !f.includes('.attempts'))
      .map((f) => [dirname(f), JSON.parse(readFileSync(join(out, f), 'utf8')) as ScenarioResult]),
  );

/**
 * The judged events of a run: app calls with their arguments and results, without clock
 * stamps and with the ids apps mint at random masked (as the replay's matching masks them).
 */
function judgedEvents(dir: string): unknown[] {
  return readFileSync(join(dir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { t: _t, sim_t: _s, wall_t: _w, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return maskVolatile(rest);
    });
}

const traffic = (dir: string): TrafficLine[] =>
  readFileSync(join(dir, TRAFFIC_FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TrafficLine);

let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

describe('model gateway: keys stay out, record, replay (pass@2, agent and LLM judge)', () => {
  const specs: ContainerSpec[] = [];
  let model: FakeLlm;
  let judge: FakeLlm;
  let first: ExecuteOutcome;
  let replayed: ExecuteOutcome;
  let out1: string;
  let out2: string;
  const logs: string[] = [];

  beforeAll(async () => {
    model = await startFakeLlm({ format: 'openai-chat', respond: phaseModel(CASES) });
    judge = await startFakeLlm({ format: 'anthropic', fallback: say('Verdict: [[Success]] / [[True]]', { usage: { input: 900, output: 12 } }) });
    const work = mkdtempSync(join(tmpdir(), 'gaia2-gw-e2e-'));
    out1 = join(work, 'run');
    out2 = join(work, 'replay');
    const flags = {
      subset: subset({ execution: ['exec_shopping_bottle_order'], search: ['search_email_flight_code'] }),
      baseUrl: model.url, passAt: '2', concurrency: '2',
      judgeProvider: 'anthropic', judgeModel: 'claude-judge-fake', judgeBaseUrl: judge.url, judgeApiKeyEnv: KEY_VAR,
    };
    try {
      first = await execute(spying(engine, specs), plan(out1, flags), logs);
    } finally {
      await model.close();
      await judge.close();
    }
    // The doubles are gone: a replay must not need them.
    replayed = await execute(engine, plan(out2, { ...flags, replay: out1 }), logs);
  }, 900_000);

  it('every run passes, through the gateway', () => {
    expect(first.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    const cfg = JSON.parse(readFileSync(join(out1, 'run_1', 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway.mode).toBe('gateway');
    expect(cfg.model_gateway.upstreams.map((u: { provider: string; roles: string[] }) => [u.provider, u.roles])).toEqual([['anthropic', ['judge']], ['openai-compat', ['agent']]]);
  });

  it('the canary key reached the doubles and nothing the engine received: create bodies, env, files, labels', () => {
    expect(model.requests.length).toBeGreaterThan(0);
    for (const r of model.requests) expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
    for (const r of judge.requests) expect(r.headers['x-api-key']).toBe(CANARY);
    expect(specs).toHaveLength(4);
    for (const s of specs) {
      expect(JSON.stringify(s)).not.toContain(CANARY);
      for (const f of s.files ?? []) expect(Buffer.from(f.content).toString('utf8')).not.toContain(CANARY);
      // Each container holds its own tokens and the gateway's URL instead.
      expect(s.env.API_KEY).toMatch(/^g2gw-/);
      expect(s.env.GAIA2_JUDGE_API_KEY).toMatch(/^g2gw-/);
      expect(s.env.BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/openai-compat\/v1$/);
    }
    expect(new Set(specs.map((s) => s.env.API_KEY)).size).toBe(4);
  });

  it('the canary is in no file of the run, nor in any log line', () => {
    for (const out of [out1, out2]) for (const f of allFiles(out)) expect(f.text.includes(CANARY), f.path).toBe(false);
    expect(logs.join('\n')).not.toContain(CANARY);
  });

  it("the record holds every request by role; its usage is what the doubles billed, and it is result.json's usage", () => {
    const lines = [...resultsOf(out1).keys()].flatMap((k) => traffic(join(out1, k)));
    const agent = lines.filter((l) => l.role === 'agent');
    const judged = lines.filter((l) => l.role === 'judge');
    expect(agent).toHaveLength(model.requests.length);
    expect(judged).toHaveLength(judge.requests.length);
    const sum = (ls: TrafficLine[], k: 'input_tokens' | 'output_tokens') => ls.reduce((n, l) => n + (l.usage?.[k] ?? 0), 0);
    expect(sum(agent, 'input_tokens')).toBe(model.billed.reduce((n, u) => n + u.input + (u.cacheRead ?? 0), 0));
    expect(sum(agent, 'output_tokens')).toBe(model.billed.reduce((n, u) => n + u.output, 0));
    expect(sum(judged, 'input_tokens')).toBe(judge.billed.reduce((n, u) => n + u.input, 0));
    for (const [k, r] of resultsOf(out1)) {
      const mine = traffic(join(out1, k));
      expect(r.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: mine.filter((l) => l.role === 'agent').length });
    }
    // One clock with the world's events (their wall_t): every app action and reply falls
    // between the model calls, after the call that asked for it, never inside a call.
    for (const k of resultsOf(out1).keys()) {
      const dir = join(out1, k);
      const ev = readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { wall_t: number; fn: string });
      const calls = traffic(dir).filter((l) => l.role === 'agent').sort((x, y) => x.t - y.t);
      expect(ev.length).toBeGreaterThan(0);
      for (const e of ev) {
        expect(typeof e.wall_t).toBe('number');
        expect(calls.some((c) => e.wall_t > c.t && e.wall_t < c.t_end), `${k} ${e.fn} inside a model call`).toBe(false);
        // The user's task is there before the model is asked; every action comes after an answer.
        if (e.fn === 'send_message_to_agent') expect(e.wall_t).toBeLessThan(calls[0]!.t);
        else expect(e.wall_t).toBeGreaterThan(calls[0]!.t_end);
      }
      expect(ev.at(-1)!.wall_t).toBeGreaterThan(calls.at(-1)!.t_end); // the reply follows the last call
    }
  });

  it('the replay with no provider gives the same verdicts and the same judged events', () => {
    const a = resultsOf(out1);
    const b = resultsOf(out2);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, r] of a) {
      expect([k, b.get(k)!.status, b.get(k)!.success]).toEqual([k, r.status, r.success]);
      expect(judgedEvents(join(out2, k))).toEqual(judgedEvents(join(out1, k)));
    }
    const cfg = JSON.parse(readFileSync(join(out2, 'run_1', 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway).toMatchObject({ mode: 'replay', replay_of: out1 });
    expect(replayed.report.model_gateway).toMatchObject({ replayed: replayed.report.model_gateway!.requests });
  });
});

describe('model gateway: a provider that admits one request at a time', () => {
  it('six runs at -j 6 against a provider answering one request at a time in 3 s: zero errors', async () => {
    const model = await startFakeLlm({ format: 'openai-chat', admit: { concurrent: 1, retryAfter: 1 }, respond: (r) => ({ ...phaseModel(CASES)(r), delayMs: 3000 }) });
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-busy-')), 'run');
    try {
      const o = await execute(engine, plan(out, { subset: subset({ execution: ['exec_shopping_bottle_order'] }), baseUrl: model.url, passAt: '6', concurrency: '6', timeout: '600', activityTimeout: '600' }));
      expect(o.results.map((r) => `${r.status}${r.error_kind ? `:${r.error_kind}` : ''}`)).toEqual(Array(6).fill('pass'));
      expect(model.refusals()).toBeGreaterThan(0); // it did refuse: the gateway absorbed it
      expect(o.report.model_gateway).toMatchObject({ gave_up: 0, throttled: model.refusals() });
    } finally {
      await model.close();
    }
  }, 600_000);

  it('a provider that always refuses ends the run with a typed provider_error naming provider and status, in bounded time', async () => {
    const model = await startFakeLlm({ format: 'openai-chat', fallback: { status: 429, retryAfter: 0, message: 'quota exceeded' } });
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-refuse-')), 'run');
    const p = plan(out, { subset: subset({ execution: ['exec_shopping_bottle_order'] }), baseUrl: model.url });
    p.gateway = { ...p.gateway!, retryAttempts: 4 };
    const t0 = Date.now();
    try {
      const o = await execute(engine, p);
      const [r] = o.results;
      expect(r!.status).toBe('error');
      expect(r!.error_kind).toBe('provider_error');
      expect(r!.error).toMatch(/provider openai-compat answered HTTP 429 \(rate_limit\) on all 4 attempt/);
      // The gateway's final answer is not retried again by the agent: one give-up, four attempts.
      expect(model.requests).toHaveLength(4);
      expect(Date.now() - t0).toBeLessThan(120_000);
    } finally {
      await model.close();
    }
  }, 300_000);
});
