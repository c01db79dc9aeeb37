// gaia2-run through the real CLI and real containers: the oracle on the bundled samples'
// smoke subset, the standard and noise phases twice each into one root with a report per
// phase and the overall table; the agent2agent phase reported as not run where this build
// lacks it; --retry then finds nothing to redo.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import type { PhasesReport } from '../../runner/src/phases/overall-report.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, maxBuffer: 1 << 26 });
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
    const first = await cli(args);
    // agent2agent cannot run in a build without it: exit 2, the other phases ran.
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

    const again = await cli([...args, '--phases', 'standard,noise', '--retry']);
    expect(again.code).toBe(0);
    expect((again.out + again.err).match(/Retry: 0 run\(s\) to redo/g)).toHaveLength(2);
  });
});
