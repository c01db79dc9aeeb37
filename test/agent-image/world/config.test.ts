// The daemon's judge and idle settings from the variables the reference's entrypoint passes
// (GAIA2_JUDGE_PROMPT_VERSION, GAIA2_JUDGE_EXTRA_BODY, GAIA2_IDLE_TIMEOUT).
import { describe, expect, it } from 'vitest';
import { SettingsError, settingsFromEnv } from '../../../agent-image/src/world/config.js';

describe('judge settings and idle timeout from the environment', () => {
  it('defaults: default prompts, no extra body, the daemon\'s own 300 s', () => {
    const s = settingsFromEnv({});
    expect(s.judgePromptVersion).toBe('default');
    expect(s.judgeExtraBody).toBeUndefined();
    expect(s.idleTimeoutSec).toBe(300);
  });

  it('reads the prompt set, the extra body and a float idle timeout', () => {
    const s = settingsFromEnv({ GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-gaia2', GAIA2_JUDGE_EXTRA_BODY: '{"reasoning_effort": "low"}', GAIA2_IDLE_TIMEOUT: '600.0' });
    expect(s.judgePromptVersion).toBe('omnilingual-gaia2');
    expect(s.judgeExtraBody).toEqual({ reasoning_effort: 'low' });
    expect(s.idleTimeoutSec).toBe(600);
  });

  it('an unknown prompt set or a bad extra body stops the daemon at start, naming the variable', () => {
    expect(() => settingsFromEnv({ GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-v3' })).toThrow(SettingsError);
    expect(() => settingsFromEnv({ GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-v3' })).toThrow(
      'GAIA2_JUDGE_PROMPT_VERSION: unknown judge prompt version "omnilingual-v3" (known: default, omnilingual-gaia2)',
    );
    expect(() => settingsFromEnv({ GAIA2_JUDGE_EXTRA_BODY: 'reasoning_effort=low' })).toThrow(/^GAIA2_JUDGE_EXTRA_BODY must be a JSON object/);
    expect(() => settingsFromEnv({ GAIA2_IDLE_TIMEOUT: '0' })).toThrow('GAIA2_IDLE_TIMEOUT must be a positive number (got "0")');
  });

  it('GAIA2_CLOCK_CPU_WAIT: count unless set (the image sets exclude); anything else stops the daemon, naming the variable', () => {
    expect(settingsFromEnv({}).clockCpuWait).toBe('count');
    expect(settingsFromEnv({ GAIA2_CLOCK_CPU_WAIT: 'Exclude ' }).clockCpuWait).toBe('exclude');
    expect(() => settingsFromEnv({ GAIA2_CLOCK_CPU_WAIT: 'off' })).toThrow(/GAIA2_CLOCK_CPU_WAIT must be one of exclude, count \(got "off"\)/);
  });
});

