// The one reader of run_config.json: finding a run's record (a run directory's own, or — for a
// pass@N root, whose run_k/ directories each hold one with the same options — run_1's) and
// reading it into the typed record (run-record.ts). Files of older layouts are brought into the
// current shape first (legacy.ts); the reference's flat keys of a current file are derived
// values (write.ts) and are not read.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../plan/errors.js';
import { FACTS, fromOlderLayout } from './legacy.js';
import { RUN_RECORD_SCHEMA_VERSION, RunRecord } from './run-record.js';
import type { RecordedOptions } from './schema.js';
import { RUN_RECORD_FILE } from './write.js';

/** The run_config.json a path stands for: the file itself, <dir>/run_config.json, else <dir>/run_1/run_config.json. */
export function runRecordFile(path: string): string {
  const isDir = existsSync(path) && statSync(path).isDirectory();
  if (!isDir) return path;
  const own = join(path, RUN_RECORD_FILE);
  return existsSync(own) ? own : join(path, 'run_1', RUN_RECORD_FILE);
}

const issueText = (i: z.core.$ZodIssue): string => `field "${i.path.join('.')}": ${i.message}`;

/** A parsed file → the record. An older layout's fact whose value does not fit is left out rather than failing the whole record. */
export function parseRunRecord(raw: Record<string, unknown>, file: string): RunRecord {
  const current = typeof raw.schema_version === 'number' && raw.schema_version >= RUN_RECORD_SCHEMA_VERSION;
  const shaped = current ? raw : fromOlderLayout(raw);
  let r = RunRecord.safeParse(shaped);
  if (!r.success && !current) {
    const bad = new Set(r.error.issues.map((i) => i.path[0]).filter((k): k is string => (FACTS as readonly unknown[]).includes(k)));
    r = RunRecord.safeParse(Object.fromEntries(Object.entries(shaped).filter(([k]) => !bad.has(k))));
  }
  if (r.success) return r.data;
  throw new ConfigError(`${file}: ${r.error.issues.map(issueText).join('; ')}`);
}

/** The record, or a ConfigError naming the file when there is none, it is not a JSON object or a field is wrong. */
export function readRunRecord(path: string): { file: string; rec: RunRecord } {
  const file = runRecordFile(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read a run record: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${file}: a run record must be a JSON object`);
  return { file: resolve(file), rec: parseRunRecord(raw as Record<string, unknown>, file) };
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

/** The record's options, for a rerun: refused when the record's layout did not keep them. */
export function recordedOptions(rec: RunRecord, file: string): RecordedOptions {
  const missing = rec.schema_version === 0 ? 'target' : !rec.target ? 'target' : !rec.agent_options ? 'agent_options' : null;
  if (missing) throw new ConfigError(`${file}: field "${missing}" is missing (a run_config.json written before runs recorded their options cannot be rerun)`);
  return { ...rec, target: rec.target!, agent_options: rec.agent_options! };
}

export type { RunRecord };
