// Issue F acceptance through real containers: the built-in LLM agent (GAIA2_AGENT=default)
// talks to a scripted provider on the host's 127.0.0.1, which the bridged container reaches
// only through the runner's loopback relay (runner/src/net). The script plays the golden
// oracle of a one-turn scenario as tool calls and a final reply, in every wire format, both
// tool modes, streaming and not; plus a wrong argument, a 429 retry, a 401, and a secret canary.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventsJsonl, type ScenarioResult } from '@gaia2/contract';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { GATEWAY_DEFAULTS } from '../../runner/src/plan/gateway.js';
import type { RunPlan } from '../../runner/src/plan/plan.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { call, fail, startFakeLlm, type FakeFormat, type FakeLlm } from '../helpers/fake-llm/index.js';
import { SHELL_TOOL_NAME } from '../../agent-image/src/agents/default/shell-tool.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { KEY_VAR, planFor, runWithFakeLlm, TEST_LABEL, type LlmRun, type LlmRunCase } from './helpers/llm-run.js';
import { agentTurns } from './helpers/turns.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const goldenEvents = join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl');
const CANARY = `sk-llm-e2e-canary-${randomBytes(8).toString('hex')}`;
const play = oraclePlay(goldenEvents);

// The wrong-argument script: the discount code in lower case (the app accepts it, the judge
// does not: eq_checker on discount_code).
const wrongPlay = {
  ...play,
  actions: play.actions.map((a) => (a.command.fn === 'checkout' ? { ...a, args: { ...a.args, discount_code: 'hydrate5' } } : a)),
};

const ENV_PROBE = "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -E 'KEY|^HOME=' | sort -u";

const CASES: Record<string, LlmRunCase> = {
  // Without the relay the alias points at the gateway, where nothing listens (first: it waits out the agent's retries).
  'anthropic/shell/plain without relay': { format: 'anthropic', tools: 'shell', stream: false, script: scriptFor(play, 'shell'), relay: false },
  'openai-responses/functions/stream': { format: 'openai-responses', tools: 'functions', stream: true, script: scriptFor(play, 'functions') },
  // The model first tries to read every process environment it can see, the agent's included.
  'anthropic/shell/stream': { format: 'anthropic', tools: 'shell', stream: true, script: [call(SHELL_TOOL_NAME, { command: ENV_PROBE }), ...scriptFor(play, 'shell')] },
  'gemini/functions/plain': { format: 'gemini', tools: 'functions', stream: false, script: scriptFor(play, 'functions') },
  'openai-chat/functions/stream': { format: 'openai-chat', tools: 'functions', stream: true, script: scriptFor(play, 'functions') },
  'anthropic/functions/plain wrong argument': { format: 'anthropic', tools: 'functions', stream: false, script: scriptFor(wrongPlay, 'functions') },
  'openai-responses/shell/plain 429 then success': {
    format: 'openai-responses',
    tools: 'shell',
    stream: false,
    script: [fail(429, 0), ...scriptFor(play, 'shell')],
  },
  'gemini/shell/stream 401': { format: 'gemini', tools: 'shell', stream: true, script: [fail(401)] },
};

let engine: UnitBackend;
const runs = new Map<string, LlmRun>();
// openai-chat, shell, not streaming: through the orchestrator, as `gaia2-runner run` does it.
let viaRunner: { result: ScenarioResult; dir: string; fake: FakeLlm; env: Record<string, string>; lines: string[] } | null = null;

