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
