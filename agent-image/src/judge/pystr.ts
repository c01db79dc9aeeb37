// Python str()/repr()/== emulation (docs/judge.md, "Python emulation"). Failure texts, the equality
// shortcut and the prompts' "k: v" lines all go through Python's formatting in the
// reference, so verdict texts only match if we format values the same way.
import { PyFloat, pyFloatRepr } from '../contract/pyjson.js';

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Python repr() of a str. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0)!);
    else out += ch;
  }
  return out + quote;
}

function pyNumberStr(n: number): string {
  if (Number.isInteger(n) && !Object.is(n, -0)) {
    return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  }
  return pyFloatRepr(n);
}

/** Python repr(). */
export function pyRepr(v: unknown): string {
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v !== null && typeof v === 'object' && !(v instanceof PyFloat)) {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  }
  return pyStr(v);
}

/** Python str(). */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyNumberStr(v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (typeof v === 'string') return v;
  return pyRepr(v);
}

const isNumeric = (v: unknown): v is number | boolean | PyFloat =>
  typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat;
const numeric = (v: number | boolean | PyFloat): number => (v instanceof PyFloat ? v.value : Number(v));

/** Python `==`: strict across types, except that bool, int and float compare as numbers. */
export function pyEq(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (isNumeric(a) || isNumeric(b)) return isNumeric(a) && isNumeric(b) && numeric(a) === numeric(b);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => k in (b as object) && pyEq((a as any)[k], (b as any)[k]));
  }
  return a === b;
}

/** Raised where Python would raise TypeError (e.g. a list inside a set). */
export class PyTypeError extends Error {
  override name = 'TypeError';
}

/** Key under which Python would put `v` in a set (hash + eq), or a TypeError for unhashables. */
export function pyHashKey(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  if (isNumeric(v)) return `n:${numeric(v)}`;
  if (typeof v === 'string') return `s:${v}`;
  throw new PyTypeError(`unhashable type: '${Array.isArray(v) ? 'list' : 'dict'}'`);
}

/** Python set(x) == set(y) over iterables (a string iterates over its characters). */
export function pySetEq(a: unknown, b: unknown): boolean {
  const keys = (x: unknown): Set<string> => {
    if (typeof x === 'string') return new Set([...x].map(pyHashKey));
    if (Array.isArray(x)) return new Set(x.map(pyHashKey));
    if (x !== null && typeof x === 'object' && !(x instanceof PyFloat)) return new Set(Object.keys(x).map(pyHashKey));
    throw new PyTypeError(`'${x === null ? 'NoneType' : typeof x}' object is not iterable`);
  };
  const sa = keys(a);
  const sb = keys(b);
  return sa.size === sb.size && [...sa].every((k) => sb.has(k));
}

/** Python truthiness. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '' || v === 0) return false;
  if (v instanceof PyFloat) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Python len() for the values checkers call it on. */
export function pyLen(v: unknown): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  throw new PyTypeError(`object of type '${v === null ? 'NoneType' : typeof v}' has no len()`);
}

/** Python f"{x:.0f}" (round half to even). */
export function pyFormat0f(x: number): string {
  const floor = Math.floor(x);
  const diff = x - floor;
  let r = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
  if (Object.is(r, -0)) r = 0;
  return (r === 0 && x < 0 ? '-' : '') + String(r);
}

// Python str.isspace() characters (JS \s differs: it has U+FEFF, lacks U+001C–U+001F and U+0085).
const PY_WS = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000';
const PY_STRIP = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');

/** Python str.strip(). */
export const pyStrip = (s: string): string => s.replace(PY_STRIP, '');
