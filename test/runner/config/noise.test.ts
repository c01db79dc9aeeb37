// [noise] table and --noise flags → the GAIA2_NOISE settings the image reads.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOISE, parseNoiseSettings } from '@gaia2/contract/noise';
import { planFromRunFlags, type AgentFlags } from '../../../runner/src/config/cli-flags.js';
import { noiseFromFlags } from '../../../runner/src/config/noise.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { buildBaseEnv } from '../../../runner/src/env/container-env.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';

const dir = mkdtempSync(join(tmpdir(), 'noise-cfg-'));
const scenario = writeScenario(join(dir, 's.json'), 's');
const load = (extra: string) => {
  writeFileSync(join(dir, 'c.toml'), `[target]\nscenario = "s.json"\n[agent]\nname = "oracle"\n${extra}`);
  return loadRunConfig(join(dir, 'c.toml'), {});
};
const flags: AgentFlags & { scenario: string } = { ...defaultRunFlags(scenario), agent: 'oracle' };

describe('[noise] table', () => {
  it('absent → standard phase; an empty table → the reference noise phase', () => {
    expect(load('').noise).toBeNull();
    expect(load('[noise]\n').noise).toEqual(DEFAULT_NOISE);
    expect(load('[noise]\nenabled = false\n').noise).toBeNull();
  });

  it('seed sets both streams unless one is given; parts switch off; values pass through', () => {
    const n = load('[noise]\nseed = 5\nenv_events_seed = 9\ntool_failure_probability = 0.25\nnum_env_events_per_minute = 3\nweight_per_app_class = { EmailClientApp = 2, ShoppingApp = 0 }\n').noise!;
    expect(n.tool_augmentation).toMatchObject({ seed: 5, tool_failure_probability: 0.25 });
    expect(n.env_events).toMatchObject({ env_events_seed: 9, num_env_events_per_minute: 3, weight_per_app_class: { EmailClientApp: 2, ShoppingApp: 0 } });
    expect(load('[noise]\ntool_augmentation = false\n').noise).toEqual({ tool_augmentation: null, env_events: DEFAULT_NOISE.env_events });
    expect(load('[noise]\nenv_events = false\n').noise?.env_events).toBeNull();
    // What the runner sends is what the image accepts.
    expect(parseNoiseSettings(JSON.parse(JSON.stringify(n)))).toEqual(n);
  });

  it.each([
    ['tool_failure_probability = 1.5', /\[noise\]\.tool_failure_probability must be between 0 and 1/],
    ['seed = 1.5', /seed/],
    ['n_item_events_per_product = 0', /\[noise\]\.n_item_events_per_product must be >= 1/],
    ['failure_rate = 0.2', /failure_rate/],
    ['weight_per_app_class = { EmailClientApp = -1 }', /weight_per_app_class\.EmailClientApp must be >= 0/],
  ])('%s → error naming the key', (line, re) => {
    expect(() => load(`[noise]\n${line}\n`)).toThrow(re);
  });
});

describe('--noise flags', () => {
  it('--noise gives the reference defaults; tuning flags apply; they need --noise', () => {
    expect(planFromRunFlags(flags, {}).noise).toBeNull();
    expect(planFromRunFlags({ ...flags, noise: true }, {}).noise).toEqual(DEFAULT_NOISE);
    const n = noiseFromFlags({ noise: true, noiseSeed: '3', toolFailureProbability: '0.5', envEventsPerMinute: '2' })!;
    expect(n.tool_augmentation).toMatchObject({ seed: 3, tool_failure_probability: 0.5 });
    expect(n.env_events).toMatchObject({ env_events_seed: 3, num_env_events_per_minute: 2 });
    expect(() => noiseFromFlags({ noiseSeed: '3' })).toThrow(/need --noise/);
    expect(() => noiseFromFlags({ noise: true, noiseSeed: 'x' })).toThrow(/--noise-seed must be an integer/);
    expect(() => noiseFromFlags({ noise: true, toolFailureProbability: '2' })).toThrow(/--tool-failure-probability must be between 0 and 1/);
  });

  it('reaches the container as GAIA2_NOISE JSON and shows in the summary', () => {
    const plan = planFromRunFlags({ ...flags, noise: true, noiseSeed: '4' }, {});
    const env = buildBaseEnv(plan, {}).env;
    expect(JSON.parse(env.GAIA2_NOISE!)).toEqual(plan.noise);
    expect(formatSummary(plan, null).join('\n')).toMatch(/Noise: tool failures 0\.1 \(seed 4\); 10 background events\/min \(seed 4\)/);
    expect(buildBaseEnv(planFromRunFlags(flags, {}), {}).env.GAIA2_NOISE).toBeUndefined();
  });
});
