// Numbers, durations, costs and JSON as the pages print them, and the natural sort order.

const missing = (n: number | null | undefined): n is null | undefined => n === null || n === undefined || isNaN(n);

export const fmtInt = (n: number | null | undefined): string => (missing(n) ? '—' : Math.round(n).toLocaleString('en-US'));

export function fmtTok(n: number | null | undefined): string {
  if (!n) return '0';
  if (n >= 1e6) return (n / 1e6).toFixed(2) + 'M';
  if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k';
  return String(n);
}

export const fmtCost = (c: number | null | undefined): string => (c === null || c === undefined ? '—' : '$' + (c < 1 ? c.toFixed(4) : c.toFixed(2)));

export function fmtDur(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  if (s < 60) return s.toFixed(1) + 's';
  return Math.floor(s / 60) + 'm' + String(Math.round(s % 60)).padStart(2, '0') + 's';
}

export const fmtPct = (x: number | null | undefined): string => (missing(x) ? '—' : (100 * x).toFixed(1) + '%');

export function fmtJson(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

export const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Empty values last, numbers by value, the rest in natural order ("sc_2" before "sc_10"). */
export function cmpValues(a: unknown, b: unknown): number {
  const an = a === null || a === undefined || a === '';
  const bn = b === null || b === undefined || b === '';
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}
