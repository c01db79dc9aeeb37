// Python built-ins whose semantics differ from the JS ones the apps would otherwise use:
// slicing (negative and out-of-range bounds), sorted() on str (code points, not UTF-16
// units) and truthiness. Added by the apps engineer for rent-a-flat/cabs/city/shopping/cloud-drive.
import { PyFloat } from '../../contract/pyjson.js';

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
