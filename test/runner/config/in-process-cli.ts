// Runs the real command tree in this process (fast; no tsx start-up), with the exit-code
// mapping of main.ts, stdout/stderr captured, cwd and env restored afterwards.
import { join } from 'node:path';
import { Command } from 'commander';
import { registerCommands } from '../../../runner/src/cli/commands/index.js';
import { exitCodeFor, formatError } from '../../../runner/src/cli/errors.js';

export async function runCliInProcess(args: string[], dir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const saved = { ...process.env };
  const cwd = process.cwd();
  Object.assign(process.env, { DOCKER_HOST: `unix://${dir}/no-engine.sock`, GAIA2_HF_CACHE: join(dir, 'hf'), ...env });
  process.chdir(dir);
  process.exitCode = undefined;
  let err = '';
  let out = '';
  const origErr = process.stderr.write.bind(process.stderr);
  const origOut = process.stdout.write.bind(process.stdout);
  process.stderr.write = ((c: string) => ((err += c), true)) as typeof process.stderr.write;
  process.stdout.write = ((c: string) => ((out += c), true)) as typeof process.stdout.write;
  let code: number;
  try {
    const program = new Command('gaia2-runner').option('--env-file <path>').exitOverride();
    registerCommands(program);
    await program.parseAsync(['node', 'gaia2-runner', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    err += formatError(e);
    code = exitCodeFor(e);
  } finally {
    process.stderr.write = origErr;
    process.stdout.write = origOut;
    process.chdir(cwd);
    process.exitCode = undefined;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  return { code, out, err };
}

