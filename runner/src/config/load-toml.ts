// run-config: TOML file → validated table data, with errors that name the file, the table,
// the key, and the nearest known key for typos.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { ConfigError } from '../plan/errors.js';
import { nearestName } from '../plan/suggest.js';
import { ConfigFile, TABLE_KEYS, type ConfigFileData } from './toml-schema.js';

function describe(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return 'a list';
  if (v && typeof v === 'object') return 'a table';
  return String(v);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const k of path) cur = (cur as Record<PropertyKey, unknown> | undefined)?.[k];
  return cur;
}

function issueText(issue: z.core.$ZodIssue, data: unknown): string {
  // Array indices (a list of tables such as [[kubernetes.tolerations]]) name no table.
  const names = issue.path.filter((p): p is string => typeof p === 'string');
  const [table, key] = names;
  if (issue.code === 'unrecognized_keys') {
    const tablePath = names.join('.');
    const where = table === undefined ? 'top level' : `[${tablePath}]`;
    const known = TABLE_KEYS[tablePath] ?? [];
    const parts = issue.keys.map((k) => {
      const near = nearestName(k, known);
      return near ? `${k} (did you mean "${near}"?)` : k;
    });
    const what = table === undefined ? 'table(s)/key(s)' : 'field(s)';
    return `${where} has unknown ${what}: ${parts.join(', ')}; known: ${known.join(', ')}`;
  }
  if (table === undefined) return issue.message;
  if (key === undefined) {
    if (valueAt(data, [table]) === undefined) return `[${table}] table is missing`;
    return `[${table}] must be a TOML table`;
  }
  const got = valueAt(data, issue.path);
  return `[${table}].${names.slice(1).join('.')} ${issue.message}${got === undefined ? '' : ` (got ${describe(got)})`}`;
}

const LEGACY: Array<[string, string, string]> = [
  ['judge', 'endpoint', '[judge].endpoint has been renamed to [judge].base_url'],
  ['run', 'smart_pass_at', '[run].smart_pass_at has been removed; use [run].pass_at'],
];

export function readConfigFile(file: string): ConfigFileData {
  if (!existsSync(file)) throw new ConfigError(`config file does not exist: ${file}`);
  if (statSync(file).isDirectory()) throw new ConfigError(`config path is a directory, expected a TOML file: ${file}`);
  let data: Record<string, unknown>;
  try {
    data = parse(readFileSync(file, 'utf8'), { integersAsBigInt: true }) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) throw new ConfigError(`${file}:${e.line}:${e.column}: invalid TOML: ${e.message.split('\n')[0]}`);
    throw e;
  }
  for (const [t, k, msg] of LEGACY) {
    const table = data[t];
    if (table && typeof table === 'object' && k in table) throw new ConfigError(`${file}: ${msg}`);
  }
  const r = ConfigFile.safeParse(data);
  if (!r.success) {
    const lines = r.error.issues.slice(0, 5).map((i) => issueText(i, data));
    throw new ConfigError(`${file}: ${lines.join('; ')}`);
  }
  // The schema is the main tables extended by each backend's own: the backend tables' types are their providers'.
  return r.data as ConfigFileData;
}
