// `gaia2-runner view` and `compare` as a user runs them (subprocess, sources through tsx).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRun } from './synthetic.js';

const run = promisify(execFile);
const cli = (args: string[]) =>
  run(process.execPath, ['bin/gaia2-runner.mjs', ...args], { env: { ...process.env, GAIA2_RUNNER_FROM_SOURCE: '1' }, timeout: 60_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-cli-'));
  writeRun(join(dir, 'run_1'), [{ id: 's1', status: 'pass' }]);
  writeRun(join(dir, 'run_2'), [{ id: 's1', status: 'fail' }]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('view / compare commands', () => {
  it('view builds a pass@N root and reports the pages', async () => {
    const r = await cli(['view', '--output-dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Viewer: 6 pages \(6 rewritten\)/);
    expect(existsSync(join(dir, 'run_2', 's1', 'trace.html'))).toBe(true);
  }, 90_000);

  it('compare writes a page; a missing directory is a usage error (exit 2)', async () => {
    const out = join(dir, 'cmp', 'c.html');
    const ok = await cli(['compare', join(dir, 'run_1'), join(dir, 'run_2'), '-o', out]);
    expect(ok.code).toBe(0);
    expect(existsSync(out) && existsSync(join(dir, 'cmp', '_viewer.js'))).toBe(true);
    const bad = await cli(['view', '--output-dir', join(dir, 'nope')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a directory');
  }, 90_000);
});
