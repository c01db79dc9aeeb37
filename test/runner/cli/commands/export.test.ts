// `gaia2-runner export RUN_DIR --format atif`: exit 0 with the files written, 2 on bad input
// with the path named.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../config/in-process-cli.js';
import { copyRecordedRun, THIRD_PARTY_SCENARIO } from '../../../helpers/recorded-runs.js';

let cleanup = (): void => {};
afterEach(() => cleanup());

describe('gaia2-runner export', () => {
  it('writes one trajectory per scenario run, under <run-dir>/atif by default', async () => {
    const copied = copyRecordedRun('third-party-runs/codex');
    cleanup = copied.cleanup;
    const r = await runCliInProcess(['export', copied.dir, '--format', 'atif'], copied.dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Wrote 1 ATIF trajectory to ${join(copied.dir, 'atif')}`);
    expect(existsSync(join(copied.dir, 'atif', THIRD_PARTY_SCENARIO, 'trajectory.json'))).toBe(true);
  });

  it('--output chooses the folder', async () => {
    const copied = copyRecordedRun('third-party-runs/codex');
    cleanup = copied.cleanup;
    const out = join(copied.dir, '..', 'elsewhere');
    const r = await runCliInProcess(['export', copied.dir, '--format', 'atif', '--output', out], copied.dir);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, THIRD_PARTY_SCENARIO, 'trajectory.json'))).toBe(true);
  });

  it('a missing run dir or one that is no run: exit 2, the path named', async () => {
    const copied = copyRecordedRun('third-party-runs/codex');
    cleanup = copied.cleanup;
    const missing = join(copied.dir, 'nope');
    const a = await runCliInProcess(['export', missing, '--format', 'atif'], copied.dir);
    expect(a.code).toBe(2);
    expect(a.err).toContain(`no such directory: ${missing}`);
    const b = await runCliInProcess(['export', join(copied.dir, '..'), '--format', 'atif', '--output', join(copied.dir, 'x')], copied.dir);
    expect(b.code).toBe(0); // the parent holds the run: exported too
    const c = await runCliInProcess(['export', join(copied.dir, 'x', 'run'), '--format', 'atif'], copied.dir);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/not a run directory: .*x\/run/);
  });

  it('the format is required and checked', async () => {
    const r = await runCliInProcess(['export', '.', '--format', 'parquet'], process.cwd());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/atif/);
    const help = await runCliInProcess(['export', '--help'], process.cwd());
    expect(help.out + help.err).toMatch(/\$ gaia2-runner export runs\/claude --format atif/);
  });
});
