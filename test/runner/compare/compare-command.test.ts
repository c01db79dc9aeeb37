// `compare A B [C]` on runs written to disk: per-split deltas on shared scenarios, paired
// statistics, verdict flips, and the three files.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCompare, mcnemarExact } from '../../../runner/src/compare/index.js';
import { runCliInProcess } from '../config/in-process-cli.js';

function writeRun(dir: string, outcomes: Record<string, 'pass' | 'fail' | 'error'>): string {
  for (const [rel, status] of Object.entries(outcomes)) {
    mkdirSync(join(dir, rel), { recursive: true });
    const id = rel.split('/').pop();
    writeFileSync(join(dir, rel, 'result.json'), JSON.stringify({ scenario_id: id, status, success: status === 'pass' ? true : status === 'fail' ? false : null }));
    writeFileSync(join(dir, rel, 'events.jsonl'), '');
  }
  return dir;
}

function runs() {
  const root = mkdtempSync(join(tmpdir(), 'cmp-'));
  const a = writeRun(join(root, 'base'), { 'search/s1': 'pass', 'search/s2': 'fail', 'search/s3': 'fail', 'time/t1': 'pass', 'time/t2': 'pass', 'time/t3': 'error' });
  const b = writeRun(join(root, 'new'), { 'search/s1': 'pass', 'search/s2': 'pass', 'search/s3': 'pass', 'time/t1': 'fail', 'time/t2': 'pass', 'time/t3': 'pass' });
  const c = writeRun(join(root, 'third'), { 'search/s1': 'fail', 'search/s2': 'fail', 'search/s3': 'fail' });
  return { root, a, b, c };
}

describe('compare', () => {
  it('deltas per split and overall on scenarios both judged, McNemar and bootstrap, flips', () => {
    const { a, b, c } = runs();
    const cmp = buildCompare([a, b, c]);
    expect(cmp.runs.map((r) => r.name)).toEqual(['base', 'new', 'third']);
    const [ab, ac] = cmp.pairs;
    expect(ab!.overall.shared).toBe(5); // t3 errored in the baseline: not paired
    expect(ab!.unpaired).toEqual({ baseline_only: 0, run_only: 1 });
    expect(ab!.overall.baseline_rate).toBeCloseTo(3 / 5, 12);
    expect(ab!.overall.rate).toBeCloseTo(4 / 5, 12);
    expect(ab!.overall.delta).toBeCloseTo(0.2, 12);
    expect(ab!.overall.mcnemar).toEqual({ fail_to_pass: 2, pass_to_fail: 1, p_value: mcnemarExact(2, 1) });
    expect(ab!.splits.search).toMatchObject({ shared: 3, baseline_rate: 1 / 3, rate: 1 });
    expect(ab!.splits.time!.delta).toBeCloseTo(-0.5, 12);
    expect(ab!.overall.bootstrap_ci95).toMatchObject({ seed: cmp.bootstrap_seed, resamples: 10000 });
    expect(ab!.overall.bootstrap_ci95!.low).toBeLessThanOrEqual(0.2);
    expect(ab!.flips).toEqual([
      { scenario: 'search/s2', split: 'search', from: 0, to: 1 },
      { scenario: 'search/s3', split: 'search', from: 0, to: 1 },
      { scenario: 'time/t1', split: 'time', from: 1, to: 0 },
    ]);
    expect(ac!.overall.shared).toBe(3);
    expect(ac!.unpaired.baseline_only).toBe(2);
    // Same inputs, same seed: the same numbers.
    expect(buildCompare([a, b, c]).pairs).toEqual(cmp.pairs);
  });

  it('pass@N roots: scores are per-scenario success rates, no McNemar', () => {
    const root = mkdtempSync(join(tmpdir(), 'cmpn-'));
    const a = writeRun(join(root, 'a'), { 'run_1/search/s1': 'pass', 'run_2/search/s1': 'fail', 'run_1/search/s2': 'fail', 'run_2/search/s2': 'fail' });
    const b = writeRun(join(root, 'b'), { 'run_1/search/s1': 'pass', 'run_2/search/s1': 'pass', 'run_1/search/s2': 'pass', 'run_2/search/s2': 'fail' });
    const [p] = buildCompare([a, b]).pairs;
    expect(p!.overall).toMatchObject({ shared: 2, baseline_rate: 0.25, rate: 0.75, mcnemar: null });
    expect(p!.flips).toEqual([
      { scenario: 'search/s1', split: 'search', from: 0.5, to: 1 },
      { scenario: 'search/s2', split: 'search', from: 0, to: 0.5 },
    ]);
  });

  it('the command writes .stats.json/.md/.html beside the page and prints the Markdown', async () => {
    const { root, a, b, c } = runs();
    const out = join(root, 'cmp', 'compare.html');
    mkdirSync(join(root, 'cmp'));
    const r = await runCliInProcess(['compare', a, b, c, '-o', out], root);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(root, 'cmp', 'compare.stats.json'), 'utf8'));
    expect(json.pairs).toHaveLength(2);
    expect(json.pairs[0].overall.delta).toBeCloseTo(0.2, 12);
    const md = readFileSync(join(root, 'cmp', 'compare.stats.md'), 'utf8');
    expect(r.out).toContain(md);
    expect(md).toContain('## new vs base');
    expect(md).toContain('| overall | 5 | 60.0% | 80.0% | +20.0 pp |');
    expect(md).toContain('### Changed verdicts (3)');
    expect(md).toContain('| time | time/t1 | 100.0% | 0.0% |');
    const html = readFileSync(join(root, 'cmp', 'compare.stats.html'), 'utf8');
    expect(html).toContain('<h2>new vs base</h2>');
    expect(html).toContain('<td>time/t1</td>');
    expect(readFileSync(out, 'utf8')).toContain('<html');
  });
});
