import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import REAL from '../../fixtures/usage/real-results.json' with { type: 'json' };
import { buildReport, choose, loadRunRecords, passAtK, passHatK, renderMarkdown, renderText, standardError, writeReport } from '../../../runner/src/report/index.js';

describe('metric formulas', () => {
  it('binomial coefficients', () => {
    expect(choose(5, 2)).toBe(10);
    expect(choose(4, 0)).toBe(1);
    expect(choose(3, 4)).toBe(0);
  });
  it('pass@k = 1 − C(n−c,k)/C(n,k); pass^k = C(c,k)/C(n,k); undefined when n < k', () => {
    expect(passAtK(4, 1, 1)).toBeCloseTo(0.25);
    expect(passAtK(4, 1, 2)).toBeCloseTo(1 - 3 / 6);
    expect(passAtK(4, 0, 4)).toBe(0);
    expect(passAtK(4, 1, 4)).toBe(1);
    expect(passHatK(4, 3, 2)).toBeCloseTo(3 / 6);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(passAtK(1, 1, 2)).toBeNull();
    expect(passHatK(1, 1, 2)).toBeNull();
  });
  it('standard error = population STD of per-run rates / √N', () => {
    expect(standardError([0.5, 0.5])).toBe(0);
    expect(standardError([0.4, 0.6])).toBeCloseTo(0.1 / Math.sqrt(2));
  });
});

function writeResult(root: string, rel: string, r: Record<string, unknown>) {
  mkdirSync(join(root, rel), { recursive: true });
  writeFileSync(join(root, rel, 'result.json'), JSON.stringify(r));
}

