// run_config.json is a complete record: a run can be repeated from it alone, with the same
// configuration, and it names the runner, engine, image, dataset revision and scenarios.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromDatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { planFromRunRecord } from '../../../runner/src/config/from-run-record.js';
import { readRunRecord } from '../../../runner/src/record/index.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, recordingProgress } from '../orchestrator/fakes.js';
import { runCliInProcess } from './in-process-cli.js';
import { OUR_IMAGE_FEATURES } from '@gaia2/contract/features';

const root = join(import.meta.dirname, '..', '..', '..');

function setup(extra: Record<string, string | boolean> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rerun-'));
  writeScenario(join(dir, 'data/search/s_a.json'), 's_a');
  writeScenario(join(dir, 'data/time/t_a.json'), 't_a');
  writeFileSync(join(dir, 'script.json'), '[]');
  const env = { AGENT_KEY_VAR: 'sk-agent-secret-123456', JUDGE_KEY_VAR: 'sk-judge-secret-654321' };
  const plan = planFromDatasetFlags(
    {
      dataset: join(dir, 'data'), revision: 'main', concurrency: '2', passAt: '2', outputDir: join(dir, 'out'), splits: 'search,time',
      image: 'localhost/gaia2-agent:test', agent: 'default', runtime: 'podman', adapterPort: '8091', timeout: '300', healthTimeout: '45', activityTimeout: '200',
      provider: 'anthropic', model: 'claude-sonnet-4', apiKeyEnv: 'AGENT_KEY_VAR', baseUrl: 'http://127.0.0.1:9/v1', thinking: 'medium', tools: 'functions', maxTokens: '4096',
      logLevel: 'DEBUG', notificationMode: 'native', network: 'bridge', timeSpeed: '2.5', errorsAsFailures: true,
      judgeProvider: 'openai', judgeModel: 'gpt-4.1', judgeApiKeyEnv: 'JUDGE_KEY_VAR', judgeBaseUrl: 'https://judge.example/v1',
      ...extra,
    },
    env,
  );
  return { dir, env, plan };
}

async function runWithFakes(plan: ReturnType<typeof setup>['plan'], env: Record<string, string>) {
  const engine = fakeEngine();
  // A built image's labels and id, as the engine reports them.
  Object.assign(engine.images, { labels: async () => ({ 'gaia2.context-hash': 'ctx-0123abcd', 'gaia2.features': OUR_IMAGE_FEATURES }), id: async () => 'sha256:feedbeef' });
  const ds = await resolveDataset(plan.target, { env });
  await executePlan(plan, ds, { engine, runScenario: fakeRuns(() => 'pass').fn, progress: recordingProgress(), hostEnv: env });
}

