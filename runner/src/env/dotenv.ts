// .env loading with python-dotenv semantics (docs/runner.md, ".env"): the real environment
// wins unless its value is empty, judge settings never come from a dotenv file, bare `KEY`
// lines mean an empty string and `${VAR}` is interpolated.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'dotenv';

/** Judge settings belong to the TOML or the command line, never to a .env file. */
export const BLOCKED_DOTENV_KEYS = [
  'GAIA2_JUDGE_API_KEY',
  'GAIA2_JUDGE_BASE_URL',
  'GAIA2_JUDGE_MODEL',
  'GAIA2_JUDGE_PROVIDER',
  'GAIA2_JUDGE_PROMPT_VERSION',
  'GAIA2_JUDGE_EXTRA_BODY',
] as const;

export interface DotenvLoadResult {
  path: string;
  /** Keys written into the environment, in file order. */
  written: string[];
  /** Judge keys present in the file and ignored. */
  blocked: string[];
}

export class EnvFileError extends Error {
  override name = 'ConfigError';
}

/** Parses dotenv text into ordered [key, value] pairs, interpolating `${VAR}` from `lookup`. */
export function parseDotenv(text: string, lookup: (k: string) => string | undefined): Array<[string, string]> {
  const parsed = parse(text);
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][\w.-]*)\s*(=|$)/.exec(line);
    if (!m) continue;
    const key = m[1]!;
    let value = m[2] === '=' ? (parsed[key] ?? '') : '';
    // Single-quoted values are literal in python-dotenv; everything else is interpolated.
    if (!/^(?:export\s+)?[\w.-]+\s*=\s*'/.test(line)) {
      value = value.replace(/\$\{([A-Za-z_]\w*)\}/g, (_, name: string) => lookup(name) || values.get(name) || '');
    }
    values.set(key, value);
  }
  return [...values.entries()];
}

/**
 * Loads a dotenv file into `env`. A key is written only when it is absent or empty there;
 * blocked judge keys are reported, never written.
 */
export function loadDotenv(path: string, env: NodeJS.ProcessEnv = process.env): DotenvLoadResult {
  if (!existsSync(path)) throw new EnvFileError(`env file does not exist: ${path}`);
  if (statSync(path).isDirectory()) throw new EnvFileError(`env file is a directory, expected a file: ${path}`);
  const pairs = parseDotenv(readFileSync(path, 'utf8'), (k) => env[k]);
  const written: string[] = [];
  const blocked: string[] = [];
  for (const [key, value] of pairs) {
    if ((BLOCKED_DOTENV_KEYS as readonly string[]).includes(key)) {
      blocked.push(key);
      continue;
    }
    const current = env[key];
    if (current !== undefined && current !== '') continue;
    env[key] = value;
    written.push(key);
  }
  return { path, written, blocked: blocked.sort() };
}
