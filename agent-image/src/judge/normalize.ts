// String helpers with the exact semantics of the Python ones the reference checkers use.
import { pyStr, pyStrip } from './pystr.js';

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const COMBINING_MARK = /\p{Mn}/gu;

/** Lowercase, strip accents (NFD minus Mn), drop ASCII punctuation, trim. Inner spaces kept. */
export function normalizeStr(s: string): string {
  return pyStrip(s.toLowerCase().normalize('NFD').replace(COMBINING_MARK, '').replace(ASCII_PUNCTUATION, ''));
}

/** normalize_str(str(x)). */
export const normalizeArg = (x: unknown): string => normalizeStr(pyStr(x));

/** POSIX os.path.normpath (docs/judge.md, "Python emulation"). */
export function normpath(path: string): string {
  if (path === '') return '.';
  const lead = path.startsWith('/') ? (path.startsWith('//') && !path.startsWith('///') ? 2 : 1) : 0;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..' || (lead === 0 && out.length === 0) || (out.length > 0 && out[out.length - 1] === '..')) out.push(part);
    else if (out.length > 0) out.pop();
  }
  const joined = '/'.repeat(lead) + out.join('/');
  return joined || '.';
}

/** normpath, then every leading "/" removed: how path checkers compare. */
export const checkerPath = (p: string): string => normpath(p).replace(/^\/+/, '');

/** Raised where Python's datetime.strptime raises ValueError. */
export class PyValueError extends Error {
  override name = 'ValueError';
}

// Python's strptime patterns for %Y-%m-%d %H:%M:%S (1-digit fields accepted, space = \s+).
const STRPTIME = /^(\d{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)$/i;

/** datetime.strptime(s, "%Y-%m-%d %H:%M:%S") as UTC epoch seconds; throws PyValueError. */
export function parsePyDatetime(s: string): number {
  const m = STRPTIME.exec(s);
  if (!m) throw new PyValueError(`time data ${JSON.stringify(s)} does not match format '%Y-%m-%d %H:%M:%S'`);
  const [y, mo, d, h, mi, sec] = m.slice(1).map((x) => Number(x.trim()));
  const ms = Date.UTC(y!, mo! - 1, d!, h!, mi!, sec!);
  const back = new Date(ms);
  if (sec! > 59 || back.getUTCDate() !== d || back.getUTCMonth() !== mo! - 1) {
    throw new PyValueError(`invalid date or time in ${JSON.stringify(s)}`);
  }
  if (y! < 100) back.setUTCFullYear(y!); // Date.UTC maps 0..99 to 1900..1999
  return back.getTime() / 1000;
}
