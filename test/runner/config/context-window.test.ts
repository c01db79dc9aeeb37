// [agent].context_window: only for agents with a context-window setting of their own, a whole
// number >= 1, passed as GAIA2_AGENT_CONTEXT_WINDOW and kept in the run record.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { planFromRunRecord } from '../../../runner/src/config/from-run-record.js';
import { parseRunRecord, toRecord } from '../../../runner/src/record/index.js';
import { buildBaseEnv } from '../../../runner/src/env/container-env.js';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import { defaultRunFlags } from './flag-defaults.js';

const toml = (agent: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctx-win-'));
  writeFileSync(join(dir, 's.json'), '{}');
  const f = join(dir, 'run.toml');
  writeFileSync(f, `[target]\nscenario = "s.json"\n[agent]\n${agent}\n`);
  return f;
};

describe('[agent].context_window', () => {
  it('reaches the container and the run record for an agent that has the setting', () => {
    const p = loadRunConfig(toml('name = "codex"\nprovider = "openai"\nmodel = "gpt-5"\napi_key = "sk-x"\ncontext_window = 100000'), {});
    expect(p.agent.contextWindow).toBe(100000);
    expect(buildBaseEnv(p, {}).env.GAIA2_AGENT_CONTEXT_WINDOW).toBe('100000');
    const again = planFromRunRecord(parseRunRecord({ ...toRecord(p), schema_version: 2 }, 'x.json'), '/x/run_config.json', {}, { outputDir: '/x/again' });
    expect(again.agent.contextWindow).toBe(100000);
  });
  it('is refused for an agent without one, and below 1', () => {
    expect(() => loadRunConfig(toml('name = "oracle"\ncontext_window = 1000'), {})).toThrow(/\[agent\]\.context_window applies to agents with a context-window setting of their own \(.*codex.*openclaw|openclaw.*codex.*\), not \[agent\]\.name = oracle/);
    expect(() => loadRunConfig(toml('name = "codex"\nprovider = "openai"\nmodel = "gpt-5"\napi_key = "sk-x"\ncontext_window = 0'), {})).toThrow(/\[agent\]\.context_window must be/);
  });
  it('--context-window on the command line: the same setting, the same refusals, named by the flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctx-win-flag-'));
    const scenario = join(dir, 's.json');
    writeFileSync(scenario, '{}');
    const flags = { ...defaultRunFlags(scenario), agent: 'codex', provider: 'openai', model: 'gpt-5', apiKeyEnv: 'K' };
    expect(planFromRunFlags({ ...flags, contextWindow: '64000' }, { K: 'sk-x' }).agent.contextWindow).toBe(64000);
    expect(planFromRunFlags(flags, { K: 'sk-x' }).agent.contextWindow).toBeUndefined();
    expect(() => planFromRunFlags({ ...flags, contextWindow: 'lots' }, { K: 'sk-x' })).toThrow(/--context-window must be an integer/);
    expect(() => planFromRunFlags({ ...flags, agent: 'oracle', contextWindow: '64000' }, { K: 'sk-x' })).toThrow(/--context-window applies to agents with a context-window setting of their own .*not --agent = oracle/);
  });
});
