import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { LABELS } from '../../../runner/src/engine/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { metaLines, readReportMeta } from '../../../runner/src/report/meta.js';
import { buildRun } from '../../../runner/src/viewer/build/run.js';
import { fakeEngine, fakeRuns, localPlan, recordingProgress, type FakeRunOptions, type Outcome } from './fakes.js';

let root: string;
let data: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'orch-'));
  data = join(root, 'data');
  writeScenario(join(data, 'search/s_a.json'), 's_a');
  writeScenario(join(data, 'search/s_b.json'), 's_b');
  writeScenario(join(data, 'time/t_a.json'), 't_a');
});

const plan = (run: Partial<RunPlan['run']> = {}): RunPlan => localPlan(data, join(root, 'out'), run);

type ExecOptions = { signal?: AbortSignal; hostEnv?: Record<string, string> } & FakeRunOptions;
async function exec(p: RunPlan, decide: (id: string, run: number, attempt: number) => Outcome, o: ExecOptions = {}) {
  const engine = o.engine ?? fakeEngine();
  const runs = fakeRuns(decide, { ms: o.ms, engine, cleanupMs: o.cleanupMs, onCleanupRun: o.onCleanupRun });
  const progress = recordingProgress();
  const ds = await resolveDataset(p.target, { env: {} });
  const outcome = await executePlan(p, ds, { engine, runScenario: runs.fn, progress, hostEnv: o.hostEnv ?? {}, signal: o.signal });
  return { outcome, runs, progress, engine };
}

