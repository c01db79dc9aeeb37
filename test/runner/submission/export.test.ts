// The leaderboard export read back and checked against the format of the reference's
// submission (columns and types, config names and data-file layout, README front matter,
// statuses and scores), from a root made by the real phase runner.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { buildSubmission, writeSubmission, SUBMISSION_COLUMNS, validateRows } from '../../../runner/src/submission/index.js';
import { finishedRoot } from './phase-root.js';

const PARQUET_TYPES: Record<string, string> = { string: 'BYTE_ARRAY', int64: 'INT64', float64: 'DOUBLE', bool: 'BOOLEAN' };
const toArrayBuffer = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;

describe('submission export', () => {
  it('one parquet file per phase config with the reference columns, README front matter naming them', async () => {
    const root = await finishedRoot((id, run) => (id === 'b' && run === 3 ? 'fail' : id === 'c' && run === 1 ? { status: 'error', kind: 'health_timeout' } : 'pass'));
    const s = buildSubmission(root, { split: 'validation' });
    const paths = s.files.map((f) => f.path).sort();
    expect(paths).toEqual([
      'README.md',
      'computed_stats.json',
      'search/validation-00000-of-00001.parquet',
      'search_noise/validation-00000-of-00001.parquet',
      'time/validation-00000-of-00001.parquet',
      'time_noise/validation-00000-of-00001.parquet',
    ]);
    const file = (p: string) => toArrayBuffer(s.files.find((f) => f.path === p)!.content);
    for (const p of paths.filter((x) => x.endsWith('.parquet'))) {
      const meta = parquetMetadata(file(p));
      const cols = parquetSchema(meta).children.map((c) => [c.element.name, c.element.type, c.element.repetition_type]);
      expect(cols).toEqual(SUBMISSION_COLUMNS.map(([n, t]) => [n, PARQUET_TYPES[t], 'OPTIONAL']));
    }
    const rows = (await parquetReadObjects({ file: file('search_noise/validation-00000-of-00001.parquet') })) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(6); // 2 scenarios × 3 runs
    const b3 = rows.find((r) => r.scenario_id === 'b' && r.run_number === 3n)!;
    expect(b3).toMatchObject({ task_id: 'b', status: 'failed', score: 0, config: 'search', phase_name: 'noise', a2a_app_prop: 0, has_app_noise: true, has_env_noise: true, has_exception: false });
    expect(b3.rationale).toBe('Agent did not perform checkout'); // the judge's reason, as the run recorded it
    const data = JSON.parse(String(b3.data));
    expect(data.format).toBe('gaia2-runner/run-files@1');
    expect(data.result.scenario_id).toBe('b');
    expect(data.files['events.jsonl']).toMatch(/done b/);
    const b3Config = JSON.parse(String(b3.run_config));
    expect(b3Config.noise.tool_augmentation.tool_failure_probability).toBe(0.1);
    // its own scenario's hash, not the whole phase's table in every row
    const recorded = JSON.parse(readFileSync(join(root, 'noise', 'run_3', 'run_config.json'), 'utf8'));
    expect(Object.keys(recorded.scenario_hashes).length).toBeGreaterThan(1);
    expect(b3Config.scenario_hashes).toBeUndefined();
    expect(b3Config.scenario_hash).toBe(recorded.scenario_hashes['search/b']);
    const time = (await parquetReadObjects({ file: file('time/validation-00000-of-00001.parquet') })) as Array<Record<string, unknown>>;
    const c1 = time.find((r) => r.run_number === 1n)!;
    expect(c1).toMatchObject({ status: 'exception', score: null, has_exception: true, exception_type: 'health_timeout', exception_message: 'boom health_timeout', phase_name: 'standard', has_app_noise: false });
    // README: every config with its `<config>/<split>-*` data files, as the Hub reads them.
    const readme = new TextDecoder().decode(s.files.find((f) => f.path === 'README.md')!.content);
    const front = readme.split('---\n')[1]!;
    for (const c of ['search', 'search_noise', 'time', 'time_noise']) {
      expect(front).toContain(`- config_name: "${c}"\n  data_files:\n  - split: "validation"\n    path: "${c}/validation-*"`);
    }
    expect(front.match(/- name: "has_env_noise"\n {4}dtype: "bool"/g)).toHaveLength(4);
    const stats = JSON.parse(new TextDecoder().decode(s.files.find((f) => f.path === 'computed_stats.json')!.content));
    expect(stats).toMatchObject({ rows: 18, success: 14, configs: { search: { rows: 6, success: 5 }, time_noise: { rows: 3, exceptions: 1 } } });
    // each phase's seal travels with the export: its digests.json's own digest and what it pinned
    expect(stats.integrity.noise).toMatchObject({ sealed: true, digests_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), dataset_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), network: expect.any(String), runs: 9, network_sealed: { sealed: 0, of: 9 } }); // 3 scenarios × 3 runs (written without a sealed network)
    writeSubmission(s);
    expect(existsSync(join(root, 'submission/search_noise/validation-00000-of-00001.parquet'))).toBe(true);
    expect(readFileSync(join(root, 'submission/README.md'), 'utf8')).toBe(readme);
  });

  it("names the model and dataset from the run record, and each row's run_config is the record as written", async () => {
    const root = await finishedRoot(() => 'pass', ['standard'], 2);
    // The record's model, and a flat copy edited to differ: the export must take the record's.
    for (const k of [1, 2]) {
      const file = join(root, 'standard', `run_${k}`, 'run_config.json');
      const rec = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(file, JSON.stringify({ ...rec, model: 'flat-copy', provider: 'flat-copy', agent_options: { ...rec.agent_options, model: 'rec-model', provider: 'rec-provider' } }));
    }
    const s = buildSubmission(root, { split: 'validation' });
    const readme = new TextDecoder().decode(s.files.find((f) => f.path === 'README.md')!.content);
    expect(readme).toContain('- Model: rec-model');
    expect(readme).toContain('- Provider: rec-provider');
    expect(readme).toContain(`- Dataset: ${join(root, '..', 'data')}`);
    const rows = (await parquetReadObjects({ file: toArrayBuffer(s.files.find((f) => f.path === 'search/validation-00000-of-00001.parquet')!.content) })) as Array<Record<string, unknown>>;
    for (const r of rows) {
      const rc = JSON.parse(String(r.run_config));
      expect(rc).toMatchObject({ schema_version: 2, model: 'rec-model', provider: 'rec-provider', agent_options: { model: 'rec-model' }, run_number: Number(r.run_number) });
    }
  });

  it('validateRows names what breaks the format', () => {
    const ok = { scenario_id: 's', run_number: 1, task_id: 's', status: 'success', score: 1, config: 'search', phase_name: 'standard', a2a_app_prop: 0, has_app_noise: false, has_env_noise: false, has_exception: false };
    expect(validateRows([ok])).toEqual([]);
    expect(validateRows([{ ...ok, score: 0 }])).toEqual([expect.stringMatching(/score 0 does not match status success/)]);
    expect(validateRows([{ ...ok, status: 'pass' }])[0]).toMatch(/status pass is not one of success, failed, exception, no_validation/);
    expect(validateRows([{ ...ok, run_number: 1.5 }])[0]).toMatch(/run_number must be int64/);
    expect(validateRows([{ ...ok, extra: 'x' }])[0]).toMatch(/unknown column extra/);
    const { config: _c, ...noConfig } = ok;
    expect(validateRows([noConfig])[0]).toMatch(/missing config/);
  });

  it('a directory that is not a gaia2-run root is refused', () => {
    expect(() => buildSubmission('/nonexistent-root', { split: 'validation' })).toThrow(/not a finished gaia2-run output root/);
  });
});
