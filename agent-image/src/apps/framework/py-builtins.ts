// Python built-ins whose semantics differ from the JS ones the apps would otherwise use:
// slicing (negative and out-of-range bounds), sorted() on str (code points, not UTF-16
// units) and truthiness. Added by the apps engineer for rent-a-flat/cabs/city/shopping/cloud-drive.
import { PyFloat } from '../../contract/pyjson.js';
import { fail } from './errors.js';
import { pyStr } from './python.js';

/** list[start:stop] with Python's clamping and negative indices (step 1). */
export function pySlice<T>(list: readonly T[], start: number, stop: number): T[] {
  const n = list.length;
  const norm = (i: number): number => (i < 0 ? Math.max(0, n + i) : Math.min(i, n));
  const a = norm(start);
  const b = norm(stop);
  return b > a ? list.slice(a, b) : [];
}

/** Comparator for sorted() on str: by code point. */
export function codepointCompare(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** bool(v) for JSON-ish values. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (v instanceof PyFloat) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** type(v).__name__ for JSON-ish values. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof PyFloat) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** iter(v) for JSON-ish values: a str yields its characters, a dict its keys; else TypeError's text. */
export function pyIter(v: unknown): unknown[] {
  if (typeof v === 'string') return Array.from(v);
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object' && !(v instanceof PyFloat)) return Object.keys(v);
  return fail(`'${pyTypeName(v)}' object is not iterable`);
}

/** A key under which equal Python values of a set coincide (1 == 1.0 == True); unhashable → TypeError's text. */
export function pyHashKey(v: unknown): string {
  if (Array.isArray(v) || (v !== null && typeof v === 'object' && !(v instanceof PyFloat))) {
    return fail(`unhashable type: '${pyTypeName(v)}'`);
  }
  if (typeof v === 'string') return `s:${v}`;
  if (v === null || v === undefined) return 'None';
  const n = v instanceof PyFloat ? v.value : v === true ? 1 : v === false ? 0 : (v as number);
  return `n:${n}`;
}

/** `x in container` for JSON-ish values (substring for str, key for dict); else TypeError's text. */
export function pyContains(container: unknown, x: unknown): boolean {
  if (typeof container === 'string') {
    if (typeof x !== 'string') return fail(`'in <string>' requires string as left operand, not ${pyTypeName(x)}`);
    return container.includes(x);
  }
  const scalar = (v: unknown): boolean => v === null || typeof v !== 'object' || v instanceof PyFloat;
  if (Array.isArray(container)) return container.some((v) => v === x || (scalar(v) && scalar(x) && pyHashKey(v) === pyHashKey(x)));
  if (container !== null && typeof container === 'object' && !(container instanceof PyFloat)) {
    return typeof x === 'string' ? Object.hasOwn(container, x) : (pyHashKey(x), false);
  }
  return fail(`argument of type '${pyTypeName(container)}' is not iterable`);
}

/** The entries `dict.update(v)` adds for a parsed JSON value: a dict, or a sequence of key/value pairs. */
export function pyDictUpdateEntries(v: unknown): Record<string, unknown> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof PyFloat)) return v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  pyIter(v).forEach((pair, i) => {
    if (pair === null || (typeof pair !== 'string' && typeof pair !== 'object') || pair instanceof PyFloat) {
      fail(`cannot convert dictionary update sequence element #${i} to a sequence`);
    }
    const kv = pyIter(pair);
    if (kv.length !== 2) fail(`dictionary update sequence element #${i} has length ${kv.length}; 2 is required`);
    pyHashKey(kv[0]);
    // json.dump writes every key as a string (True → "true", None → "null").
    const key = kv[0] === true ? 'true' : kv[0] === false ? 'false' : kv[0] === null ? 'null' : pyStr(kv[0]);
    out[key] = kv[1];
  });
  return out;
}
