// gaia2-run's phases over fake scenario runs: one output root with a directory, runs and a
// report per phase, the overall table, the phase settings reaching the runs, a phase that
// cannot run reported (not silently run as standard), and --retry resuming every phase.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUR_IMAGE_FEATURES, IMAGE_FEATURES_LABEL } from '@gaia2/contract/features';
import type { DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { EXIT } from '../../../runner/src/orchestrator/session.js';
import { rateText } from '../../../runner/src/report/index.js';
import { runPhases } from '../../../runner/src/phases/run-phases.js';
import type { PhaseSource } from '../../../runner/src/phases/phase-plans.js';
import type { PhasesReport } from '../../../runner/src/phases/overall-report.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from '../config/flag-defaults.js';
import { runCliInProcess } from '../config/in-process-cli.js';
import { fakeEngine, fakeRuns, recordingProgress, type Outcome } from '../orchestrator/fakes.js';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'phases-'));
  for (const id of ['a', 'b']) writeScenario(join(dir, `data/search/${id}.json`), id);
  writeScenario(join(dir, 'data/time/c.json'), 'c');
  writeFileSync(join(dir, 'mini.json'), JSON.stringify({ splits: { search: ['a'] } }));
  const flags = { ...defaultRunFlags(''), agent: 'oracle', dataset: join(dir, 'data'), concurrency: '2', passAt: '1', revision: 'main', outputDir: join(dir, 'out') } as DatasetFlags;
  return { dir, root: join(dir, 'out'), flags };
}

function io(decide: (id: string, run: number, attempt: number) => Outcome, labels: Record<string, string> = { [IMAGE_FEATURES_LABEL]: OUR_IMAGE_FEATURES }) {
  const engine = fakeEngine();
  engine.images.labels = async () => labels;
  const runs = fakeRuns(decide, { ms: 1 });
  const out: string[] = [];
  const err: string[] = [];
  return { runs, out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: {}, engine, runScenario: runs.fn, progress: recordingProgress() } };
}

const readReport = (root: string) => JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as PhasesReport;
const phaseOf = (outputDir: string | null | undefined) => outputDir!.split('/out/')[1]!.split('/')[0];

