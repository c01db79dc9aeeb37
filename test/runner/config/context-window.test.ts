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
});
