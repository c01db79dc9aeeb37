// The runner's CLI as a user starts it (bin/gaia2-runner.mjs in a child process), on one e2e
// engine: exit code and output, whatever the code.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { engineEnv, type E2eEngine } from './engines.js';

const root = join(import.meta.dirname, '..', '..', '..');

export async function runCli(e: E2eEngine, args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env: engineEnv(e), maxBuffer: 1 << 26 });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (err) {
    const x = err as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}
