// The leaderboard's rows on runs written by the real orchestrator and phase runner: every
// number is the run's own report (as the `report` command writes it), rows are grouped by
// setting and ordered, different scenario sets are stated and can be restricted.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { buildLeaderboard, headline, type Leaderboard, type LeaderboardRow } from '../../../runner/src/leaderboard/index.js';
import { sectionNotes } from '../../../runner/src/leaderboard/table.js';
import { buildViewer } from '../../../runner/src/viewer/index.js';
import { runCliInProcess } from '../config/in-process-cli.js';
import { finishedRoot } from '../submission/phase-root.js';
import { datasetRun, writeDatasets } from './runs.js';

let root: string;
let runs: { a: string; b: string; c: string; g: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'leaderboard-'));
  const d = writeDatasets(root);
  runs = {
    // pass@1 on all four scenarios: c fails, d ends in an error
    a: await datasetRun({ dataset: d.full, out: join(root, 'a'), model: 'claude-sonnet-4-20250514', provider: 'anthropic', decide: (id) => (id === 'c' ? 'fail' : id === 'd' ? { status: 'error', kind: 'health_timeout' } : 'pass') }),
    // pass@3 root on three of them: a fails in its second run
    b: await datasetRun({ dataset: d.part, out: join(root, 'b'), model: 'gpt-4.1', provider: 'openai', passAt: 3, decide: (id, r) => (id === 'a' && r === 2 ? 'fail' : 'pass') }),
    // the reference's OpenClaw image: only a passes
    c: await datasetRun({ dataset: d.part, out: join(root, 'c'), image: 'localhost/gaia2-oc:test', model: 'claude-opus-4-1', provider: 'anthropic', decide: (id) => (id === 'a' ? 'pass' : 'fail') }),
    // a gaia2-run root (standard and noise phases, three runs each) over the same three scenarios
    g: await finishedRoot((id, r) => (id === 'a' || r === 1 ? 'pass' : 'fail')),
  };
}, 120_000);

afterAll(() => {
  for (const d of [root, dirname(runs.g)]) rmSync(d, { recursive: true, force: true });
});

const site = () => join(root, 'site');
const build = (o: Partial<Parameters<typeof buildLeaderboard>[1]> = {}, dirs = [runs.a, runs.b, runs.c, runs.g]): Leaderboard => buildLeaderboard(dirs, { outDir: site(), ...o });
const rowOf = (lb: Leaderboard, dir: string): LeaderboardRow => lb.sections.flatMap((s) => s.rows).find((r) => r.dir === dir)!;
const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

