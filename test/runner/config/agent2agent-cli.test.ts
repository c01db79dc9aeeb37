// The Agent2Agent options through the real command line (commander, in-process): run-config
// --a2a-app-prop over the TOML table, run --a2a-*, and exit code 2 naming the option on bad input.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScenario } from '../dataset/make-scenario.js';
import { runCliInProcess } from './in-process-cli.js';

function project(table = '') {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-cli-'));
  writeScenario(join(dir, 's.json'), 's');
  writeFileSync(join(dir, 'c.toml'), `[target]\nscenario = "s.json"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "A2A_CLI_MAIN_KEY"\n${table}`);
  writeFileSync(join(dir, '.env'), 'A2A_CLI_MAIN_KEY=main-secret-value\nA2A_CLI_APP_KEY=app-secret-value\n');
  return dir;
}

describe('Agent2Agent on the command line', () => {
  it('run-config --dry-run shows the [agent2agent] settings, and --a2a-app-prop replaces app_prop', async () => {
    const dir = project('[agent2agent]\napp_prop = 0.5\nmodel = "small"\napi_key_env = "A2A_CLI_APP_KEY"\n');
    const r = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Agent2Agent: app agents operate 50% of each scenario's apps (seed: the scenario's)");
    expect(r.out).toContain('App agents: openai/small; API key: from $A2A_CLI_APP_KEY');
    expect(r.out + r.err).not.toContain('app-secret-value');
    const over = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run', '--a2a-app-prop', '1'], dir);
    expect(over.out).toContain('app agents operate 100%');
  });

  it('run parses the --a2a-* flags and validates them before launching anything', async () => {
    const dir = project();
    // A scripted main agent has no model for the app agents to share.
    const r = await runCliInProcess(['run', '--scenario', join(dir, 's.json'), '--agent', 'scripted', '--script', join(dir, 's.json'), '--a2a-app-prop', '1'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Missing: --a2a-provider, --a2a-model/);
    const seed = await runCliInProcess(['run', '--scenario', join(dir, 's.json'), '--agent', 'oracle', '--a2a-app-prop', '1', '--a2a-seed', 'x'], dir);
    expect(seed.code).toBe(2);
    expect(seed.err).toMatch(/--a2a-seed must be an integer/);
  });

  it('bad input is exit code 2 and names the option', async () => {
    const dir = project();
    const r = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run', '--a2a-app-prop', 'lots'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--a2a-app-prop must be a number (got "lots")');
    const t = await runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run', '--a2a-app-prop', '7'], dir);
    expect(t.code).toBe(2);
    expect(t.err).toContain('[agent2agent].app_prop must be a number from 0 to 1 (got 7)');
  });
});
