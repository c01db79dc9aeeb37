// Host-side checks before any container starts: `run-config --dry-run` and the flag commands
// fail with exit 2 and a message naming the option, with a suggestion for a typo'd provider.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScenario } from '../dataset/make-scenario.js';
import { runCliInProcess } from './in-process-cli.js';

// Keys a developer's shell may hold must not satisfy the "no key" cases.
const NO_KEYS = { API_KEY: '', ANTHROPIC_API_KEY: '', OPENROUTER_API_KEY: '', OPENAI_API_KEY: '', GAIA2_JUDGE_API_KEY: '' };

function project(toml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'validate-'));
  writeScenario(join(dir, 's.json'), 's');
  writeFileSync(join(dir, 'c.toml'), `[target]\nscenario = "s.json"\n${toml}`);
  return dir;
}

const dryRun = (dir: string, env: Record<string, string> = {}) => runCliInProcess(['run-config', join(dir, 'c.toml'), '--dry-run'], dir, { ...NO_KEYS, ...env });

describe('host-side validation (run-config --dry-run, run)', () => {
  it('a typo in the provider fails --dry-run with exit 2 and a suggestion', async () => {
    const dir = project('[agent]\nprovider = "antropic"\nmodel = "m"\napi_key_env = "K"\n');
    const r = await dryRun(dir, { K: 'sk-x' });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 'c.toml')}: [agent].provider: unknown provider "antropic" (did you mean anthropic?)`);
    expect(r.out).toBe(''); // nothing printed as a plan
  });

  it("the judge's provider is checked too, and named as the judge's", async () => {
    const dir = project('[agent]\nname = "oracle"\n[judge]\nprovider = "opnai"\nmodel = "m"\n');
    const r = await dryRun(dir, { OPENAI_API_KEY: 'sk-x' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('[judge].provider: unknown provider "opnai" (did you mean openai?)');
  });

  it('a provider without a key fails for the agent and for the judge, naming the variables to set', async () => {
    const agent = await dryRun(project('[agent]\nprovider = "openrouter"\nmodel = "m"\n'));
    expect(agent.code).toBe(2);
    expect(agent.err).toContain("no API key for the agent's provider openrouter: set OPENROUTER_API_KEY or API_KEY, or name a variable with [agent].api_key_env");
    const judge = await dryRun(project('[agent]\nname = "oracle"\n[judge]\nprovider = "anthropic"\nmodel = "m"\n'));
    expect(judge.code).toBe(2);
    expect(judge.err).toContain("no API key for the judge's provider anthropic: set ANTHROPIC_API_KEY or API_KEY");
    // With the key in the environment the same plan passes.
    const ok = await dryRun(project('[agent]\nname = "oracle"\n[judge]\nprovider = "anthropic"\nmodel = "m"\n'), { ANTHROPIC_API_KEY: 'sk-y' });
    expect(ok.code).toBe(0);
  });

  it('a local OpenAI-compatible server needs no key but a valid base URL', async () => {
    const ok = await dryRun(project('[agent]\nprovider = "openai-compat"\nmodel = "m"\nbase_url = "http://127.0.0.1:8000/v1"\n'));
    expect(ok.code).toBe(0);
    const bad = await dryRun(project('[agent]\nprovider = "openai-compat"\nmodel = "m"\nbase_url = "127.0.0.1:8000/v1"\n'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/\[agent\]\.base_url (is not a URL|must be an http:\/\/ or https:\/\/ URL)/);
    const none = await dryRun(project('[agent]\nprovider = "openai-compat"\nmodel = "m"\n'));
    expect(none.code).toBe(2);
    expect(none.err).toContain('[agent].base_url is required with provider openai-compat');
  });

  it('an output directory that cannot be written fails before anything starts', async () => {
    const dir = project('[agent]\nname = "oracle"\n[run]\noutput_dir = "ro/out"\n');
    mkdirSync(join(dir, 'ro'));
    chmodSync(join(dir, 'ro'), 0o555);
    const r = await dryRun(dir);
    if (process.getuid?.() === 0) {
      // root writes anywhere: the check must pass rather than guess
      expect(r.code).toBe(0);
    } else {
      expect(r.code).toBe(2);
      expect(r.err).toContain('[run].output_dir is not writable');
    }
    writeFileSync(join(dir, 'file'), 'x');
    const notDir = await runCliInProcess(['run', '-s', join(dir, 's.json'), '--agent', 'oracle', '--output-dir', join(dir, 'file', 'out')], dir, NO_KEYS);
    expect(notDir.code).toBe(2);
    expect(notDir.err).toContain(`--output-dir is not a directory: ${join(dir, 'file')}`);
  });

  it('flags are named as flags; commander usage errors exit 2', async () => {
    const dir = project('');
    const r = await runCliInProcess(['run', '-s', join(dir, 's.json'), '--provider', 'anthropc', '--model', 'm'], dir, NO_KEYS);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--provider: unknown provider "anthropc" (did you mean anthropic?)');
    const usage = await runCliInProcess(['run', '-s', join(dir, 's.json'), '--no-such-flag'], dir);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/unknown option '--no-such-flag'/);
  });
});
