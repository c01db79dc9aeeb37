// App state files, as the reference lays them out: one pretty-printed JSON file per app in
// the state dir, named from the app's state name (normalizeAppName), written atomically.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomicPiecesSync, writeFileAtomicSync } from '../../fsutil/atomic.js';
import { join } from 'node:path';
import { parsePyJson, pyDumps, pyDumpsChunked } from '../../contract/pyjson.js';
import { AppError } from './errors.js';

/** Reference normalize_app_name: CamelCase → snake_case (EmailClientV2 → email_client_v2). */
export function normalizeAppName(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const upper = c !== c.toLowerCase();
    if (upper && i > 0) {
      const prev = name[i - 1]!;
      const next = name[i + 1];
      const prevLower = prev !== prev.toUpperCase();
      const prevUpper = prev !== prev.toLowerCase();
      const nextLower = next !== undefined && next !== next.toUpperCase();
      if (prevLower || (prevUpper && nextLower)) out += '_';
    }
    out += c.toLowerCase();
  }
  return out;
}

export const stateFilePath = (stateDir: string, stateName: string): string =>
  join(stateDir, `${normalizeAppName(stateName)}.json`);

/** Pretty JSON the way the reference writes state files (json.dump indent=2 + newline). */
export const stateText = (value: unknown): string => pyDumps(value, { indent: 2 }) + '\n';

export function readJsonFile(file: string): unknown {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return null;
  try {
    return parsePyJson(text);
  } catch (e) {
    throw new AppError(`State file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** Parsed state object, null when the file is missing or empty; a non-object is an error. */
export function readStateFile(file: string): Record<string, unknown> | null {
  const v = readJsonFile(file);
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw new AppError(`State file ${file} must hold a JSON object`);
  return v as Record<string, unknown>;
}

/** The reference's temp name: `<app>.tmp` beside `<app>.json`. */
const tmpOf = (file: string): string => file.replace(/\.json$/, '') + '.tmp';

/** tmp file + rename, so readers never see a half-written state. */
export function writeFileAtomic(file: string, text: string): void {
  writeFileAtomicSync(file, text, tmpOf(file));
}

/** Pieces of the text written as they are made: a universe's state is never one string. */
const STATE_CHUNK = 1 << 16;

/** stateText(state), written atomically. */
export function writeStateFile(file: string, state: unknown): void {
  writeFileAtomicPiecesSync(
    file,
    (write) => write(pyDumpsChunked(state, { indent: 2 }, STATE_CHUNK, write) + '\n'),
    tmpOf(file),
  );
}

export const APP_CLASS_MAP_FILE = 'app_class_map.json';

/** app_class_map.json (state name → scenario class_name); missing or unreadable → {}. */
export function readAppClassMap(stateDir: string): Record<string, string> {
  try {
    const v = JSON.parse(readFileSync(join(stateDir, APP_CLASS_MAP_FILE), 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}