describe('gaia2-run phases', () => {
  it('standard and noise run three times per scenario into their own directories; with the oracle agent, agent2agent is reported as not runnable (its app agents need a model)', async () => {
    const { root, flags } = setup();
    const t = io(() => 'pass');
    const src: PhaseSource = { kind: 'flags', flags, env: {} };
    const code = await runPhases(src, ['standard', 'agent2agent', 'noise'], { root, runs: 3, miniSubset: null, retry: false }, t.io);
    expect(code).toBe(EXIT.usage);
    const byPhase = (p: string) => t.runs.calls.filter((c) => phaseOf(c.outputDir) === p);
    expect(byPhase('standard')).toHaveLength(9);
    expect(byPhase('noise')).toHaveLength(9);
    expect(byPhase('agent2agent')).toHaveLength(0);
    expect(new Set(byPhase('noise').map((c) => c.runIndex))).toEqual(new Set([1, 2, 3]));
    // The noise phase, and only it, sends GAIA2_NOISE (the reference defaults).
    expect(byPhase('standard').every((c) => c.env.GAIA2_NOISE === undefined)).toBe(true);
    expect(JSON.parse(byPhase('noise')[0]!.env.GAIA2_NOISE!).tool_augmentation.tool_failure_probability).toBe(0.1);
    for (const p of ['standard', 'noise']) {
      expect(existsSync(join(root, p, 'report.md'))).toBe(true);
      expect(existsSync(join(root, p, 'run_3', 'run_config.json'))).toBe(true);
    }
    const r = readReport(root);
    expect(r.phases.map((p) => [p.phase, p.status])).toEqual([['standard', 'ran'], ['agent2agent', 'error'], ['noise', 'ran']]);
    expect(r.phases[1]!.error).toMatch(/The app agents need a model; the oracle agent has none to share/);
    expect(r.phases[0]!.overall).toMatchObject({ scenarios: 3, runs: 9, passed: 9 });
    expect(r.mean_success_rate).toBe(1);
    const md = readFileSync(join(root, 'report.md'), 'utf8');
    expect(md).toMatch(/\| standard \| 3 \| 9 \| 9 \| 0 \| 0 \| 100\.0%/);
    // the phase's rate as its own report.md states it (clustered SE and interval)
    const own = JSON.parse(readFileSync(join(root, 'standard', 'report.json'), 'utf8')).overall;
    const rate = rateText(own.success_rate, own.success_rate_ci);
    expect(rate).toMatch(/\[.*\]/);
    expect(readFileSync(join(root, 'standard', 'report.md'), 'utf8')).toContain(rate);
    expect(md).toContain(`| ${rate} |`);
    expect(md).toMatch(/\| agent2agent \|.*not run: The app agents need a model/);
    expect(t.err.join('')).toMatch(/Phase agent2agent not run/);
  });

  it("every phase is checked on this host before the first runs: a missing key stops them all before any container", async () => {
    const { root, flags } = setup();
    const t = io(() => 'pass');
    const llm = { ...flags, agent: 'default', provider: 'openai', model: 'gpt-4.1' } as DatasetFlags;
    const code = await runPhases({ kind: 'flags', flags: llm, env: {} }, ['standard', 'noise'], { root, runs: 1, miniSubset: null, retry: false }, t.io);
    expect(code).toBe(EXIT.usage);
    expect(t.runs.calls).toHaveLength(0);
    expect(t.err.join('')).toMatch(/Phase standard not run: .*OPENAI_API_KEY/);
    expect(readReport(root).phases.map((p) => p.status)).toEqual(['error', 'error']);
  });

  it('the mini subset narrows the augmented phases only', async () => {
    const { dir, root, flags } = setup();
    const t = io(() => 'pass');
    await runPhases({ kind: 'flags', flags, env: {} }, ['standard', 'noise'], { root, runs: 1, miniSubset: join(dir, 'mini.json'), retry: false }, t.io);
    const ids = (p: string) => t.runs.calls.filter((c) => phaseOf(c.outputDir) === p).map((c) => c.scenarioFile.replace(/^.*\//, '')).sort();
    expect(ids('standard')).toEqual(['a.json', 'b.json', 'c.json']);
    expect(ids('noise')).toEqual(['a.json']);
  });

  it('an image without the noise feature: the noise phase is refused, not run as standard', async () => {
    const { root, flags } = setup();
    const t = io(() => 'pass', {});
    const code = await runPhases({ kind: 'flags', flags, env: {} }, ['standard', 'noise'], { root, runs: 1, miniSubset: null, retry: false }, t.io);
    expect(code).toBe(EXIT.usage);
    expect(t.runs.calls.every((c) => phaseOf(c.outputDir) === 'standard')).toBe(true);
    expect(readReport(root).phases[1]).toMatchObject({ phase: 'noise', status: 'error', error: expect.stringMatching(/does not implement the Noise phase/) });
  });

  it('--retry resumes every phase: only runs without a judged result are redone', async () => {
    const { root, flags } = setup();
    const src: PhaseSource = { kind: 'flags', flags, env: {} };
    const first = io((id, run) => (id === 'b' && run === 2 ? { status: 'error', kind: 'health_timeout' } : 'pass'));
    expect(await runPhases(src, ['standard', 'noise'], { root, runs: 2, miniSubset: null, retry: false }, first.io)).toBe(EXIT.errors);
    const second = io(() => 'pass');
    expect(await runPhases(src, ['standard', 'noise'], { root, runs: 2, miniSubset: null, retry: true }, second.io)).toBe(EXIT.ok);
    expect(second.runs.calls.map((c) => [phaseOf(c.outputDir), c.scenarioFile.replace(/^.*\//, ''), c.runIndex])).toEqual([
      ['standard', 'b.json', 2],
      ['noise', 'b.json', 2],
    ]);
    expect(readReport(root).phases.map((p) => p.overall?.passed)).toEqual([6, 6]);
  });

  it('a TOML config: [noise] tunes the noise phase only; run-config refuses [phases]', async () => {
    const { dir, root } = setup();
    const file = join(dir, 'g.toml');
    writeFileSync(file, `[target]\ndataset_root = "data"\n[agent]\nname = "oracle"\n[run]\noutput_dir = "out"\n[noise]\nseed = 4\n[phases]\nruns = 1\n`);
    const t = io(() => 'pass');
    expect(await runPhases({ kind: 'toml', file, env: {} }, ['standard', 'noise'], { root, runs: 1, miniSubset: null, retry: false }, t.io)).toBe(EXIT.ok);
    const noise = t.runs.calls.filter((c) => phaseOf(c.outputDir) === 'noise');
    expect(noise).toHaveLength(3);
    expect(JSON.parse(noise[0]!.env.GAIA2_NOISE!).env_events.env_events_seed).toBe(4);
    expect(t.runs.calls.filter((c) => phaseOf(c.outputDir) === 'standard').every((c) => c.env.GAIA2_NOISE === undefined)).toBe(true);
    expect(() => loadRunConfig(file, {})).toThrow(/\[phases\] is read by gaia2-run/);
  });

  it('`report` on a gaia2-run root rebuilds the phase reports and keeps the phases table', async () => {
    const { root, flags } = setup();
    await runPhases({ kind: 'flags', flags, env: {} }, ['standard', 'agent2agent', 'noise'], { root, runs: 2, miniSubset: null, retry: false }, io(() => 'pass').io);
    const before = readReport(root);
    rmSync(join(root, 'noise', 'report.json'));
    const r = await runCliInProcess(['report', '--output-dir', root], root);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\| noise \| 3 \| 6 \| 6 \|/);
    const after = readReport(root);
    expect(after.kind).toBe('gaia2-run');
    expect(after.phases.map((p) => [p.phase, p.status, p.overall?.passed])).toEqual(before.phases.map((p) => [p.phase, p.status, p.overall?.passed]));
    expect(existsSync(join(root, 'noise', 'report.json'))).toBe(true);
    // --prices reaches every phase's report
    const cost = () => JSON.parse(readFileSync(join(root, 'standard', 'report.json'), 'utf8')).overall.usage.cost.total_usd as number;
    const listPrice = cost();
    writeFileSync(join(root, 'prices.json'), JSON.stringify({ models: { 'claude-sonnet-4': { input: 3000, output: 15000, cache_read: 300, cache_write: 3750 } } }));
    expect((await runCliInProcess(['report', '--output-dir', root, '--prices', join(root, 'prices.json')], root)).code).toBe(0);
    expect(cost()).toBeCloseTo(listPrice * 1000, 6);
  });
});
