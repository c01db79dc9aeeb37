// gaia2-run through the real CLI and real containers: the oracle on the bundled samples'
// smoke subset, the standard and noise phases twice each into one root with a report per
// phase and the overall table; the agent2agent phase reported as not run (the oracle has no
// model for the app agents); the submission dataset written and uploaded to the Hub double; --retry then
// finds nothing to redo.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../helpers/fake-hub/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import type { PhasesReport } from '../../runner/src/phases/overall-report.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

let hub: FakeHub;
beforeAll(async () => {
  hub = await startFakeHub();
});
afterAll(async () => {
  await hub?.stop();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const env = { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_e2e_token_123456' };
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env, maxBuffer: 1 << 26 });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

describe('gaia2-run (real containers)', () => {
  it('runs the phases into one root with per-phase reports and the overall table, and resumes', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-phases-')), 'run');
    const args = ['gaia2-run', '-d', 'examples/scenarios', '--subset', 'examples/datasets/smoke.json', '--agent', 'oracle', '-j', '3', '--image', image, '--runs', '2', '--output-dir', out];
    const first = await cli([...args, '--hf-upload', 'e2e-org/gaia2-traces']);
    // agent2agent cannot run without a model for its app agents: exit 2, the other phases ran.
    expect(first.code).toBe(2);
    expect(first.err).toMatch(/Phase agent2agent not run/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as PhasesReport;
    expect(report.runs_per_scenario).toBe(2);
    expect(report.phases.map((p) => [p.phase, p.status])).toEqual([['standard', 'ran'], ['agent2agent', 'error'], ['noise', 'ran']]);
    for (const p of [report.phases[0]!, report.phases[2]!]) expect(p.overall).toMatchObject({ scenarios: 5, runs: 10, passed: 10, errors: 0 });
    // The noise phase's runs carry their noise record; the standard ones do not.
    expect(existsSync(join(out, 'noise/run_1/time/time_calendar_boat_trip/noise.jsonl'))).toBe(true);
    expect(existsSync(join(out, 'standard/run_1/time/time_calendar_boat_trip/noise.jsonl'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'noise/run_1/run_config.json'), 'utf8')).noise.env_events.num_env_events_per_minute).toBe(10);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/\| noise \| 5 \| 10 \| 10 \| 0 \| 0 \| 100\.0%/);

    // The leaderboard dataset: one parquet file per phase config, uploaded privately.
    for (const c of ['execution', 'search', 'ambiguity', 'adaptability', 'time', 'execution_noise', 'time_noise']) {
      const p = `${c}/validation-00000-of-00001.parquet`;
      expect(existsSync(join(out, 'submission', p))).toBe(true);
      expect(hub.getFile('e2e-org/gaia2-traces', p)?.equals(readFileSync(join(out, 'submission', p)))).toBe(true);
    }
    expect(hub.repos.get('e2e-org/gaia2-traces')?.private).toBe(true);
    expect(first.out).toMatch(/Submission: .* 20 rows, 20 successful/);
    expect(first.out + first.err).not.toContain('hf_e2e_token_123456');

    const again = await cli([...args, '--phases', 'standard,noise', '--retry']);
    expect(again.code).toBe(0);
    expect((again.out + again.err).match(/Retry: 0 run\(s\) to redo/g)).toHaveLength(2);
  });
});
