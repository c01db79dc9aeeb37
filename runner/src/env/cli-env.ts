// The global --env-file option: an explicit file must exist; otherwise the first `.env`
// found from the current directory upwards is loaded when there is one.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadDotenv, type DotenvLoadResult } from './dotenv.js';

export function findDefaultEnvFile(from = process.cwd()): string | null {
  let dir = resolve(from);
  for (;;) {
    const f = join(dir, '.env');
    if (existsSync(f)) return f;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** Loads the env file for a command and writes the notices to `say` (stderr). */
export function loadEnvForCli(envFile: string | undefined, say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): DotenvLoadResult | null {
  const path = envFile ? resolve(envFile) : findDefaultEnvFile();
  if (!path) return null;
  const r = loadDotenv(path, env);
  if (r.blocked.length) say(`Ignoring judge defaults from .env; keep judge config in TOML or CLI: ${r.blocked.join(', ')}`);
  if (r.written.length) say(`Loaded env vars from ${path}`);
  else if (envFile) say(`Read env file ${path} (existing environment kept precedence)`);
  return r;
}
