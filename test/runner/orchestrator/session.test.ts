// The command-level session: exit codes, missing image, viewer and outputs.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_DEFAULTS, type RunPlan } from '../../../runner/src/plan/plan.js';
import { prepareDataset, runSession, EXIT } from '../../../runner/src/orchestrator/session.js';
import { writeReport } from '../../../runner/src/report/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, recordingProgress, type Outcome } from './fakes.js';

function setup(command: RunPlan['command'] = 'run-dataset') {
  const dir = mkdtempSync(join(tmpdir(), 'sess-'));
  writeScenario(join(dir, 'data/search/a.json'), 'a');
  writeScenario(join(dir, 'data/search/b.json'), 'b');
  const plan: RunPlan = {
    command,
    configPath: null,
    target: command === 'run' ? { kind: 'scenario', scenario: join(dir, 'data/search/a.json') } : { kind: 'local', path: join(dir, 'data'), recursive: true, splits: null, subset: null, limit: null },
    agent: { name: 'oracle', image: 'img', runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
    judge: null,
    run: { ...RUN_DEFAULTS, outputDir: join(dir, 'out') },
  };
  return { dir, plan };
}

async function session(plan: RunPlan, decide: (id: string) => Outcome, engine = fakeEngine()) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: {}, engine, runScenario: fakeRuns((id) => decide(id)).fn, progress: recordingProgress() };
  const ds = await prepareDataset(plan, io);
  const r = await runSession(plan, ds, io);
  return { ...r, out: out.join(''), err: err.join('') };
}

describe('run session', () => {
  it('dataset: 0 when every run was judged (failures included), 3 when errors remain', async () => {
    const a = setup();
    expect((await session(a.plan, (id) => (id === 'a' ? 'pass' : 'fail'))).code).toBe(EXIT.ok);
    const b = setup();
    expect((await session(b.plan, (id) => (id === 'a' ? 'pass' : { status: 'error', kind: 'health_timeout' }))).code).toBe(EXIT.errors);
  });

  it("--errors-as-failures: the run's report counts the error as a failed run, and a later `report` keeps that policy unless told otherwise", async () => {
    const { plan, dir } = setup();
    plan.run.errorsAsFailures = true;
    const errored = (id: string): Outcome => (id === 'a' ? 'pass' : { status: 'error', kind: 'health_timeout' });
    expect((await session(plan, errored)).code).toBe(EXIT.errors);
    const out = join(dir, 'out');
    const report = () => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report()).toMatchObject({ errors_policy: 'as-failures', overall: { runs: 2, errors: 1, success_rate: 0.5 } });
    expect(JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_options.errors_as_failures).toBe(true);
    await writeReport(out);
    expect(report()).toMatchObject({ errors_policy: 'as-failures', overall: { success_rate: 0.5 } });
    await writeReport(out, { errorsAsFailures: false });
    expect(report()).toMatchObject({ errors_policy: 'excluded', overall: { success_rate: 1 } });
    // the default run leaves the error out, as the reference does
    const d = setup();
    await session(d.plan, errored);
    expect(JSON.parse(readFileSync(join(d.dir, 'out', 'report.json'), 'utf8'))).toMatchObject({ errors_policy: 'excluded', overall: { success_rate: 1 } });
  });

  it('single scenario: 0 pass, 1 fail', async () => {
    expect((await session(setup('run').plan, () => 'pass')).code).toBe(EXIT.ok);
    expect((await session(setup('run').plan, () => 'fail')).code).toBe(EXIT.failed);
  });

  it('writes results, report and the viewer into the output dir', async () => {
    const { plan, dir } = setup();
    const r = await session(plan, () => 'pass');
    for (const f of ['results.jsonl', 'report.json', 'report.md', 'run_config.json', 'index.html']) expect(existsSync(join(dir, 'out', f)), f).toBe(true);
    expect(r.out).toContain('Trace viewer:');
  });

  it('a missing image is a clear error before anything runs', async () => {
    const engine = fakeEngine();
    engine.images.exists = async () => false;
    const { plan } = setup();
    await expect(session(plan, () => 'pass', engine)).rejects.toThrow(/image img not found in the engine; build it with: gaia2-runner build-image --tag img/);
  });

  it("a missing reference image is named for what it is, with the reference's build and our agent, never build-image", async () => {
    const engine = fakeEngine();
    engine.images.exists = async () => false;
    const { plan } = setup();
    plan.agent.image = 'localhost/gaia2-oc:latest';
    const e = await session(plan, () => 'pass', engine).then(() => null, (x: Error & { kind?: string }) => x);
    expect(e?.kind).toBe('image_missing');
    expect(e?.message).toMatch(/^image localhost\/gaia2-oc:latest not found in the engine\.\nThat name is the reference's OpenClaw image \(gaia2-cli\/containers\/openclaw\/Dockerfile in github.com\/facebookresearch\/meta-agents-research-environments\)/);
    expect(e?.message).toContain('cd gaia2-cli && make gaia2-oc');
    expect(e?.message).toContain('--agent openclaw --image localhost/gaia2-agent:latest');
    expect(e?.message).not.toContain('build-image --tag');
  });

  it('an empty selection runs nothing and says why', async () => {
    const { plan } = setup();
    const r = await session({ ...plan, target: { ...(plan.target as Extract<RunPlan['target'], { kind: 'local' }>), limit: null, subset: null, path: mkdtempSync(join(tmpdir(), 'empty-')) } }, () => 'pass');
    expect(r.code).toBe(0);
    expect(r.outcome).toBeNull();
    expect(r.err).toContain('No scenarios to run');
  });

  it('-j 64: every run in flight waits on the run signal without a listener-leak warning', async () => {
    const { dir, plan } = setup();
    for (let i = 0; i < 64; i++) writeScenario(join(dir, `data/time/t${i}.json`), `t${i}`);
    plan.run.concurrency = 64;
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const out: string[] = [];
      const runs = fakeRuns(() => 'pass', { ms: 30 });
      const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s), env: {}, engine: fakeEngine(), runScenario: runs.fn, progress: recordingProgress() };
      const r = await runSession(plan, await prepareDataset(plan, io), io);
      expect(r.code).toBe(EXIT.ok);
      expect(runs.maxInFlight).toBeGreaterThan(10); // more listeners at once than Node's default allows
      await new Promise((res) => setImmediate(res)); // warnings are emitted on the next tick
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
