// The one writer: the typed record survives write → read unchanged; the file holds each value
// once, except the reference's flat keys (its contract), which are derived from the record and
// never read back.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunRecord, runRecordJson, writeRunRecord } from '../../../runner/src/record/index.js';
import { clearSecrets, registerSecret } from '../../../runner/src/secrets/redact.js';
import { currentRecord } from './layouts.js';

const fileOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'run_config.json'), 'utf8')) as Record<string, unknown>;

/** Our flat copies of settings that live in the record's sections; none is the reference's. */
const FORMER_COPIES = ['judge_mode', 'judge_prompt_version', 'judge_extra_body', 'idle_timeout', 'activity_timeout', 'network', 'pass_at', 'language', 'revision', 'a2a_app_prop', 'a2a_seed', 'a2a_provider', 'a2a_model', 'a2a_base_url'];

describe('writeRunRecord → readRunRecord', () => {
  it('reads back the record it wrote, field for field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-write-'));
    const rec = currentRecord();
    await writeRunRecord(dir, rec);
    expect(readRunRecord(dir).rec).toEqual(rec);
  });

  it("writes the reference's keys first, in its order, derived from the record", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-write-'));
    const rec = currentRecord();
    await writeRunRecord(dir, rec);
    const file = fileOf(dir);
    expect(Object.keys(file).slice(0, 8)).toEqual(['command', 'started_at', 'user', 'image', 'runtime', 'provider', 'model', 'base_url']);
    expect(file).toMatchObject({
      image: rec.agent_options!.image, provider: rec.agent_options!.provider, model: rec.agent_options!.model,
      judge_model: rec.judge_options!.model, judge_provider: rec.judge_options!.provider, judge_base_url: null,
      timeout: rec.run_options.timeout, health_timeout: rec.run_options.health_timeout, concurrency: rec.run_options.concurrency, limit: null,
      dataset: 'meta-agents-research-environments/gaia2-cli', dataset_cache_dir: '/cache/gaia2', splits: ['search'],
      num_scenarios: 160, run_number: 2, total_runs: rec.run_options.pass_at,
    });
  });

  it('stores no setting twice beyond those keys', () => {
    const file = runRecordJson(currentRecord());
    for (const k of FORMER_COPIES) expect(file, k).not.toHaveProperty(k);
    expect(file.schema_version).toBe(2);
  });

  it('the flat keys are not read: the record wins over an edited copy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-write-'));
    await writeRunRecord(dir, currentRecord());
    writeFileSync(join(dir, 'run_config.json'), JSON.stringify({ ...fileOf(dir), model: 'edited', judge_model: 'edited', dataset: '/elsewhere' }));
    const { rec } = readRunRecord(dir);
    expect(rec.agent_options!.model).toBe('claude-sonnet-4');
    expect(rec.judge_options!.model).toBe('gpt-4.1');
    expect(runRecordJson(rec)).toMatchObject({ model: 'claude-sonnet-4', judge_model: 'gpt-4.1', dataset: 'meta-agents-research-environments/gaia2-cli' });
  });

  it('a scenario run names its scenario and no dataset; a single run has no run_number/total_runs', () => {
    const rec = { ...currentRecord(), target: { kind: 'scenario' as const, scenario: '/s/x.json' }, run_number: undefined, num_scenarios: undefined };
    const file = runRecordJson(rec);
    expect(file).toMatchObject({ scenario: '/s/x.json', limit: null });
    for (const k of ['dataset', 'run_number', 'total_runs', 'num_scenarios']) expect(file, k).not.toHaveProperty(k);
  });

  it('a secret that reached a value is redacted in the file', () => {
    registerSecret('sk-live-secret-0123456789');
    try {
      const rec = { ...currentRecord(), user: 'sk-live-secret-0123456789' };
      expect(JSON.stringify(runRecordJson(rec))).not.toContain('sk-live-secret-0123456789');
    } finally {
      clearSecrets();
    }
  });
});
