// Older run_config.json layouts still read, through the one reader, into the typed record:
// our earlier flat-copy layout (rerunnable: its option sections are whole) and the reference
// runner's flat keys (read for reports and viewers; not rerunnable).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunRecord, recordedOptions, runRecordJson } from '../../../runner/src/record/index.js';
import { currentRecord, layoutOneFile, referenceFile } from './layouts.js';

function read(content: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'record-legacy-'));
  writeFileSync(join(dir, 'run_config.json'), JSON.stringify(content));
  return readRunRecord(dir);
}

describe('reading older layouts', () => {
  it('layout 1 (a flat copy beside the sections) reads as the same record, only its layout number differs', () => {
    const { rec } = read(layoutOneFile());
    expect(rec).toEqual({ ...currentRecord(), schema_version: 1 });
    expect(rec).not.toHaveProperty('judge_prompt_version');
    expect(recordedOptions(rec, 'f').target).toMatchObject({ kind: 'hf', language: 'spa_Latn' });
    // written again, it is in the current layout
    expect(runRecordJson(rec)).not.toHaveProperty('language');
  });

  it("layout 1 with `agent` as a plain name and agent_version beside it", () => {
    const { rec } = read({ ...layoutOneFile(), agent: 'codex', agent_version: '0.46.0' });
    expect(rec.agent).toEqual({ name: 'codex', version: '0.46.0' });
  });

  it("the reference runner's flat keys become the sections as far as they go", () => {
    const { file, rec } = read(referenceFile());
    expect(rec.schema_version).toBe(0);
    expect(rec.target).toMatchObject({ kind: 'local', path: '/data/gaia2-cli/search', recursive: true, splits: ['search'], subset: null, limit: 20 });
    expect(rec.agent_options).toMatchObject({ name: 'default', image: 'ghcr.io/meta/gaia2-oc:latest', runtime: 'podman', provider: 'openai', model: 'gpt-5', base_url: null });
    expect(rec.judge_options).toMatchObject({ provider: 'openai', model: 'gpt-4.1', base_url: null, prompt_version: null });
    expect(rec.run_options).toMatchObject({ timeout: 1800, health_timeout: 120, concurrency: 8, pass_at: 1 });
    expect(rec).toMatchObject({ started_at: '2026-05-10T12:00:43.123456+00:00', user: 'me', splits: ['search'], num_scenarios: 160, retry_num_scenarios: 25, run_id: null, agent: null });
    expect(() => recordedOptions(rec, file)).toThrow(/field "target" is missing \(a run_config\.json written before runs recorded their options cannot be rerun\)/);
  });

  it('a Hugging Face reference record (dataset id and cache dir) reads as an hf target; pass@N from total_runs', () => {
    const { rec } = read({ ...referenceFile(), dataset: 'org/gaia2', dataset_cache_dir: '/cache/org', run_number: 2, total_runs: 4 });
    expect(rec.target).toMatchObject({ kind: 'hf', repo: 'org/gaia2', revision: 'main' });
    expect(rec.dataset_cache_dir).toBe('/cache/org');
    expect(rec.run_options.pass_at).toBe(4);
    expect(rec.run_number).toBe(2);
  });

  it('ours before options were recorded: a2a_app_prop and noise still say the setting, a partial section is kept', () => {
    const { rec } = read({ agent: 'default', image: 'localhost/gaia2-agent:latest', a2a_app_prop: 1, noise: { tool_augmentation: {} }, run_options: { errors_as_failures: true } });
    expect(rec.agent2agent_options).toMatchObject({ app_prop: 1 });
    expect(rec.noise).toEqual({ tool_augmentation: {} });
    expect(rec.run_options.errors_as_failures).toBe(true);
    expect(rec.agent).toEqual({ name: 'default', version: null });
  });

  it('an older record keeps what fits when one fact does not; a current one is refused naming the field', () => {
    const { rec } = read({ ...referenceFile(), num_scenarios: 'many' });
    expect(rec.num_scenarios).toBeUndefined();
    expect(rec.agent_options!.model).toBe('gpt-5');
    expect(() => read({ ...runRecordJson(currentRecord()), num_scenarios: 'many' })).toThrow(/run_config\.json: field "num_scenarios"/);
  });
});