describe('leaderboard rows', () => {
  it("every row's numbers are its run's report, as the report command writes it", async () => {
    const lb = build();
    for (const dir of [runs.a, runs.b, runs.c]) {
      expect((await runCliInProcess(['report', '--output-dir', dir], root)).code).toBe(0);
      const rep = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      const row = rowOf(lb, dir);
      for (const k of ['overall', 'splits', 'macro', 'num_runs', 'errors_policy'] as const) expect(plain(row.report[k])).toEqual(rep[k]);
    }
    // a gaia2-run root: one row per phase, each its phase's report.json
    expect((await runCliInProcess(['report', '--output-dir', runs.g], root)).code).toBe(0);
    for (const phase of ['standard', 'noise']) {
      const rep = JSON.parse(readFileSync(join(runs.g, phase, 'report.json'), 'utf8'));
      const row = rowOf(lb, join(runs.g, phase));
      expect(row.run).toBe(`out/${phase}`);
      expect(row.setting).toBe(phase);
      for (const k of ['overall', 'splits', 'macro', 'num_runs'] as const) expect(plain(row.report[k])).toEqual(rep[k]);
    }
  });

  it('groups rows by setting, orders them by the mean of splits, and names agent and model', () => {
    const lb = build();
    expect(lb.sections.map((s) => s.setting)).toEqual(['standard', 'noise']);
    const [standard, noise] = lb.sections;
    // Our own agents are recorded as {name, version: the runner's version} (run_config.json `agent`).
    // b: search (2+3)/6, time 3/3 → 11/12; a: search 1, time 0 → 1/2 (execution: only an error);
    // out/standard: search 4/6, time 1/3 → 1/2 (ties ordered by name); c: search 1/2, time 0 → 1/4
    expect(standard!.rows.map((r) => r.run)).toEqual(['b', 'a', 'out/standard', 'c']);
    expect(standard!.rows.map(headline)).toEqual([expect.closeTo(11 / 12, 12), 0.5, expect.closeTo(0.5, 12), 0.25]);
    expect(noise!.rows.map((r) => r.run)).toEqual(['out/noise']);
    expect(standard!.splits).toEqual(['execution', 'search', 'time']);
    expect(standard!.ks).toEqual(['1', '2', '3']);
    const [b, a, g, c] = standard!.rows;
    expect([a!.agent, a!.model, a!.provider]).toEqual([{ name: 'default', version: pkg.version, source: 'recorded' }, 'claude-sonnet-4-20250514', 'anthropic']);
    expect([b!.model, b!.report.num_runs]).toEqual(['gpt-4.1', 3]);
    expect(c!.agent).toEqual({ name: 'openclaw', version: null, source: 'image' });
    expect([g!.agent.name, g!.model]).toEqual(['oracle', null]);
  });

  it('per scenario run: the agent tokens, costs and time of the report divided by the runs', () => {
    const b = rowOf(build(), runs.b);
    const o = b.report.overall;
    expect(b.per_scenario_run.runs).toBe(9);
    // every fake run carries a real run's usage: 5183 tokens in, 111 out (test/fixtures/usage)
    expect([b.per_scenario_run.agent_input_tokens, b.per_scenario_run.agent_output_tokens]).toEqual([5183, 111]);
    expect(o.usage.cost.total_usd).not.toBeNull();
    expect(b.per_scenario_run.total_cost_usd! * 9).toBeCloseTo(o.usage.cost.total_usd!, 12);
    expect(b.per_scenario_run.agent_cost_usd! * 9).toBeCloseTo(o.usage.cost.agent.usd!, 12);
    expect(b.per_scenario_run.seconds).toBe(o.duration_seconds.mean);
  });

  it('states different scenario sets, and --common-scenarios restricts every row to the shared ones', () => {
    const lb = build();
    const standard = lb.sections[0]!;
    expect(standard.scenarios).toEqual({ union: 4, common: 3, same: false });
    expect(standard.restricted).toBe(false);
    expect(sectionNotes(standard)[0]).toContain('3 scenario(s) are common to all 4 rows, 4 are in some row');
    expect(sectionNotes(lb.sections[1]!)[0]).toBe('One run, 3 scenario(s).');

    const fair = build({ commonOnly: true });
    expect(fair.common_scenarios_only).toBe(true);
    expect(fair.sections[0]!.restricted).toBe(true);
    expect(sectionNotes(fair.sections[0]!)[0]).toContain('every row is restricted to the 3 scenario(s) all of them ran');
    const a = rowOf(fair, runs.a);
    // a without d (its error): 2 of 3 pass, no error left, no execution split
    expect([a.scenarios_run, a.report.overall.scenarios, a.report.overall.errors]).toEqual([4, 3, 0]);
    expect(a.report.overall.success_rate).toBeCloseTo(2 / 3, 12);
    expect(Object.keys(a.report.splits)).toEqual(['search', 'time']);
    // rows that ran only the common scenarios keep their numbers
    expect(rowOf(fair, runs.b).report.overall).toEqual(rowOf(lb, runs.b).report.overall);
    // the noise section had nothing to restrict
    expect(fair.sections[1]!.restricted).toBe(false);
  });

  it("--errors-as-failures applies to every row, as it does to report", () => {
    const a = rowOf(build({ errorsAsFailures: true }), runs.a);
    expect(a.report.errors_policy).toBe('as-failures');
    expect(a.report.overall.success_rate).toBe(2 / 4);
  });

  it("links each row to its run's viewer, relative to the leaderboard's folder, once it is built", async () => {
    expect(rowOf(build({}, [runs.a]), runs.a).viewer).toBeNull();
    await buildViewer(runs.a);
    const href = rowOf(build({}, [runs.a]), runs.a).viewer!;
    expect(href).toBe('../a/index.html');
    expect(existsSync(resolve(site(), href))).toBe(true);
  });

  it('without a run record, the agent comes from result.json and the model from its billed usage', () => {
    const bare = join(root, 'c-bare');
    cpSync(runs.c, bare, { recursive: true });
    rmSync(join(bare, 'run_config.json'));
    const row = rowOf(build({}, [bare]), bare);
    // result.json's image is the reference's OpenClaw image; the fake runs' usage was billed to claude-sonnet-4
    expect(row.agent).toEqual({ name: 'openclaw', version: null, source: 'image' });
    expect(row.model).toBe('claude-sonnet-4-20250514');
  });

  it('runs of the same name are told apart by the path given', async () => {
    for (const p of ['p/same', 'q/same']) cpSync(runs.b, join(root, p), { recursive: true });
    const r = await runCliInProcess(['leaderboard', 'p/same', 'q/same/', '--out', 'site-same', '--no-viewer', '--format', 'json'], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).sections[0].rows.map((x: LeaderboardRow) => x.run)).toEqual(['p/same', 'q/same']);
  });

  it('notes rows judged differently, or counting errors differently', async () => {
    const d = writeDatasets(join(root, 'judged'));
    const judged = await datasetRun({ dataset: d.part, out: join(root, 'judged/run'), judge: 'gpt-4.1', errorsAsFailures: true, decide: () => 'pass' });
    const [standard] = build({}, [runs.b, judged]).sections;
    // in row order: the judged run passed everything and comes first
    expect(sectionNotes(standard!)).toEqual([
      'All 2 rows ran the same 3 scenario(s).',
      'The rows were judged differently (gpt-4.1 (openai); hard checks only (no judge LLM)): their verdicts are not strictly comparable.',
      'The rows count errors differently (as-failures, excluded): pass --errors-as-failures or --no-errors-as-failures to apply one rule to all.',
    ]);
    // one rule for all: the note goes
    expect(sectionNotes(build({ errorsAsFailures: false }, [runs.b, judged]).sections[0]!)).toHaveLength(2);
  });

  it('refuses what is not a run, naming the directory', () => {
    expect(() => build({}, [join(root, 'nope')])).toThrow(`leaderboard: not a directory: ${join(root, 'nope')}`);
    mkdirSync(join(root, 'empty'), { recursive: true });
    expect(() => build({}, [join(root, 'empty')])).toThrow(`leaderboard: no result.json under ${join(root, 'empty')}`);
    expect(() => build({}, [root])).toThrow(`leaderboard: ${root} holds several runs, not one`);
    expect(() => build({}, [runs.a, `${runs.a}/`])).toThrow(`leaderboard: ${runs.a} is given twice`);
    expect(() => build({}, [])).toThrow('name at least one run directory');
  });
});
