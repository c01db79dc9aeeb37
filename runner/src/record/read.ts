// Finding and reading a run record: a run directory's run_config.json, or — for a pass@N root,
// whose run_k/ directories each hold one with the same options — run_1's.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../plan/errors.js';
import { RecordedOptions } from './schema.js';

export type RunRecord = Record<string, unknown>;

/** The run_config.json a path stands for: the file itself, <dir>/run_config.json, else <dir>/run_1/run_config.json. */
export function runRecordFile(path: string): string {
  const isDir = existsSync(path) && statSync(path).isDirectory();
  if (!isDir) return path;
  const own = join(path, 'run_config.json');
  return existsSync(own) ? own : join(path, 'run_1', 'run_config.json');
}

/** The record, or a ConfigError naming the file when there is none or it is not a JSON object. */
export function readRunRecord(path: string): { file: string; rec: RunRecord } {
  const file = runRecordFile(path);
  let rec: unknown;
  try {
    rec = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read a run record: ${(e as Error).message}`);
  }
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) throw new ConfigError(`${file}: a run record must be a JSON object`);
  return { file: resolve(file), rec: rec as RunRecord };
}

/** The record when there is a readable one, else null (reports and exports of partial runs). */
export function findRunRecord(path: string): RunRecord | null {
  try {
    return readRunRecord(path).rec;
  } catch (e) {
    if (e instanceof ConfigError) return null;
    throw e;
  }
}

const SECTIONS = ['target', 'agent_options', 'run_options'] as const;

/** The record's options, checked: a wrong field is named with its file. */
export function recordedOptions(rec: RunRecord, file: string): RecordedOptions {
  for (const k of SECTIONS)
    if (!rec[k] || typeof rec[k] !== 'object') throw new ConfigError(`${file}: field "${k}" is missing (a run_config.json written before runs recorded their options cannot be rerun)`);
  const r = RecordedOptions.safeParse(rec);
  if (r.success) return r.data;
  throw new ConfigError(`${file}: ${r.error.issues.map(issueText).join('; ')}`);
}

function issueText(i: z.core.$ZodIssue): string {
  return `field "${i.path.join('.')}": ${i.message}`;
}
