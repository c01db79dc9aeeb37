// spec §9 test_envfile.py: run-config --dry-run gets api_key_env values from the default .env
// (found from the current directory upwards) or from --env-file before the command.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScenario } from '../dataset/make-scenario.js';
import { runCliInProcess } from './in-process-cli.js';

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'envcli-'));
  writeScenario(join(dir, 's.json'), 's');
  writeFileSync(join(dir, 'c.toml'), '[target]\nscenario = "s.json"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "ENVFILE_AGENT_KEY"\n');
  mkdirSync(join(dir, 'sub/deeper'), { recursive: true });
  return dir;
}

describe('.env and run-config --dry-run', () => {
  it('the default .env is found from the project root and from a subdirectory', async () => {
    const dir = project();
    writeFileSync(join(dir, '.env'), 'ENVFILE_AGENT_KEY=from-default-env-file\n');
    for (const cwd of [dir, join(dir, 'sub/deeper')]) {
      const r = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run'], cwd);
      expect(r.err).not.toMatch(/unset env var/);
      expect(r.code).toBe(0);
      expect(r.out).toContain('Agent API key: from $ENVFILE_AGENT_KEY');
    }
  });

  it('--env-file before the command works; without it the key is missing', async () => {
    const dir = project();
    writeFileSync(join(dir, 'keys.env'), 'ENVFILE_AGENT_KEY=from-explicit-file\n');
    const ok = await runCliInProcess(['--env-file', join(dir, 'keys.env'), 'run-config', join(dir, 'c.toml'), '--dry-run'], dir);
    expect(ok.code).toBe(0);
    expect(ok.err).toContain(`Loaded env vars from ${join(dir, 'keys.env')}`);
    const missing = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run'], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('[agent].api_key_env references an unset env var: ENVFILE_AGENT_KEY');
  });
});
