// The opt-in result cache through the orchestrator: a judged run is reused when scenario,
// image id, agent and judge are identical; anything else runs again; errors are never reused.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_DEFAULTS, type RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { renderMarkdown } from '../../../runner/src/report/index.js';
import { configKey } from '../../../runner/src/result-cache/index.js';
import { DEFAULT_NOISE } from '@gaia2/contract/noise';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, recordingProgress } from '../orchestrator/fakes.js';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'rcache-'));
  writeScenario(join(root, 'data/search/s_a.json'), 's_a');
  writeScenario(join(root, 'data/search/s_b.json'), 's_b');
  writeScenario(join(root, 'data/time/t_err.json'), 't_err');
  return { root, env: { GAIA2_RESULT_CACHE: join(root, 'cache') } };
}

function plan(root: string, out: string, o: { judge?: string; caching?: boolean } = {}): RunPlan {
  return {
    command: 'run-dataset',
    configPath: null,
    target: { kind: 'local', path: join(root, 'data'), recursive: true, splits: null, subset: null, limit: null },
    agent: { name: 'oracle', image: 'localhost/gaia2-agent:test', runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
    judge: o.judge ? { provider: 'openai', model: o.judge, baseUrl: null, apiKey: { value: 'k', source: 'explicit' } } : null,
    run: { ...RUN_DEFAULTS, outputDir: join(root, out), enableCaching: o.caching ?? true },
  };
}

async function exec(p: RunPlan, env: Record<string, string>, imageId: string | null = 'sha256:aaaa', failedTurns?: (id: string) => number[]) {
  const engine = fakeEngine();
  if (imageId) engine.images.id = async () => imageId;
  const runs = fakeRuns((id) => (id === 't_err' ? { status: 'error', kind: 'health_timeout' } : id === 's_b' ? 'fail' : 'pass'), failedTurns ? { failedTurns } : {});
  const progress = recordingProgress();
  const outcome = await executePlan(p, await resolveDataset(p.target, { env }), { engine, runScenario: runs.fn, progress, hostEnv: env });
  return { outcome, ran: runs.calls.map((c) => c.scenarioFile.replace(/^.*\//, '')).sort(), progress };
}

describe('result cache (--enable-caching)', () => {
  it('a second identical run reuses the judged runs, not the error, and the report says how many', async () => {
    const { root, env } = setup();
    const first = await exec(plan(root, 'out1'), env);
    expect(first.ran).toEqual(['s_a.json', 's_b.json', 't_err.json']);
    expect(first.outcome.report.reused_from_cache).toBe(0);
    const second = await exec(plan(root, 'out2'), env);
    expect(second.ran).toEqual(['t_err.json']);
    expect(second.outcome.report.overall).toMatchObject({ passed: 1, failed: 1, errors: 1 });
    expect(second.outcome.report.reused_from_cache).toBe(2);
    expect(renderMarkdown(second.outcome.report)).toContain('2 of 3 runs were reused from the result cache (--enable-caching), not run again.');
    const reused = JSON.parse(readFileSync(join(root, 'out2/search/s_a/result.json'), 'utf8'));
    // when the reused run was really made: the first run's start
    const original = JSON.parse(readFileSync(join(root, 'out1/search/s_a/result.json'), 'utf8'));
    expect(reused.reused_from_cache.original_started_at).toBe(original.started_at);
    expect(reused.reused_from_cache.key).toMatch(/^[0-9a-f]{64}$/);
    // The stored artifacts came along.
    expect(readFileSync(join(root, 'out2/search/s_a/artifact-attempt-1.txt'), 'utf8')).toBe('x');
    expect(second.progress.lines.join('\n')).toContain(`Result cache: ${env.GAIA2_RESULT_CACHE}`);
  });

  it('a judged run whose agent program failed a turn is not stored: whether it stands is decided after it, from the gateway record', async () => {
    const { root, env } = setup();
    await exec(plan(root, 'out1'), env, 'sha256:aaaa', (id) => (id === 's_b' ? [1] : []));
    expect((await exec(plan(root, 'out2'), env)).ran).toEqual(['s_b.json', 't_err.json']);
  });

  it('a changed scenario, image, judge, or caching off: runs again', async () => {
    const { root, env } = setup();
    await exec(plan(root, 'out1'), env);
    writeScenario(join(root, 'data/search/s_a.json'), 's_a', { comment: 'edited' });
    expect((await exec(plan(root, 'out2'), env)).ran).toEqual(['s_a.json', 't_err.json']);
    expect((await exec(plan(root, 'out3'), env, 'sha256:bbbb')).ran).toEqual(['s_a.json', 's_b.json', 't_err.json']);
    expect((await exec(plan(root, 'out4', { judge: 'gpt-4.1' }), env)).ran).toEqual(['s_a.json', 's_b.json', 't_err.json']);
    expect((await exec(plan(root, 'out5', { caching: false }), env)).ran).toEqual(['s_a.json', 's_b.json', 't_err.json']);
  });

  it("a Noise or Agent2Agent run of a scenario never takes the standard run's result (gaia2-run phases)", () => {
    const { root } = setup();
    const standard = plan(root, 'o');
    const keys = [
      standard,
      { ...standard, noise: DEFAULT_NOISE },
      { ...standard, noise: { ...DEFAULT_NOISE, tool_augmentation: { ...DEFAULT_NOISE.tool_augmentation!, seed: 7 } } },
      { ...standard, agent2agent: { appProp: 1, seed: null, provider: 'openai', model: 'm', baseUrl: null, apiKey: null } },
      { ...standard, agent2agent: { appProp: 0.5, seed: null, provider: 'openai', model: 'm', baseUrl: null, apiKey: null } },
    ].map((p) => configKey(p, 'sha256:aaaa'));
    expect(new Set(keys).size).toBe(keys.length);
    // what cannot change an outcome stays out of the key
    expect(configKey({ ...standard, run: { ...standard.run, concurrency: 8, errorsAsFailures: true } }, 'sha256:aaaa')).toBe(keys[0]);
  });

  it('without an image id from the engine the cache stays off, and says so', async () => {
    const { root, env } = setup();
    await exec(plan(root, 'out1'), env);
    const again = await exec(plan(root, 'out2'), env, null);
    expect(again.ran).toHaveLength(3);
    expect(again.progress.lines.join('\n')).toContain('Result cache off: the engine does not report the image id');
  });
});
