// Config path resolution (docs/runner.md, "Paths in the TOML"): $VAR/${VAR} from the environment, leading ~,
// leftover variables are an error, relative paths are relative to the config file.
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../plan/errors.js';

export function expandVars(raw: string, env: Record<string, string | undefined>): string {
  return raw.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a?: string, b?: string) => {
    const v = env[(a ?? b)!];
    return v === undefined ? m : v;
  });
}

/** Resolves one configured path; `name` (e.g. `[run].output_dir`) is used in errors. */
export function resolveConfigPath(raw: string, name: string, baseDir: string, env: Record<string, string | undefined>): string {
  let p = expandVars(raw, env);
  if (p === '~' || p.startsWith('~/')) p = join(homedir(), p.slice(1));
  const left = [...p.matchAll(/\$\{([^}]*)\}|\$([A-Za-z_]\w*)/g)].map((m) => (m[1] ?? m[2])!);
  if (left.length) throw new ConfigError(`${name} references unset env var(s): ${[...new Set(left)].sort().join(', ')}`);
  const abs = isAbsolute(p) ? resolve(p) : resolve(baseDir, p);
  return existsSync(abs) ? realpathSync(abs) : abs;
}