describe('report from disk', () => {
  it('counts nested result.json files: true/false/null → 1/1/1, unreadable ones skipped with a warning', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep-'));
    writeResult(d, 'search/a', { scenario_id: 'a', success: true });
    writeResult(d, 'search/b', { scenario_id: 'b', success: false });
    writeResult(d, 'time/c', { scenario_id: 'c', success: null, error_kind: 'health_timeout' });
    mkdirSync(join(d, 'time/bad'), { recursive: true });
    writeFileSync(join(d, 'time/bad/result.json'), '{torn');
    const warnings: string[] = [];
    const r = buildReport(loadRunRecords(d, (w) => warnings.push(w)), d);
    expect(r.overall).toMatchObject({ passed: 1, failed: 1, errors: 1, judged: 2, success_rate: 0.5, errors_by_kind: { health_timeout: 1 } });
    expect(Object.keys(r.splits)).toEqual(['search', 'time']);
    expect(r.splits.time).toMatchObject({ judged: 0, errors: 1, success_rate: null });
    expect(warnings.join()).toContain('Skipping unreadable result file');
  });

  it('pass@2 example: {a:T,b:F} and {a:F,b:T} → 50% ± 0, pass@2 100%, pass^2 0%', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep2-'));
    writeResult(d, 'run_1/search/a', { scenario_id: 'a', success: true });
    writeResult(d, 'run_1/search/b', { scenario_id: 'b', success: false });
    writeResult(d, 'run_2/search/a', { scenario_id: 'a', success: false });
    writeResult(d, 'run_2/search/b', { scenario_id: 'b', success: true });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.num_runs).toBe(2);
    expect(r.overall.per_run.map((x) => x.success_rate)).toEqual([0.5, 0.5]);
    expect(r.overall.success_rate).toBe(0.5);
    expect(r.overall.success_rate_se).toBe(0);
    expect(r.overall.pass_at_k['1']!.value).toBe(0.5);
    expect(r.overall.pass_at_k['2']!.value).toBe(1);
    expect(r.overall.pass_hat_k['2']!.value).toBe(0);
    const text = renderText(r);
    expect(text).toContain('pass@2 100.0%');
    expect(text).toContain('pass^2 0.0%');
    // Both scenarios pass once in two runs: no spread between scenarios, so the clustered SE is 0.
    expect(text).toContain('2/4 judged runs passed (50.0% ± 0.0% [50.0%, 50.0%])');
  });

  it('errors are never in a denominator and appear beside the rates; macro = mean of splits', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep3-'));
    writeResult(d, 'search/a', { scenario_id: 'a', status: 'pass', success: true, judge_mode: 'hard-only', duration_seconds: 10, usage: REAL.llm_agent.usage });
    writeResult(d, 'search/b', { scenario_id: 'b', status: 'error', success: null, error_kind: 'provider_error', duration_seconds: 30 });
    writeResult(d, 'time/c', { scenario_id: 'c', status: 'fail', success: false, judge_mode: 'hard-only' });
    writeResult(d, 'time/d', { scenario_id: 'd', status: 'pass', success: true, judge_mode: 'hard-only', usage: REAL.judged_by_llm.usage });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.splits.search!.success_rate).toBe(1);
    expect(r.splits.time!.success_rate).toBe(0.5);
    expect(r.macro.success_rate).toBe(0.75);
    expect(r.overall.success_rate).toBeCloseTo(2 / 3);
    expect(r.judge_mode).toBe('hard-only');
    expect(r.overall.duration_seconds).toMatchObject({ total: 40, mean: 20, median: 20, known: 2 });
    expect(r.overall.usage.agent).toEqual({ input: 5183, output: 111, cache_read: 3000, cache_write: 1580, llm_calls: 3, runs: 1 });
    expect(r.overall.usage.judge).toEqual({ input: 1412, output: 12, cache_read: 512, cache_write: 0, llm_calls: 1, runs: 1 });
    // claude-sonnet-4: 3 in, 15 out, 0.30 cache read, 3.75 cache write per MTok; the judge's model has no price.
    const agentUsd = (603 * 3 + 3000 * 0.3 + 1580 * 3.75 + 111 * 15) / 1e6;
    expect(r.overall.usage.cost.agent.usd).toBeCloseTo(agentUsd, 12);
    expect(r.splits.search!.usage.cost.total_usd).toBeCloseTo(agentUsd, 12);
    expect(r.overall.usage.cost.judge).toEqual({ usd: null, priced_runs: 0, unpriced_models: ['judge-model-without-a-price'] });
    expect(r.overall.usage.cost.total_usd).toBeNull();
    expect(r.splits.time!.usage.agent.runs).toBe(0);
    expect(renderText(r)).toContain('cost unknown (no price for judge-model-without-a-price)');
    const md = renderMarkdown(r);
    expect(md).toContain('| search | 2 | 2 | — | 1 | 0 | 1 (provider_error: 1) | 0 | 100.0% |');
    expect(md).toContain('hard checks only');
    expect(renderText(r)).toContain('errors 1 (provider_error: 1)');
  });

  it("Agent2Agent app agents: a role of their own, priced at their model, in the total; shown only when present", () => {
    const d = mkdtempSync(join(tmpdir(), 'rep-a2a-'));
    const app = { model: 'claude-sonnet-4', source: 'trace', llm_calls: 4, input_tokens: 2000, output_tokens: 100, cache_read_tokens: 0, cache_write_tokens: 0 };
    writeResult(d, 'search/a', { scenario_id: 'a', status: 'pass', success: true, usage: { ...REAL.llm_agent.usage, app_agents: app } });
    writeResult(d, 'search/b', { scenario_id: 'b', status: 'pass', success: true, usage: REAL.llm_agent.usage });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.overall.usage.app_agents).toEqual({ input: 2000, output: 100, cache_read: 0, cache_write: 0, llm_calls: 4, runs: 1 });
    const appUsd = (2000 * 3 + 100 * 15) / 1e6;
    expect(r.overall.usage.cost.app_agents.usd).toBeCloseTo(appUsd, 12);
    expect(r.overall.usage.cost.total_usd).toBeCloseTo(r.overall.usage.cost.agent.usd! + appUsd, 12);
    expect(renderText(r)).toMatch(/app agents 2,000 in, 100 out, 4 calls over 1 runs, cost \$0\.0075\n.*\nCost \(agent \+ app agents \+ judge\)/);
    expect(renderMarkdown(r)).toMatch(/\| search \| app agents \| 1 \| 4 \| 2,000 \|/);
    // Without app agents nothing about them is shown.
    const plain = mkdtempSync(join(tmpdir(), 'rep-plain-'));
    writeResult(plain, 'search/b', { scenario_id: 'b', status: 'pass', success: true, usage: REAL.llm_agent.usage });
    const p = buildReport(loadRunRecords(plain), plain);
    expect(renderText(p) + renderMarkdown(p)).not.toMatch(/app agents/);
  });

  it('writeReport writes report.json and report.md', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rep4-'));
    writeResult(d, 'a', { scenario_id: 'a', success: true });
    const { report } = await writeReport(d);
    expect(report.overall.passed).toBe(1);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')).schema_version).toBe(1);
    expect(readFileSync(join(d, 'report.md'), 'utf8')).toContain('# Gaia2 report');
  });
});
