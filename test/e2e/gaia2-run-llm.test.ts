// gaia2-run as a submission is made: the built-in LLM agent through the real CLI and real
// containers, its model a scripted OpenAI-compatible provider on the host's loopback that
// also answers as the app agents (they share the agent's model, as by default). Two sample
// scenarios, two runs each, all three phases: standard, agent2agent (every app operated by
// its expert agent) and noise (tool failures and background events, seeded); then the
// submission dataset is exported and uploaded to the Hub double.
import { readRunRecord } from '../../runner/src/record/read.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appForCli } from '../../agent-image/src/apps/catalog.js';
import { DEFAULT_TOOL_AUGMENTATION, parseEventsJsonl, type ScenarioResult } from '@gaia2/contract';
import { ToolNoise } from '../../agent-image/src/noise/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import type { PhasesReport } from '../../runner/src/phases/overall-report.js';
import type { Report } from '../../runner/src/report/index.js';
import { SUBMISSION_COLUMNS } from '../../runner/src/submission/index.js';
import { startFakeHub, type FakeHub } from '../helpers/fake-hub/index.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { oraclePlay, shellLine } from './helpers/oracle-llm-script.js';
import { INJECTED_FAILURE, phaseModel, type PhaseCase } from './helpers/phase-model.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const golden = (id: string, f: string) => oraclePlay(join(root, 'test/fixtures/golden/cases', id, `${f}.events.jsonl`));
const KEY_VAR = 'PHASES_E2E_KEY';
const KEY = 'sk-phases-e2e-canary-5b0e';
const HF_TOKEN = 'hf_phases_e2e_token_9c1d';
const REPO = 'e2e-org/gaia2-llm-submission';
const PHASES = ['standard', 'agent2agent', 'noise'] as const;

const bottle = golden('exec_shopping_bottle_order', 'oracle');
const flight = golden('search_email_flight_code', 'with_reads');
const CASES: PhaseCase[] = [
  {
    task: 'Order two of the black 750ml Insulated Steel Bottles',
    ...bottle,
    expert: { cli: 'shopping', task: 'Order two of the black 750ml water bottles and use the discount code HYDRATE5 at checkout.', actions: bottle.actions, answer: 'task completed' },
  },
  {
    task: 'booking confirmation code for my Lisbon flight',
    ...flight,
    expert: { cli: 'emails', task: 'Find the booking confirmation code of my Lisbon flight in my emails.', actions: flight.actions, answer: 'K7QX2M (flight SA 1742 on 24 October)' },
  },
];

/** A noise seed whose first add-to-cart fails at probability 0.5: the retry path runs for sure. */
const FAILURE_PROBABILITY = 0.5;
function seedFailingFirstAdd(): number {
  const add = bottle.actions.find((a) => a.command.fn === 'add_to_cart')!;
  const argv = shellLine(add).split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));
  const sc = JSON.parse(readFileSync(join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json'), 'utf8'));
  const ta = { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: FAILURE_PROBABILITY };
  return [...Array(200).keys()].find((s) => new ToolNoise({ ...ta, seed: s }, sc).draw(argv, appForCli('shopping')!) !== null)!;
}

let hub: FakeHub;
let model: FakeLlm;
let out: string;
let run: { code: number; out: string; err: string };
const seed = seedFailingFirstAdd();

beforeAll(async () => {
  hub = await startFakeHub();
  model = await startFakeLlm({ format: 'openai-chat', respond: phaseModel(CASES) });
  const work = mkdtempSync(join(tmpdir(), 'gaia2-e2e-phases-llm-'));
  out = join(work, 'run');
  const subset = join(work, 'subset.json');
  writeFileSync(subset, JSON.stringify({ name: 'phases-llm', splits: { execution: ['exec_shopping_bottle_order'], search: ['search_email_flight_code'] } }));
  const args = [
    'gaia2-run', '-d', 'examples/scenarios', '--subset', subset, '--image', image, '-j', '2', '--runs', '2', '--output-dir', out,
    '--agent', 'default', '--provider', 'openai-compat', '--model', 'fake-phases', '--base-url', model.url, '--api-key-env', KEY_VAR, '--thinking', 'off',
    '--noise-seed', String(seed), '--tool-failure-probability', String(FAILURE_PROBABILITY),
    '--hf-upload', REPO,
  ];
  // The judge hard checks only: no judge model from the caller's environment.
  const env = { ...process.env, [KEY_VAR]: KEY, HF_ENDPOINT: hub.url, HF_TOKEN, GAIA2_JUDGE_MODEL: '', GAIA2_JUDGE_PROVIDER: '' };
  try {
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env, maxBuffer: 1 << 26 });
    run = { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    run = { code: x.code, out: x.stdout, err: x.stderr };
  }
}, 900_000);

