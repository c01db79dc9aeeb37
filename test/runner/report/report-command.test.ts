import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../config/in-process-cli.js';

describe('report command', () => {
  it('rebuilds report.json and report.md of a pass@N root and prints the summary', async () => {
    const d = mkdtempSync(join(tmpdir(), 'repcmd-'));
    const put = (rel: string, r: object) => {
      mkdirSync(join(d, rel), { recursive: true });
      writeFileSync(join(d, rel, 'result.json'), JSON.stringify(r));
    };
    put('run_1/time/a', { scenario_id: 'a', status: 'pass', success: true });
    put('run_2/time/a', { scenario_id: 'a', status: 'error', success: null, error_kind: 'health_timeout' });
    const r = await runCliInProcess(['report', '--output-dir', d], d);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1/1 judged runs passed');
    expect(r.out).toContain('health_timeout: 1');
    const rep = JSON.parse(readFileSync(join(d, 'report.json'), 'utf8'));
    expect(rep.num_runs).toBe(2);
    expect(rep.splits.time.pass_at_k['2'].scenarios_counted).toBe(0); // one judged run < k
  });

  it('prints the header a paper needs from run_config.json, and --format json|csv|md', async () => {
    const d = mkdtempSync(join(tmpdir(), 'repcmd-'));
    writeFileSync(join(d, 'run_config.json'), JSON.stringify({ model: 'claude-sonnet-4', provider: 'anthropic', agent: 'default', judge_model: 'gpt-4.1', judge_provider: 'openai', dataset: 'org/gaia2', revision: 'main', dataset_revision_sha: 'abc123', pass_at: 1, started_at: '2026-01-02T03:04:05.000Z', image: 'localhost/gaia2-agent:latest', image_id: 'sha256:0123456789abcdef0123' }));
    for (const [id, ok] of [['a', true], ['b', false], ['c', true]] as const) {
      mkdirSync(join(d, 'search', id), { recursive: true });
      writeFileSync(join(d, 'search', id, 'result.json'), JSON.stringify({ scenario_id: id, status: ok ? 'pass' : 'fail', success: ok }));
    }
    const text = await runCliInProcess(['report', '--output-dir', d], d);
    expect(text.out).toContain('Model: claude-sonnet-4 (anthropic)');
    expect(text.out).toContain('Judge: gpt-4.1 (openai)');
    expect(text.out).toContain('Dataset: org/gaia2 @ abc123');
    expect(text.out).toContain('Runs per scenario (N): 1');
    expect(text.out).toContain('Started: 2026-01-02T03:04:05.000Z');
    expect(text.out).toContain('Image: localhost/gaia2-agent:latest (sha256:0123456789ab…)');
    // pass@1 over 3 scenarios: SE = √(p(1−p)/(m−1)) = √((2/3)(1/3)/2) = 33.3%
    expect(text.out).toContain('2/3 judged runs passed (66.7% ± 33.3% [1.3%, 100.0%])');
    const json = await runCliInProcess(['report', '--output-dir', d, '--format', 'json'], d);
    expect(JSON.parse(json.out).meta).toMatchObject({ model: 'claude-sonnet-4', revision: 'abc123', pass_at: 1 });
    const csv = await runCliInProcess(['report', '--output-dir', d, '--format', 'csv'], d);
    expect(csv.out.split('\n')[2]).toMatch(/^overall,3,3,3,2,1,0,0\.666/);
    const md = await runCliInProcess(['report', '--output-dir', d, '--format', 'md'], d);
    expect(md.out).toBe(readFileSync(join(d, 'report.md'), 'utf8'));
    const bad = await runCliInProcess(['report', '--output-dir', d, '--format', 'xml'], d);
    expect(bad.code).toBe(2);
  });

  it("keeps the run's recorded error policy; the flag and its negation override it", async () => {
    const d = mkdtempSync(join(tmpdir(), 'repcmd-'));
    writeFileSync(join(d, 'run_config.json'), JSON.stringify({ agent: 'oracle', run_options: { errors_as_failures: true } }));
    for (const [id, r] of [['a', { status: 'pass', success: true }], ['b', { status: 'error', success: null, error_kind: 'health_timeout' }]] as const) {
      mkdirSync(join(d, 'search', id), { recursive: true });
      writeFileSync(join(d, 'search', id, 'result.json'), JSON.stringify({ scenario_id: id, ...r }));
    }
    const policy = async (...flags: string[]) => {
      const r = await runCliInProcess(['report', '--output-dir', d, '--format', 'json', ...flags], d);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      return [j.errors_policy, j.overall.success_rate];
    };
    expect(await policy()).toEqual(['as-failures', 0.5]);
    expect(await policy('--no-errors-as-failures')).toEqual(['excluded', 1]);
    writeFileSync(join(d, 'run_config.json'), JSON.stringify({ agent: 'oracle', run_options: {} }));
    expect(await policy()).toEqual(['excluded', 1]);
    expect(await policy('--errors-as-failures')).toEqual(['as-failures', 0.5]);
  });

  it('a missing directory is a usage error', async () => {
    const d = mkdtempSync(join(tmpdir(), 'repcmd-'));
    const r = await runCliInProcess(['report', '--output-dir', join(d, 'nope')], d);
    expect(r.code).toBe(2);
    expect(r.err).toContain('is not a directory');
  });
});

describe('doctor command', () => {
  it('reports each check with a fix hint and exits 1 when one fails', async () => {
    const d = mkdtempSync(join(tmpdir(), 'doctor-'));
    mkdirSync(join(d, 'data'));
    writeFileSync(join(d, 'c.toml'), '[target]\ndataset_root = "data"\n[agent]\nprovider = "openai"\nmodel = "m"\n');
    const r = await runCliInProcess(['doctor', '--config', join(d, 'c.toml')], d, { OPENAI_API_KEY: '', API_KEY: '', PATH: '/nonexistent' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/ok {3}config: /);
    expect(r.out).toMatch(/FAIL engine: .*\n {5}fix: /);
    expect(r.out).toMatch(/FAIL agent key: openai: none of OPENAI_API_KEY, API_KEY is set\n {5}fix: export OPENAI_API_KEY/);
    expect(r.out).toMatch(/ok {3}judge key: no judge LLM: hard checks only/);
    expect(r.out).toMatch(/ok {3}dataset: .*data exists/);
  }, 30_000);
});