async function runThroughOrchestrator(): Promise<void> {
  const fake = await startFakeLlm({ format: 'openai-chat' as FakeFormat, script: scriptFor(play, 'shell') });
  try {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-llm-e2e-runner-')), 'out');
    // Direct mode (the key in the container, reached through a relay): the path reference images
    // and `--no-gateway` take. The gateway's own path is test/e2e/gateway.test.ts.
    const plan: RunPlan = { ...planFor('openai-chat', fake.url, scenario, image, CANARY, out), gateway: { ...GATEWAY_DEFAULTS, mode: 'off' } };
    const hostEnv = { [KEY_VAR]: CANARY };
    const ds = await resolveDataset(plan.target, { env: hostEnv });
    let env: Record<string, string> = {};
    const lines: string[] = [];
    const outcome = await executePlan(plan, ds, {
      engine,
      hostEnv,
      progress: { start() {}, done() {}, stop() {}, log: (l) => void lines.push(l) },
      runScenario: (o: ScenarioRunOptions) => {
        env = o.env;
        return runScenario({ ...o, labels: { ...o.labels, ...TEST_LABEL } });
      },
    });
    viaRunner = { result: outcome.results[0]!, dir: out, fake, env, lines };
  } finally {
    await fake.close();
  }
}

// Every process on this machine (the runner's children, podman's, and the containers'
// processes, which are host processes too), sampled while the runs go on.
const psSamples: string[] = [];
function samplePs(): () => void {
  const timer = setInterval(() => {
    try {
      psSamples.push(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }));
    } catch {
      /* ps briefly unavailable: skip this sample */
    }
  }, 250);
  return () => clearInterval(timer);
}

beforeAll(async () => {
  engine = await connectEngine();
  const stopPs = samplePs();
  const queue = Object.entries(CASES);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) runs.set(next[0], await runWithFakeLlm(engine, image, scenario, CANARY, next[1]));
  };
  await Promise.all([worker(), worker(), runThroughOrchestrator().then(worker)]).finally(stopPs);
});

afterAll(async () => {
  await engine?.close();
});

function allFiles(d: string): string[] {
  return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? allFiles(join(d, n)) : [join(d, n)]));
}