afterAll(async () => {
  await model?.close();
  await hub?.stop();
});

const readJson = <T>(...p: string[]): T => JSON.parse(readFileSync(join(out, ...p), 'utf8')) as T;
const results = (phase: string): ScenarioResult[] =>
  readFileSync(join(out, phase, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ScenarioResult);
const runDir = (phase: string, n: number, split: string, id: string) => join(out, phase, `run_${n}`, split, id);
const toArrayBuffer = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;

describe('gaia2-run with the LLM agent (real containers, scripted provider, Hub double)', () => {
  it('runs all three phases; every run of every phase is judged a pass', () => {
    expect(run.err).not.toMatch(/not run/);
    expect(run.code).toBe(0);
    for (const phase of PHASES) {
      const report = readJson<Report>(phase, 'report.json');
      expect(report.overall).toMatchObject({ scenarios: 2, runs: 4, passed: 4, failed: 0, errors: 0 });
      const rs = results(phase);
      expect(rs).toHaveLength(4);
      for (const r of rs) expect([r.scenario_id, r.status, r.success, r.error_kind ?? null]).toEqual([r.scenario_id, 'pass', true, null]);
    }
    const overall = readJson<PhasesReport>('report.json');
    expect(overall.phases.map((p) => [p.phase, p.status, p.overall?.runs])).toEqual(PHASES.map((p) => [p, 'ran', 4]));
    expect(overall.mean_success_rate).toBe(1);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    for (const p of PHASES) expect(md).toMatch(new RegExp(`\\| ${p} \\| 2 \\| 4 \\| 4 \\| 0 \\| 0 \\| 100\\.0%`));
    expect(run.out + run.err).not.toContain(KEY);
  });

  it("agent2agent: the main agent only reached the apps' expert agents, who did the work the judge saw", () => {
    for (const [split, id, cli, fns] of [
      ['execution', 'exec_shopping_bottle_order', 'shopping', ['add_to_cart', 'checkout']],
      ['search', 'search_email_flight_code', 'emails', ['search_emails', 'get_email_by_id']],
    ] as const) {
      const dir = runDir('agent2agent', 1, split, id);
      const events = parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8')).filter((e) => e.app !== 'AgentUserInterface');
      expect(events.map((e) => e.fn)).toEqual([...fns, 'expert_agent']);
      const trace = readFileSync(join(dir, 'app_agents_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(trace.map((l) => l.app_agent.cli)).toEqual(trace.map(() => cli));
      expect(trace).toHaveLength(fns.length + 1);
      expect(readFileSync(join(dir, 'app_agents_trace.jsonl'), 'utf8')).not.toContain(KEY);
      // Their calls are billed apart from the main agent's (two calls: the hand-over and the reply).
      const usage = readJson<ScenarioResult>('agent2agent', 'run_1', split, id, 'result.json').usage!;
      expect([usage.agent?.llm_calls, usage.app_agents?.llm_calls, usage.llm_calls]).toEqual([2, fns.length + 1, fns.length + 3]);
    }
    // The app agents used the agent's own provider, key included, through the loopback relay.
    const appAgentCalls = model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes("expert agent of the user's"));
    expect(appAgentCalls).toHaveLength(2 * (bottle.actions.length + 1 + flight.actions.length + 1));
    expect(new Set(appAgentCalls.map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(readJson<Report>('agent2agent', 'report.json').overall.usage.app_agents).toMatchObject({ runs: 4, llm_calls: appAgentCalls.length });
    expect(readJson<Report>('standard', 'report.json').overall.usage.app_agents.runs).toBe(0);
    // Standard and noise runs had no app agents.
    // (read through the run record's one reader: the typed record, docs/report.md)
    expect(readRunRecord(join(out, 'standard', 'run_1', 'run_config.json')).rec.agent2agent_options).toBeNull();
    expect(readRunRecord(join(out, 'agent2agent', 'run_1', 'run_config.json')).rec.agent2agent_options?.app_prop).toBe(1);
  });

  it('noise: the injected failure reached the model, the retry passed, and both runs got the same seeded plan', () => {
    const noiseOf = (n: number) => readFileSync(join(runDir('noise', n, 'execution', 'exec_shopping_bottle_order'), 'noise.jsonl'), 'utf8').trim().split('\n');
    const [one, two] = [noiseOf(1), noiseOf(2)];
    const records = one.map((l) => JSON.parse(l) as { kind: string; tool?: string; settings?: { tool_augmentation: { seed: number } } });
    expect(records[0]).toMatchObject({ kind: 'settings', settings: { tool_augmentation: { seed, tool_failure_probability: FAILURE_PROBABILITY } } });
    expect(records.filter((r) => r.kind === 'tool_failure').map((r) => r.tool)).toContain('Shopping__add_to_cart');
    expect(records.filter((r) => r.kind === 'env_event').length).toBeGreaterThan(0);
    // Same seed, same plan: the settings and planned background events repeat byte for byte.
    const plan = (lines: string[]) => lines.filter((l) => /"kind":\s*"(settings|env_event)"/.test(l));
    expect(plan(two)).toEqual(plan(one));
    const events = parseEventsJsonl(readFileSync(join(runDir('noise', 1, 'execution', 'exec_shopping_bottle_order'), 'events.jsonl'), 'utf8'));
    expect(events.filter((e) => e.fn === 'add_to_cart')).toHaveLength(1);
    const sawFailure = model.requests.some((r) => INJECTED_FAILURE.test(JSON.stringify(r.body.messages?.at(-1))));
    expect(sawFailure).toBe(true);
    // The standard phase ran without noise.
    expect(() => readFileSync(join(runDir('standard', 1, 'execution', 'exec_shopping_bottle_order'), 'noise.jsonl'))).toThrow();
  });

  it('exports the leaderboard dataset and uploads it, private, to the Hub double', async () => {
    const configs = ['execution', 'search', 'execution_a2a', 'search_a2a', 'execution_noise', 'search_noise'];
    const parquet = configs.map((c) => `${c}/validation-00000-of-00001.parquet`);
    expect(run.out).toMatch(/Submission: .* 12 rows, 12 successful/);
    expect(hub.repos.get(REPO)).toEqual({ private: true, type: 'dataset' });
    const commits = hub.commits.filter((c) => c.repo === REPO);
    expect(commits).toHaveLength(1);
    expect(commits[0]!.files.map((f) => f.path).sort()).toEqual([...parquet, 'README.md', 'computed_stats.json'].sort());
    expect(commits[0]!.files.filter((f) => f.via === 'lfs').map((f) => f.path).sort()).toEqual([...parquet].sort());
    expect(hub.authHeaders.every((h) => h === `Bearer ${HF_TOKEN}`)).toBe(true);
    for (const [i, c] of configs.entries()) {
      const uploaded = hub.getFile(REPO, parquet[i]!)!;
      expect(uploaded.equals(readFileSync(join(out, 'submission', parquet[i]!)))).toBe(true);
      const file = toArrayBuffer(uploaded);
      const cols = parquetSchema(parquetMetadata(file)).children.map((x) => x.element.name);
      expect(cols).toEqual(SUBMISSION_COLUMNS.map(([n]) => n));
      const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
      const phase = c.endsWith('_a2a') ? 'agent2agent' : c.endsWith('_noise') ? 'noise' : 'standard';
      expect(rows.map((r) => r.run_number).sort()).toEqual([1n, 2n]);
      for (const r of rows) {
        expect(r).toMatchObject({ status: 'success', score: 1, phase_name: phase, config: c.replace(/_(a2a|noise)$/, ''), has_exception: false });
        expect(r).toMatchObject({ a2a_app_prop: phase === 'agent2agent' ? 1 : 0, has_app_noise: phase === 'noise', has_env_noise: phase === 'noise' });
        // The row's data carries the run's files, the app agents' side in agent2agent.
        const files = Object.keys((JSON.parse(String(r.data)) as { files: Record<string, string> }).files);
        expect(files.includes('app_agents_trace.jsonl')).toBe(phase === 'agent2agent');
        expect(files.includes('noise.jsonl')).toBe(phase === 'noise');
        expect(String(r.data)).not.toContain(KEY);
        expect(String(r.run_config)).not.toContain(KEY);
      }
    }
    const stats = JSON.parse(hub.getFile(REPO, 'computed_stats.json')!.toString('utf8'));
    expect(stats).toMatchObject({ rows: 12, success: 12, success_rate: 1 });
    expect(hub.getFile(REPO, 'README.md')!.toString('utf8')).toMatch(/config_name: "search_a2a"/);
  });
});
