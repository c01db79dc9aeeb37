// [run].engine_outage_wait_s and --engine-outage-wait: 60 s by default, 0 = never wait, a
// negative or non-integer value exits 2 naming the file (TOML) or the flag, and the field;
// recorded in run_config.json, outside the result cache's key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import { toRecord } from '../../../runner/src/record/index.js';
import { cacheKeyOptions } from '../../../runner/src/record/cache-key.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';

const dir = mkdtempSync(join(tmpdir(), 'outage-config-'));
const scenario = writeScenario(join(dir, 's.json'), 's');
const toml = (run: string) => {
  const file = join(dir, `c-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, `[target]\nscenario = "s.json"\n[agent]\nname = "oracle"\n[run]\n${run}\n`);
  return file;
};
const oracle = { ...defaultRunFlags(scenario), agent: 'oracle' as const };

describe('[run].engine_outage_wait_s', () => {
  it('defaults to 60 s; 0 and other seconds are taken', () => {
    expect(loadRunConfig(toml(''), {}).run.engineOutageWait).toBe(60);
    expect(loadRunConfig(toml('engine_outage_wait_s = 0'), {}).run.engineOutageWait).toBe(0);
    expect(loadRunConfig(toml('engine_outage_wait_s = 300'), {}).run.engineOutageWait).toBe(300);
  });

  it.each([
    ['-1', /: \[run\]\.engine_outage_wait_s must be >= 0 \(got -1\)/],
    ['"60"', /: \[run\]\.engine_outage_wait_s must be an integer/],
    ['2.5', /: \[run\]\.engine_outage_wait_s must be an integer/],
  ])('= %s is refused, naming the file and the field', (value, message) => {
    const file = toml(`engine_outage_wait_s = ${value}`);
    expect(() => loadRunConfig(file, {})).toThrow(message);
    expect(() => loadRunConfig(file, {})).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });
});

describe('--engine-outage-wait', () => {
  it('sets the wait; bad values name the flag', () => {
    expect(planFromRunFlags(oracle, {}).run.engineOutageWait).toBe(60);
    expect(planFromRunFlags({ ...oracle, engineOutageWait: '0' }, {}).run.engineOutageWait).toBe(0);
    expect(planFromRunFlags({ ...oracle, engineOutageWait: '120' }, {}).run.engineOutageWait).toBe(120);
    expect(() => planFromRunFlags({ ...oracle, engineOutageWait: '-5' }, {})).toThrow('--engine-outage-wait must be >= 0 (got -5)');
    expect(() => planFromRunFlags({ ...oracle, engineOutageWait: 'long' }, {})).toThrow('--engine-outage-wait must be an integer (got "long")');
  });

  it('is recorded in run_config.json and is not part of the result cache key', () => {
    const rec = toRecord(planFromRunFlags({ ...oracle, engineOutageWait: '90' }, {}));
    expect(rec.run_options.engine_outage_wait_s).toBe(90);
    const key = cacheKeyOptions(rec) as { run_options: Record<string, unknown> };
    expect('engine_outage_wait_s' in key.run_options).toBe(false);
  });
});