const traceOf = (dir: string) =>
  readFileSync(join(dir, 'trace.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { http_status: number; attempt?: number; url: string });

function expectOracleActions(dir: string): void {
  const ours = agentTurns(parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8')));
  const theirs = agentTurns(parseEventsJsonl(readFileSync(goldenEvents, 'utf8')));
  expect(ours).toEqual(theirs);
}

describe('LLM agent against a scripted provider on host loopback (real containers)', () => {
  it('run through the orchestrator in direct mode (gateway off; openai chat-completions, shell, not streaming) passes via the relay', () => {
    const r = viaRunner!;
    expect(r.result.error ?? r.result.failure_reasons ?? null).toBeNull();
    expect(r.result.status).toBe('pass');
    // The container saw the alias on a relay port, not the fake's own loopback port.
    expect(r.env.BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/v1$/);
    expect(r.env.BASE_URL).not.toContain(`:${r.fake.port}/`);
    const relayPort = /:(\d+)\/v1$/.exec(r.env.BASE_URL!)![1];
    expect(r.lines.join('\n')).toMatch(new RegExp(`Relaying BASE_URL \\(host 127\\.0\\.0\\.1:${r.fake.port}\\) for bridged containers via [\\d.]+:${relayPort}`));
    expect(r.fake.requests.length).toBe(play.actions.length + 1);
    expect(r.fake.requests.every((q) => q.path === '/v1/chat/completions' && !q.stream)).toBe(true);
    expect(r.fake.requests[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
    const line = readFileSync(join(r.dir, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(line).toHaveLength(1);
    expect(JSON.parse(line[0]!).status).toBe('pass');
    expectOracleActions(join(r.dir, 'exec_shopping_bottle_order'));
  });

  it.each(Object.keys(CASES).filter((k) => !/wrong|401|429|without relay/.test(k)))('%s passes with the oracle’s actions', (name) => {
    const { result, dir, fake, containerBaseUrl } = runs.get(name)!;
    const c = CASES[name]!;
    expect(result.error ?? result.failure_reasons ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(containerBaseUrl).toContain('host.containers.internal');
    expect(fake.requests).toHaveLength(c.script.length);
    expect(fake.requests.every((q) => q.stream === c.stream)).toBe(true);
    expectOracleActions(dir);
  });

  it('both tool modes used the tools they were given', () => {
    const shell = runs.get('anthropic/shell/stream')!.fake.requests[0]!.body as { tools: Array<{ name: string }> };
    const fns = runs.get('openai-chat/functions/stream')!.fake.requests[0]!.body as { tools: Array<{ function: { name: string } }> };
    expect(shell.tools.map((t) => t.name)).toContain('shell');
    expect(fns.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['shopping__add_to_cart', 'shopping__checkout']));
    expect(fns.tools.map((t) => t.function.name)).not.toContain('shell');
  });

  it('a wrong argument fails with a failure reason naming the mismatch', () => {
    const { result } = runs.get('anthropic/functions/plain wrong argument')!;
    expect(result.status).toBe('fail');
    expect(result.success).toBe(false);
    expect(result.failure_reasons?.join('\n')).toMatch(/checkout/);
  });

  it('429 then success passes, with the retry in trace.jsonl', () => {
    const { result, dir } = runs.get('openai-responses/shell/plain 429 then success')!;
    expect(result.status).toBe('pass');
    const trace = traceOf(dir);
    expect(trace[0]).toMatchObject({ http_status: 429, attempt: 1 });
    expect(trace[1]).toMatchObject({ http_status: 200, attempt: 2 });
    expect(trace.filter((t) => t.http_status === 200)).toHaveLength(play.actions.length + 1);
  });

  it('401 ends the run quickly, not retried, with the provider error as the reply', () => {
    const { result, dir, fake } = runs.get('gemini/shell/stream 401')!;
    expect(result.timed_out).toBeUndefined();
    expect(result.duration_seconds as number).toBeLessThan(30);
    expect(fake.requests).toHaveLength(1); // 401 is never retried
    expect(traceOf(dir).map((t) => t.http_status)).toEqual([401]);
    // A failed run is not an answer: no reply line, the error text is in the result.
    expect(readFileSync(join(dir, 'agent_response.txt'), 'utf8')).toBe('');
    expect(result.error).toMatch(/provider_error.*401/s);
  });

  it('401 is reported as status error, error_kind provider_error (not judged as a model failure)', () => {
    const { result } = runs.get('gemini/shell/stream 401')!;
    expect({ status: result.status, error_kind: result.error_kind }).toEqual({ status: 'error', error_kind: 'provider_error' });
  });

  it('without the relay the provider is unreachable from the container (negative control)', () => {
    const { result, fake, dir } = runs.get('anthropic/shell/plain without relay')!;
    expect(fake.requests).toHaveLength(0);
    expect(result.status).not.toBe('pass');
    expect(traceOf(dir).every((t) => t.http_status === 0)).toBe(true);
  });

  it("the model's shell cannot read the API key from any process environment", () => {
    const { fake } = runs.get('anthropic/shell/stream')!;
    const probeAnswer = JSON.stringify(fake.requests[1]!.body);
    expect(probeAnswer).toContain('HOME=/home/agent'); // the probe ran and read environments
    for (const q of fake.requests) expect(JSON.stringify(q.body)).not.toContain(CANARY);
  });

  it('the canary API key never appears in the argv of any process while the runs go on', () => {
    expect(psSamples.length).toBeGreaterThan(10);
    expect(psSamples.some((p) => p.includes('gaia2d'))).toBe(true); // containers' processes were seen
    for (const p of psSamples) expect(p).not.toContain(CANARY);
  });

  it('the canary API key reached the provider but is in no output file', () => {
    const dirs = [...[...runs.values()].map((r) => r.dir), viaRunner!.dir];
    const seen = runs.get('anthropic/shell/stream')!.fake.requests[0]!.headers['x-api-key'];
    expect(seen).toBe(CANARY);
    const files = dirs.flatMap(allFiles);
    expect(files.some((f) => f.endsWith('trace.jsonl'))).toBe(true);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(CANARY);
  });

  it('leaves no test container behind', async () => {
    expect(await engine.listByLabels(TEST_LABEL)).toEqual([]);
  });
});
