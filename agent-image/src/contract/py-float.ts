// Python floats in JS: JS numbers do not know int from float, so a float whose value is
// integral is carried as a PyFloat (see pyjson.ts), and Python's repr of a float.

/** A Python float. valueOf/toJSON let it flow through arithmetic and JSON.stringify. */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

export const pyFloat = (n: number): PyFloat => new PyFloat(n);

/** The number behind an int, a float or a PyFloat; NaN for anything else. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  return Number.NaN;
}

export const isPyNumber = (v: unknown): v is number | PyFloat => typeof v === 'number' || v instanceof PyFloat;

/** Python `repr(float)`: shortest round-trip digits, ".0" on integral values, e-notation outside 1e-4..1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) {
    // Where both print positional digits, JS's shortest round-trip digits are Python's; only
    // the ".0" of integral values differs (the common case: timestamps and prices).
    const s = String(x);
    return Number.isInteger(x) ? s + '.0' : s;
  }
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const sign = neg ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