describe('run_config.json: the complete run record', () => {
  it('holds every option (no secret), the runner, engine, image and scenario hashes', async () => {
    const { dir, env, plan } = setup();
    await runWithFakes(plan, env);
    const text = readFileSync(join(dir, 'out/run_1/run_config.json'), 'utf8');
    expect(text).not.toContain('sk-agent-secret');
    expect(text).not.toContain('sk-judge-secret');
    const rec = JSON.parse(text);
    expect(rec.agent_options).toMatchObject({ provider: 'anthropic', thinking: 'medium', tools: 'functions', max_tokens: 4096, api_key_env: 'AGENT_KEY_VAR', base_url: 'http://127.0.0.1:9/v1' });
    expect(rec.judge_options).toEqual({ provider: 'openai', model: 'gpt-4.1', base_url: 'https://judge.example/v1', api_key_env: 'JUDGE_KEY_VAR', api_key: null, prompt_version: null, extra_body: null });
    expect(rec.run_options).toMatchObject({ notification_mode: 'native', time_speed: 2.5, log_level: 'DEBUG', pass_at: 2, concurrency: 2, adapter_port: 8091, errors_as_failures: true });
    expect({ image: rec.image, id: rec.image_id, hash: rec.image_context_hash }).toEqual({ image: 'localhost/gaia2-agent:test', id: 'sha256:feedbeef', hash: 'ctx-0123abcd' });
    expect(rec.engine).toEqual({ name: 'fake', kind: 'fake', version: null, apiVersion: null, endpoint: 'fake://', remote: false });
    expect(rec.runner.version).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    // The checkout's commit; null where the sources are not a git checkout (e.g. an unpacked tarball).
    let head: string | null = null;
    try {
      head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      head = null;
    }
    expect(rec.runner.git_commit).toBe(head);
    const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
    expect(rec.scenario_hashes).toEqual({ 'search/s_a': sha(join(dir, 'data/search/s_a.json')), 'time/t_a': sha(join(dir, 'data/time/t_a.json')) });
    expect(rec.seeds).toBeNull();
  });

  it('rerunning from run_config.json alone gives the same configuration', async () => {
    const { dir, env, plan } = setup();
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out')); // a pass@N root: the record of run_1
    const again = planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') });
    expect(again).toEqual(plan);
    // Through the command: the printed plan is the original's but for the output directory.
    const cli = await runCliInProcess(['rerun', join(dir, 'out'), '--output-dir', join(dir, 'again'), '--dry-run'], dir, env);
    expect(cli.code).toBe(0);
    expect(cli.out).toContain('claude-sonnet-4');
    const same = await runCliInProcess(['rerun', join(dir, 'out'), '--output-dir', join(dir, 'out')], dir, env);
    expect(same.code).toBe(2);
    expect(same.err).toContain('--output-dir must differ from the recorded run');
  });

  it('the reference judge settings and idle timeout are rerun as they were', async () => {
    const { dir, env, plan } = setup({ judgePromptVersion: 'omnilingual-gaia2', judgeExtraBody: '{"reasoning_effort":"low"}', idleTimeout: '600' });
    expect(plan.judge).toMatchObject({ promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' } });
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out'));
    const again = planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') });
    expect(again).toEqual(plan);
    expect(again.run.idleTimeout).toBe(600);
  });

  it('a run on a Kubernetes cluster is repeated on the same cluster settings, not on the local engine', async () => {
    // Direct mode: the in-cluster gateway needs a cluster (test/e2e/kubernetes-gateway.test.ts); the record is the point here.
    const { dir, env, plan } = setup({ gateway: false });
    const backend: RunPlan['run']['backend'] = {
      kind: 'kubernetes', kubeconfig: join(dir, 'kubeconfig'), context: 'lab', namespace: 'eval', imagePullPolicy: 'Always', pendingTimeout: 300,
      resources: { requests: { cpu: '1' }, limits: { memory: '2Gi' } }, nodeSelector: { pool: 'eval' }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      serviceAccount: 'gaia2-runner', labels: { team: 'agents' }, unsealedFallback: true,
    };
    plan.run.backend = backend;
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out'));
    expect(JSON.stringify(rec)).not.toContain('sk-agent-secret');
    expect(planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') }).run.backend).toEqual(plan.run.backend);
  });

  it('an Agent2Agent run is repeated with the same app-agent settings', async () => {
    const { dir, env, plan } = setup({ a2aAppProp: '0.5', a2aSeed: '7', a2aModel: 'claude-haiku-4' });
    expect(plan.agent2agent).toMatchObject({ appProp: 0.5, seed: 7, model: 'claude-haiku-4' });
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out'));
    expect(JSON.stringify(rec)).not.toContain('sk-agent-secret');
    expect(planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') })).toEqual(plan);
  });

  it('a Noise-phase run is repeated with the same noise settings', async () => {
    const { dir, env, plan } = setup({ noise: true, noiseSeed: '11', toolFailureProbability: '0.25' } as unknown as Record<string, string>);
    expect(plan.noise?.tool_augmentation?.tool_failure_probability).toBe(0.25);
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out'));
    expect(planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') })).toEqual(plan);
  });

  it("a run's instructions template is read again from its recorded path, and refused once its bytes changed", async () => {
    const { dir, env, plan } = setup();
    await runWithFakes(plan, env);
    const { file, rec } = readRunRecord(join(dir, 'out'));
    const tpl = join(dir, 'AGENTS_TEMPLATE.md');
    writeFileSync(tpl, 'Use {{EXEC_TOOL}} for {{TOOL_LIST}}\n');
    const sha256 = createHash('sha256').update(readFileSync(tpl)).digest('hex');
    const withTemplate = { ...rec, agent_options: { ...rec.agent_options!, instructions_file: { path: tpl, sha256 } } };
    expect(planFromRunRecord(withTemplate, file, env, { outputDir: null }).agent.instructions).toEqual({ path: tpl, sha256, text: 'Use {{EXEC_TOOL}} for {{TOOL_LIST}}\n' });
    writeFileSync(tpl, 'Other words\n');
    expect(() => planFromRunRecord(withTemplate, file, env, { outputDir: null })).toThrow(/agent_options\.instructions_file in .*run_config\.json: .*AGENTS_TEMPLATE\.md changed since the run/);
  });

  it('a record without options is refused with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rerun-'));
    writeFileSync(join(dir, 'run_config.json'), JSON.stringify({ schema_version: 1, command: 'run' }));
    const r = await runCliInProcess(['rerun', dir, '--output-dir', join(dir, 'x')], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 'run_config.json')}: field "target" is missing`);
  });
});
