// GAIA2_NOISE: reference defaults for missing keys, null switches a part off, bad values name the field.
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOISE, noiseFromEnv, parseNoiseSettings } from '../../../agent-image/src/contract/noise.js';

describe('noise settings', () => {
  it('unset → standard phase; {} → the reference noise phase defaults', () => {
    expect(noiseFromEnv({})).toBeNull();
    expect(noiseFromEnv({ GAIA2_NOISE: '{}' })).toEqual(DEFAULT_NOISE);
    expect(DEFAULT_NOISE.tool_augmentation?.tool_failure_probability).toBe(0.1);
    expect(DEFAULT_NOISE.env_events?.num_env_events_per_minute).toBe(10);
  });

  it('null switches a part off; given keys override', () => {
    const s = parseNoiseSettings({ env_events: null, tool_augmentation: { tool_failure_probability: 0.5, seed: 9 } });
    expect(s.env_events).toBeNull();
    expect(s.tool_augmentation).toMatchObject({ tool_failure_probability: 0.5, seed: 9, apply_tool_name_augmentation: true });
  });

  it.each([
    ['{', /GAIA2_NOISE is not valid JSON/],
    ['[]', /GAIA2_NOISE must be a JSON object/],
    ['{"tools": {}}', /GAIA2_NOISE.tools is not a known setting/],
    ['{"tool_augmentation": {"tool_failure_probability": 2}}', /tool_failure_probability must be between 0 and 1/],
    ['{"tool_augmentation": {"apply_tool_name_augmentation": "yes"}}', /apply_tool_name_augmentation must be true or false/],
    ['{"env_events": {"env_events_seed": 1.5}}', /env_events.env_events_seed must be an integer/],
    ['{"env_events": {"weight_per_app_class": {"ShoppingApp": "x"}}}', /weight_per_app_class must map/],
  ])('%s → error naming the field', (text, re) => {
    expect(() => noiseFromEnv({ GAIA2_NOISE: text })).toThrow(re);
  });
});
