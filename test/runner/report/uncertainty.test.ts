import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, clusteredInterval, loadRunRecords, macroInterval, renderCsv, renderMarkdown, renderText } from '../../../runner/src/report/index.js';

function writeResult(root: string, rel: string, r: Record<string, unknown>) {
  mkdirSync(join(root, rel), { recursive: true });
  writeFileSync(join(root, rel, 'result.json'), JSON.stringify(r));
}

describe('standard error and 95% interval of a success rate', () => {
  it('one run per scenario: the SE across scenarios, √(p(1−p)/(m−1))', () => {
    const x = [1, 1, 0, 0, 1];
    const ci = clusteredInterval(x.map((c) => ({ n: 1, c })));
    expect(ci.se).toBeCloseTo(Math.sqrt((0.6 * 0.4) / 4), 12);
    expect(ci.low).toBeCloseTo(0.6 - 1.959964 * ci.se!, 5);
    expect(ci.high).toBe(1); // clipped
    expect(ci.scenarios).toBe(5);
  });

  it('several runs per scenario: clustered by scenario, wider than treating runs as independent', () => {
    const ci = clusteredInterval([{ n: 2, c: 2 }, { n: 2, c: 0 }, { n: 2, c: 1 }]);
    // p = 1/2; residuals c − p·n = 1, −1, 0; SE² = 3/2 · 2 / 6²
    expect(ci.se).toBeCloseTo(Math.sqrt(1 / 12), 12);
    expect(ci.se!).toBeGreaterThan(Math.sqrt(0.25 / 6));
    // Scenarios without a counted run are no clusters; one scenario gives no SE.
    expect(clusteredInterval([{ n: 3, c: 1 }, { n: 0, c: 0 }])).toEqual({ se: null, low: null, high: null, scenarios: 1 });
  });

  it('macro: SE of a mean of independent splits = √(Σ SE²)/splits', () => {
    const a = clusteredInterval([{ n: 1, c: 1 }, { n: 1, c: 0 }]);
    const b = clusteredInterval([{ n: 1, c: 1 }, { n: 1, c: 1 }, { n: 1, c: 0 }]);
    expect(macroInterval(0.5, [a, b]).se).toBeCloseTo(Math.sqrt(a.se! ** 2 + b.se! ** 2) / 2, 12);
    expect(macroInterval(0.5, [a, clusteredInterval([{ n: 1, c: 1 }])]).se).toBeNull();
  });
});

describe('errors policy, per split and macro, formats', () => {
  function run(): string {
    const d = mkdtempSync(join(tmpdir(), 'unc-'));
    for (const [rel, status] of [
      ['run_1/search/a', 'pass'], ['run_2/search/a', 'pass'],
      ['run_1/search/b', 'fail'], ['run_2/search/b', 'error'],
      ['run_1/time/c', 'pass'], ['run_2/time/c', 'fail'],
      ['run_1/time/d', 'fail'], ['run_2/time/d', 'fail'],
    ] as const) writeResult(d, rel, { scenario_id: rel.split('/').pop(), status, success: status === 'pass' ? true : status === 'fail' ? false : null, ...(status === 'error' ? { error_kind: 'health_timeout' } : {}) });
    return d;
  }

  it('by default errors are in no denominator, and the report says so', () => {
    const d = run();
    const r = buildReport(loadRunRecords(d), d);
    expect(r.errors_policy).toBe('excluded');
    expect(r.splits.search!.success_rate).toBeCloseTo(2 / 3, 12);
    // b has one counted run: pass@2 leaves it out; a counts.
    expect(r.splits.search!.pass_at_k['2']).toEqual({ value: 1, scenarios_counted: 1 });
    expect(r.splits.search!.success_rate_ci.se).toBeCloseTo(clusteredInterval([{ n: 2, c: 2 }, { n: 1, c: 0 }]).se!, 12);
    expect(r.macro.success_rate).toBeCloseTo((2 / 3 + 1 / 4) / 2, 12);
    expect(renderMarkdown(r)).toContain('Errors are left out of every denominator (the reference rule; --errors-as-failures counts them as failures).');
  });

  it('--errors-as-failures counts an error as a failed run everywhere', () => {
    const d = run();
    const r = buildReport(loadRunRecords(d), d, 1, { errorsAsFailures: true });
    expect(r.errors_policy).toBe('as-failures');
    expect(r.splits.search!.success_rate).toBe(0.5);
    expect(r.splits.search!.pass_at_k['2']).toEqual({ value: 0.5, scenarios_counted: 2 });
    expect(r.splits.search!.pass_hat_k['2']).toEqual({ value: 0.5, scenarios_counted: 2 });
    expect(r.overall.per_run.map((x) => x.judged)).toEqual([4, 4]);
    expect(renderText(r)).toContain('search: 2/4 runs passed (50.0% ± ');
    expect(renderText(r)).toContain('Errors count as failed runs (--errors-as-failures).');
  });

  it('CSV: a row per split, overall and macro, with the interval and the policy', () => {
    const d = run();
    const r = buildReport(loadRunRecords(d), d);
    const lines = renderCsv(r).trim().split('\n');
    expect(lines[0]).toMatch(/^group,scenarios,runs,judged,passed,failed,errors,success_rate,se,ci95_low,ci95_high,pass_at_1,pass_at_2,pass_hat_1,pass_hat_2,/);
    expect(lines.map((l) => l.split(',')[0])).toEqual(['group', 'search', 'time', 'overall', 'macro']);
    const search = lines[1]!.split(',');
    expect(Number(search[7])).toBeCloseTo(2 / 3, 12);
    expect(Number(search[8])).toBeCloseTo(r.splits.search!.success_rate_ci.se!, 12);
    expect(search.at(-1)).toBe('excluded');
  });
});