const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8'));
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('files into the containers', () => {
  it('the host CA bundle (GAIA2_CA_BUNDLE) is put into every container with the variables pointing at it', async () => {
    const ca = join(root, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nabc\n');
    const { runs } = await exec(plan(), () => 'pass', { hostEnv: { GAIA2_CA_BUNDLE: ca } });
    expect(runs.calls).toHaveLength(3);
    for (const c of runs.calls) {
      expect(c.files).toEqual([{ path: '/etc/ssl/certs/gaia2-host-ca-bundle.crt', content: '-----BEGIN CERTIFICATE-----\nabc\n' }]);
      expect(c.env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/gaia2-host-ca-bundle.crt');
    }
  });
});

describe('pass@N queue', () => {
  it('interleaves (scenario, run) pairs run-major in one bounded queue and lays out run_k dirs', async () => {
    const { outcome, runs, progress } = await exec(plan({ passAt: 3, concurrency: 2 }), () => 'pass');
    expect(runs.calls).toHaveLength(9);
    expect(runs.maxInFlight).toBe(2);
    expect(runs.calls.slice(0, 3).every((c) => c.runIndex === 1)).toBe(true);
    expect(runs.calls.map((c) => c.runIndex)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
    expect(progress.total).toBe(9);
    const out = join(root, 'out');
    for (let k = 1; k <= 3; k++) {
      expect(readJson(join(out, `run_${k}/search/s_a/result.json`)).run_index).toBe(k);
      expect(readJson(join(out, `run_${k}/run_config.json`))).toMatchObject({ run_number: k, total_runs: 3, num_scenarios: 3, agent: { name: 'oracle', version: expect.stringMatching(/^\d+\.\d+\.\d+/) }, judge_options: null, run_options: { pass_at: 3 } });
      expect(lines(join(out, `run_${k}/results.jsonl`))).toHaveLength(3);
    }
    expect(lines(join(out, 'results.jsonl'))).toHaveLength(9);
    expect(existsSync(join(out, 'run_config.json'))).toBe(false);
    expect(outcome.report.overall).toMatchObject({ runs: 9, passed: 9, errors: 0 });
    // Each run's usage (the shape of a real result.json) is summed into the report.
    expect(outcome.report.overall.usage.agent).toMatchObject({ input: 9 * 5183, output: 9 * 111, llm_calls: 9 * 3, runs: 9 });
    expect(outcome.report.splits.time!.usage.agent.runs).toBe(3);
    expect(readJson(join(out, 'report.json')).num_runs).toBe(3);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('pass^3');
    // every container carries the run id label
    expect(new Set(runs.calls.map((c) => c.labels[LABELS.runId]))).toEqual(new Set([outcome.runId]));
    expect(runs.calls[0]!.split).toBe('search');
  });

  it('results.jsonl on disk holds every finished run at any moment (crash safety)', async () => {
    const seen: number[] = [];
    const out = join(root, 'out');
    await exec(plan({ concurrency: 1 }), () => {
      seen.push(existsSync(join(out, 'results.jsonl')) ? lines(join(out, 'results.jsonl')).length : 0);
      return 'pass';
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(readdirSync(out).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('fills judge_mode "hard-only" into judged results when no judge LLM is configured', async () => {
    await exec(plan(), (id) => (id === 's_a' ? 'pass' : 'fail'));
    expect(readJson(join(root, 'out/search/s_a/result.json')).judge_mode).toBe('hard-only');
  });

  it('a run function that throws becomes a typed internal_error result on disk', async () => {
    const { outcome, progress } = await exec(plan(), (id) => (id === 's_b' ? 'throw' : 'pass'));
    expect(readJson(join(root, 'out/search/s_b/result.json'))).toMatchObject({ status: 'error', error_kind: 'internal_error', success: null });
    expect(outcome.report.overall.errors_by_kind).toEqual({ internal_error: 1 });
    expect(progress.lines.join('\n')).toContain('crashed');
  });
});

describe('retry', () => {
  it('reruns only infrastructure errors, never benchmark failures; merges results.jsonl; archives the old attempt', async () => {
    const first = await exec(plan(), (id) => (id === 's_a' ? 'pass' : id === 's_b' ? 'fail' : { status: 'error', kind: 'health_timeout' }));
    expect(first.outcome.report.overall).toMatchObject({ passed: 1, failed: 1, errors: 1 });
    const second = await exec(plan({ retry: true }), () => 'pass');
    expect(second.runs.calls.map((c) => c.scenarioFile.replace(/^.*\//, ''))).toEqual(['t_a.json']);
    expect(second.outcome).toMatchObject({ ran: 1, kept: 2 });
    const out = join(root, 'out');
    expect(readJson(join(out, 'search/s_b/result.json')).status).toBe('fail');
    expect(readJson(join(out, 'time/t_a/result.json')).status).toBe('pass');
    expect(lines(join(out, 'results.jsonl')).map((r) => r.status)).toEqual(['pass', 'fail', 'pass']);
    expect(second.outcome.report.overall).toMatchObject({ passed: 2, failed: 1, errors: 0 });
    // stale files of the failed attempt are moved aside, not mixed with the new ones
    expect(readdirSync(join(out, 'time/t_a')).sort()).toEqual(['artifact-attempt-1.txt', 'result.json']);
    expect(readdirSync(join(out, 'time/.attempts/t_a'))).toHaveLength(1);
    const rc = readJson(join(out, 'run_config.json'));
    expect(rc).toMatchObject({ num_scenarios: 3, retry_num_scenarios: 1 });
    expect(rc.resumed_at).toBeTypeOf('string');
  });

  it('raising pass_at with --retry runs only the new runs', async () => {
    await exec(plan({ passAt: 2 }), () => 'pass');
    const { runs } = await exec(plan({ passAt: 4, retry: true }), () => 'fail');
    expect(runs.calls.map((c) => c.runIndex)).toEqual([3, 3, 3, 4, 4, 4]);
    const r = readJson(join(root, 'out/report.json'));
    expect(r.overall).toMatchObject({ runs: 12, passed: 6, failed: 6 });
    expect(r.overall.pass_at_k['4'].value).toBe(1);
    expect(r.overall.pass_hat_k['4'].value).toBe(0);
  });

  it('--retry without an existing output dir is a usage error', async () => {
    await expect(exec(plan({ retry: true }), () => 'pass')).rejects.toThrow(/--retry requires --output-dir pointing to an existing run/);
  });
});

describe('interruption', () => {
  it('Ctrl-C: nothing new starts, this run’s containers are removed, finished results stay; --retry completes the rest', async () => {
    const ac = new AbortController();
    const engine = fakeEngine();
    const p = exec(plan({ concurrency: 2 }), (id) => {
      if (id === 's_a') ac.abort(); // Ctrl-C while s_b is still running
      return 'pass';
    }, { signal: ac.signal, ms: (id) => (id === 's_a' ? 5 : 2000), engine });
    const { outcome, runs } = await p;
    expect(outcome.interrupted).toBe(true);
    expect(runs.calls.length).toBe(2); // s_a finished, s_b interrupted mid-run, t_a never started
    expect(engine.containers).toHaveLength(0);
    const out = join(root, 'out');
    expect(readJson(join(out, 'search/s_a/result.json')).status).toBe('pass');
    expect(readJson(join(out, 'search/s_b/result.json'))).toMatchObject({ status: 'error', error_kind: 'interrupted' });
    expect(existsSync(join(out, 'time/t_a/result.json'))).toBe(false);
    const again = await exec(plan({ retry: true }), () => 'pass');
    expect(again.runs.calls.map((c) => c.scenarioFile.replace(/^.*\//, ''))).toEqual(['s_b.json', 't_a.json']);
    expect(again.outcome.report.overall).toMatchObject({ passed: 3, errors: 0 });
  });

  it('a retry removes leftover containers of the killed previous run', async () => {
    await exec(plan(), () => ({ status: 'error', kind: 'container_exited' }));
    const prevId = readJson(join(root, 'out/run_config.json')).run_id as string;
    const engine = fakeEngine();
    engine.add({ [LABELS.runId]: prevId, [LABELS.managed]: '1' }, 'leftover');
    engine.add({ [LABELS.runId]: 'someone-else', [LABELS.managed]: '1' }, 'other');
    const { progress } = await exec(plan({ retry: true }), () => 'pass', { engine });
    expect(engine.containers.map((c) => c.labels[LABELS.runId])).toEqual(['someone-else']);
    expect(progress.lines.join('\n')).toContain(`Removed 1 container(s) of run ${prevId}`);
  });
});

describe('container removal off the critical path', () => {
  it('runs each removal after the run is recorded (result.json and results.jsonl) and returns only when all are done', async () => {
    const out = join(root, 'out');
    const seen: Array<{ id: string; result: boolean; line: boolean }> = [];
    const engine = fakeEngine();
    const { outcome } = await exec(plan({ concurrency: 2 }), () => 'pass', {
      engine,
      cleanupMs: 50,
      onCleanupRun: (opts) => {
        const id = opts.scenarioFile.replace(/^.*\//, '').replace(/\.json$/, '');
        const jsonl = existsSync(join(out, 'results.jsonl')) ? lines(join(out, 'results.jsonl')) : [];
        seen.push({ id, result: existsSync(join(opts.outputDir!, 'result.json')), line: jsonl.some((r) => r.scenario_id === id) });
      },
    });
    expect(seen.map((s) => s.id).sort()).toEqual(['s_a', 's_b', 't_a']);
    expect(seen.every((s) => s.result && s.line)).toBe(true);
    expect(engine.containers).toEqual([]); // every removal finished before executePlan returned
    expect(outcome.report.overall).toMatchObject({ passed: 3 });
  });

  it('host networking on a backend without it (remote engine, cluster) is refused before anything runs, naming the backend', async () => {
    const engine = fakeEngine();
    Object.assign(engine, { capabilities: { ...engine.capabilities, hostNetwork: false }, describe: async () => ({ name: 'r', kind: 'podman', version: null, apiVersion: null, endpoint: 'tcp://10.0.0.9:2375', remote: true }) });
    await expect(exec(plan({ network: 'host' }), () => 'pass', { engine })).rejects.toThrow(/network = "host" .* not possible on the remote podman backend at tcp:\/\/10\.0\.0\.9:2375.*use network = "bridge"/);
    expect(engine.containers).toEqual([]);
    const { runs } = await exec(plan({ network: 'bridge' }), () => 'pass', { engine });
    expect(runs.calls).toHaveLength(3);
  });

  it('with host networking and one fixed port, the next run starts only once the previous container is gone', async () => {
    // How many containers exist halfway through each removal.
    const during = async (network: 'host' | 'bridge') => {
      const engine = fakeEngine();
      const seen: number[] = [];
      const { runs } = await exec(plan({ network }), () => 'pass', { engine, cleanupMs: 60, onCleanupRun: () => void setTimeout(() => seen.push(engine.containers.length), 30) });
      expect(engine.containers).toEqual([]);
      return { seen, ports: runs.calls.map((c) => c.adapterPort) };
    };
    const host = await during('host');
    expect(host.ports).toEqual([8090, 8090, 8090]);
    expect(host.seen).toEqual([1, 1, 1]); // no run overlapped a removal
    // bridge networking keeps removals in the background: the next run is already up meanwhile
    expect(Math.max(...(await during('bridge')).seen)).toBeGreaterThan(1);
  });

  it('containers a crash left behind on this output directory are removed at the next start, without --retry', async () => {
    const out = join(root, 'out');
    const engine = fakeEngine();
    const first = await exec(plan(), () => 'pass', { engine });
    // What a kill -9 during the background removals leaves: containers of that run id.
    engine.add({ [LABELS.managed]: '1', [LABELS.runId]: first.outcome.runId }, 's_a');
    engine.add({ [LABELS.managed]: '1', [LABELS.runId]: 'g2-someone-else' }, 's_b');
    expect(readJson(join(out, 'run_config.json')).run_id).toBe(first.outcome.runId);
    const second = await exec(plan(), () => 'pass', { engine });
    expect(second.progress.lines.join('\n')).toContain(`Removed 1 container(s) of run ${first.outcome.runId}`);
    expect(engine.containers.map((c) => c.labels[LABELS.runId])).toEqual(['g2-someone-else']);
  });
});

describe('upstream settings in the run record, result.json, the report header and the viewer', () => {
  it('language, judge prompt set and extra body, idle timeout: recorded, sent, and shown', async () => {
    const langRoot = join(root, 'omni', 'spa_Latn');
    for (const split of ['execution', 'search', 'ambiguity', 'adaptability']) writeScenario(join(langRoot, split, `${split}_es.json`), `${split}_es`);
    const p: RunPlan = {
      ...plan({ idleTimeout: 900 }),
      target: { kind: 'local', path: langRoot, recursive: true, splits: ['execution', 'search', 'ambiguity', 'adaptability'], subset: null, limit: null, language: 'spa_Latn' },
      judge: { provider: 'openai-compat', model: 'gpt-oss-120b', baseUrl: 'http://gpu-node-02:8001/v1', apiKey: null, promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' } },
    };
    const { runs } = await exec(p, () => 'pass');
    expect(runs.calls).toHaveLength(4);
    for (const c of runs.calls) {
      expect(c.env).toMatchObject({ GAIA2_IDLE_TIMEOUT: '900.0', GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-gaia2', GAIA2_JUDGE_EXTRA_BODY: '{"reasoning_effort":"low"}' });
      // the host watchdog waits longer than the daemon's own idle rule
      expect(c.timeouts.activitySeconds).toBe(960);
    }
    const rc = readJson(join(root, 'out/run_config.json'));
    // each value once, in its section (record/run-record.ts); no flat copy beside it
    for (const k of ['language', 'judge_prompt_version', 'judge_extra_body', 'idle_timeout', 'activity_timeout']) expect(rc, k).not.toHaveProperty(k);
    expect(rc.run_options).toMatchObject({ activity_timeout: 600 });
    expect(rc.judge_options).toMatchObject({ prompt_version: 'omnilingual-gaia2', extra_body: { reasoning_effort: 'low' } });
    expect(rc.run_options).toMatchObject({ idle_timeout: 900 });
    expect(rc.target).toMatchObject({ language: 'spa_Latn' });
    const result = readJson(join(root, 'out/search/search_es/result.json'));
    expect(result).toMatchObject({ judge_prompt_version: 'omnilingual-gaia2', judge_extra_body: { reasoning_effort: 'low' } });

    const header = metaLines(readReportMeta(join(root, 'out')));
    expect(header).toContain('Language: spa_Latn');
    expect(header).toContain('Judge: gpt-oss-120b (openai-compat), prompts omnilingual-gaia2, extra body {"reasoning_effort":"low"}');
    expect(readFileSync(join(root, 'out/report.md'), 'utf8')).toContain('Language: spa_Latn');

    buildRun(join(root, 'out'), { incremental: false, threads: 1 });
    const index = readFileSync(join(root, 'out/index.html'), 'utf8');
    expect(index).toContain('language spa_Latn');
    expect(index).toContain('judge prompts omnilingual-gaia2');
  });

  it('without them: nothing extra is sent, and the record says default prompts and no language', async () => {
    const p: RunPlan = { ...plan(), judge: { provider: 'openai-compat', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', apiKey: null } };
    const { runs } = await exec(p, () => 'pass');
    expect(runs.calls[0]!.env).not.toHaveProperty('GAIA2_IDLE_TIMEOUT');
    expect(runs.calls[0]!.env).not.toHaveProperty('GAIA2_JUDGE_PROMPT_VERSION');
    expect(runs.calls[0]!.timeouts.activitySeconds).toBe(600);
    const rc = readJson(join(root, 'out/run_config.json'));
    expect(rc).toMatchObject({ judge_options: { prompt_version: null, extra_body: null }, run_options: { idle_timeout: null } });
    expect((rc.target as { language?: string | null }).language ?? null).toBeNull();
    const result = readJson(join(root, 'out/search/s_a/result.json'));
    expect(result.judge_prompt_version).toBe('default');
    expect(result).not.toHaveProperty('judge_extra_body');
    expect(metaLines(readReportMeta(join(root, 'out'))).some((l) => l.startsWith('Language'))).toBe(false);
  });
});

describe("a third-party agent's instructions template", () => {
  it('reaches every container whole (GAIA2_AGENT_INSTRUCTIONS) and run_config.json records its path and digest, not its text', async () => {
    const p0 = plan();
    const text = 'Your tool is {{EXEC_TOOL}}.\n{{TOOL_LIST}}\n';
    const p: RunPlan = { ...p0, agent: { ...p0.agent, name: 'external', instructions: { path: '/home/u/AGENTS_TEMPLATE.md', sha256: 'ab'.repeat(32), text } } };
    // an agent layer of one's own (--agent external): its image carries the layer's labels
    const engine = fakeEngine();
    engine.images.labels = async () => ({ 'gaia2.agent.name': 'my-agent', 'gaia2.agent.version': '1.0.0' });
    const { runs } = await exec(p, () => 'pass', { engine });
    expect(runs.calls.length).toBeGreaterThan(0);
    for (const c of runs.calls) expect(c.env.GAIA2_AGENT_INSTRUCTIONS).toBe(text);
    const rc = readJson(join(root, 'out/run_config.json'));
    expect(rc.agent_options.instructions_file).toEqual({ path: '/home/u/AGENTS_TEMPLATE.md', sha256: 'ab'.repeat(32) });
    expect(JSON.stringify(rc)).not.toContain('{{TOOL_LIST}}');
  });
});
