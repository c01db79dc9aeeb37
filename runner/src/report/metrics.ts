// Benchmark metrics (docs/runner.md, "Report numbers"). Errors are never in a
// denominator: n counts judged runs (pass or fail) only, and errors are reported beside.

/** Binomial coefficient as a float (exact for the small n of pass@N). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Unbiased pass@k of one scenario: 1 − C(n−c,k)/C(n,k); null when n < k. */
export function passAtK(n: number, c: number, k: number): number | null {
  if (n < k || k < 1) return null;
  return 1 - choose(n - c, k) / choose(n, k);
}

/** pass^k of one scenario: C(c,k)/C(n,k) (all k drawn runs pass); null when n < k. */
export function passHatK(n: number, c: number, k: number): number | null {
  if (n < k || k < 1) return null;
  return choose(c, k) / choose(n, k);
}

export function mean(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Population standard deviation (ddof 0, as numpy's default). */
export function std(xs: readonly number[]): number | null {
  const m = mean(xs);
  if (m === null) return null;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
}

/** Standard error of the success rate: STD of the per-run rates / √(number of runs). */
export function standardError(perRunRates: readonly number[]): number | null {
  const s = std(perRunRates);
  return s === null ? null : s / Math.sqrt(perRunRates.length);
}

export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}
