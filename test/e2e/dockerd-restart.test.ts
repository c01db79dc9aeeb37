// Faults cost time, not runs (issue T): dockerd restarted in the middle of 12 oracle runs at -j 4
// (as a package upgrade or `systemctl restart docker` does: SIGTERM, which stops every container,
// then the same daemon started again on its kept data root) is waited out in the same
// invocation, without --retry: queued runs wait for the engine, the runs whose containers the
// restart stopped start again in new ones, and every run is judged a pass. The dockerd is the
// suite's private one (scripts/setup-docker.sh restart); nothing else uses it while a file runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABELS } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { connectE2eEngine, e2eEngines, engineEnv } from './helpers/engines.js';
import { passes, recordFaultFigure, resultLines, startCli } from './helpers/fault-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const docker = e2eEngines().find((e) => e.kind === 'docker');

describe.skipIf(!docker)('dockerd restarted mid-run (real Docker Engine, its containers stopped by the restart)', () => {
  it('12 oracle runs at -j 4, dockerd restarted after the second pass: 12/12 judged passes in one invocation', async () => {
    const e = docker!;
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-dockerd-restart-')), 'out');
    const args = ['run-dataset', '-d', join(root, 'examples/scenarios'), '--agent', 'oracle', '-i', image, '-j', '4', '--output-dir', out, '--timeout', '300'];
    const run = startCli(args, { ...engineEnv(e), GAIA2_RUNNER_FROM_SOURCE: '1' }, out);
    await run.untilPasses(2, 120_000);
    const runId = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_id as string;
    const before = passes(out);

    const away = Date.now();
    const restart = spawnSync('bash', [join(root, 'scripts/setup-docker.sh'), 'restart'], {
      env: { ...process.env, GAIA2_DOCKER_RUN: dirname(e.host.replace(/^unix:\/\//, '')) },
      encoding: 'utf8',
    });
    const awayS = (Date.now() - away) / 1000;
    expect(restart.status, `${restart.stdout}\n${restart.stderr}`).toBe(0);
    console.log(restart.stdout.trim());

    const code = await run.exited;
    const output = run.output();
    expect(before, 'the restart came before the end of the run').toBeLessThan(12);
    expect(code, output).toBe(0);
    const lines = resultLines(out);
    const restarts = lines.reduce((n, l) => n + (l.infra_restarts ?? 0), 0);
    console.log(`dockerd restart (${awayS.toFixed(1)} s): ${before} run(s) judged before it; restarts: ${restarts}\n${output.split('\n').filter((l) => /engine|again|Removed/.test(l)).join('\n')}`);
    expect(lines.map((l) => l.status)).toEqual(Array(12).fill('pass'));
    // The restart stopped the runs in flight: they were started again, not lost.
    expect(restarts).toBeGreaterThan(0);
    expect(output).toMatch(/engine unreachable, waiting/);
    expect(output).toMatch(/engine back after \d+s/);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ overall: { runs: 12, passed: 12, errors: 0 } });
    recordFaultFigure({ fault: 'dockerd restarted', engine: 'docker', runs: 12, passed: passes(out), restarts, fault_s: awayS, wall_s: run.elapsedMs() / 1000 });
    // Nothing of the run stays on the engine, the stopped containers of the first attempts included.
    const engine = await connectE2eEngine(e);
    const left = await engine.listByLabels({ [LABELS.runId]: runId });
    expect(left, `${JSON.stringify(left)}\n${output}`).toEqual([]);
    await engine.close();
  }, 240_000);
});
