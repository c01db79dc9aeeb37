// `gaia2-runner gaia2-run` on the command line (in process, --dry-run: nothing launched):
// flags or a TOML [phases] table choose the phases and runs; bad input exits 2 naming it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../config/in-process-cli.js';
import { writeScenario } from '../dataset/make-scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'gaia2-run-cli-'));
writeScenario(join(dir, 'data/search/a.json'), 'a');
const base = ['gaia2-run', '-d', 'data', '--agent', 'oracle', '--output-dir', 'out', '--dry-run'];

describe('gaia2-run command', () => {
  it('flags: the chosen phases, each with its plan; the noise phase shows its settings', async () => {
    const r = await runCliInProcess([...base, '--phases', 'noise,standard', '--runs', '2', '--noise-seed', '7'], dir);
    expect(r.code).toBe(0);
    expect(r.out.match(/=== Phase (\w+)/g)).toEqual(['=== Phase standard', '=== Phase noise']);
    expect(r.out.match(/Pass@: 2/g)).toHaveLength(2);
    expect(r.out).toMatch(/Noise: tool failures 0\.1 \(seed 7\); 10 background events\/min \(seed 7\)/);
    expect(r.out.match(/Noise:/g)).toHaveLength(1);
  });

  it('the default is all three phases; with the oracle agent, agent2agent is reported as not runnable (exit 2)', async () => {
    const r = await runCliInProcess(base, dir);
    expect(r.code).toBe(2);
    expect(r.out.match(/=== Phase (\w+)/g)).toEqual(['=== Phase standard', '=== Phase agent2agent', '=== Phase noise']);
    expect(r.err).toMatch(/Phase agent2agent not run: The app agents need a model; the oracle agent has none to share/);
  });

  it("--a2a-* flags set the agent2agent phase's app agents (every app) and leave the other phases alone", async () => {
    const r = await runCliInProcess([...base, '--a2a-provider', 'openai-compat', '--a2a-model', 'app-model', '--a2a-base-url', 'http://127.0.0.1:9/v1', '--a2a-app-prop', '0.5'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.match(/=== Phase (\w+)/g)).toEqual(['=== Phase standard', '=== Phase agent2agent', '=== Phase noise']);
    // The phase's app_prop is the reference's 1.0, whatever the flag says; only that phase has app agents.
    expect(r.out.match(/Agent2Agent: app agents operate 100% of each scenario's apps/g)).toHaveLength(1);
    expect(r.out.match(/App agents: openai-compat\/app-model at http:\/\/127\.0\.0\.1:9\/v1/g)).toHaveLength(1);
    // The same from a TOML [agent2agent] table without app_prop (the phase sets it).
    writeFileSync(join(dir, 'a2a.toml'), '[target]\ndataset_root = "data"\n[agent]\nname = "oracle"\n[run]\noutput_dir = "out"\n[agent2agent]\nprovider = "openai-compat"\nmodel = "app-model"\n');
    const t = await runCliInProcess(['gaia2-run', '--config', 'a2a.toml', '--dry-run'], dir);
    expect([t.code, t.err]).toEqual([0, '']);
    expect(t.out.match(/App agents: openai-compat\/app-model/g)).toHaveLength(1);
  });

  it('a TOML [phases] table picks phases and runs; flags win over it', async () => {
    writeFileSync(join(dir, 'g.toml'), '[target]\ndataset_root = "data"\n[agent]\nname = "oracle"\n[run]\noutput_dir = "out"\n[phases]\nphases = ["noise"]\nruns = 4\n');
    const r = await runCliInProcess(['gaia2-run', '--config', 'g.toml', '--dry-run'], dir);
    expect(r.code).toBe(0);
    expect(r.out.match(/=== Phase (\w+)/g)).toEqual(['=== Phase noise']);
    expect(r.out).toMatch(/Pass@: 4/);
    const f = await runCliInProcess(['gaia2-run', '--config', 'g.toml', '--dry-run', '--runs', '1'], dir);
    expect(f.out).toMatch(/Pass@: 1/);
  });

  it.each([
    [['--phases', 'standard,bogus'], /--phases: unknown phase\(s\) bogus/],
    [['--runs', '0'], /--runs must be an integer >= 1/],
    [['--pass-at', '3'], /sets the runs per scenario with --runs/],
    [['--hf-upload', 'not-a-repo'], /--hf-upload must be a Hugging Face dataset id/],
    [['--mini-subset', 'missing.json'], /--mini-subset does not exist/],
  ])('%s → exit 2 naming the problem', async (extra, re) => {
    const r = await runCliInProcess([...base, ...extra], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(re);
  });

  it('needs a dataset or a config, not both', async () => {
    expect((await runCliInProcess(['gaia2-run', '--output-dir', 'out'], dir)).err).toMatch(/needs --dataset .* or --config/);
    const both = await runCliInProcess(['gaia2-run', '--config', 'g.toml', '-d', 'data'], dir);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/not both/);
  });
});
