// Uncertainty of a success rate when runs of one scenario are not independent: the standard
// error clusters by scenario (a cluster-robust SE of a ratio estimator). With one run per
// scenario it is the usual SE across scenarios, s/√m with the sample STD (m − 1).

export interface RateInterval {
  /** Standard error of the rate; null with fewer than two scenarios. */
  se: number | null;
  /** 95 % interval: rate ± 1.96·SE, clipped to [0, 1]. */
  low: number | null;
  high: number | null;
  /** Scenarios (clusters) with at least one counted run. */
  scenarios: number;
}

export const Z95 = 1.959963984540054;

/**
 * p = Σc / Σn over scenarios i (c passes of n counted runs);
 * SE² = m/(m−1) · Σ (c_i − p·n_i)² / (Σn)².
 */
export function clusteredInterval(clusters: ReadonlyArray<{ n: number; c: number }>): RateInterval {
  const used = clusters.filter((s) => s.n > 0);
  const m = used.length;
  const N = used.reduce((a, s) => a + s.n, 0);
  if (m < 2 || N === 0) return { se: null, low: null, high: null, scenarios: m };
  const p = used.reduce((a, s) => a + s.c, 0) / N;
  const ss = used.reduce((a, s) => a + (s.c - p * s.n) ** 2, 0);
  const se = Math.sqrt((m / (m - 1)) * ss) / N;
  return { se, ...interval(p, se), scenarios: m };
}

export function interval(rate: number, se: number): { low: number; high: number } {
  return { low: Math.max(0, rate - Z95 * se), high: Math.min(1, rate + Z95 * se) };
}

/** SE of a mean of independent group rates: √(Σ SE²) / G; null when a group has none. */
export function macroInterval(rate: number | null, groups: ReadonlyArray<RateInterval>): RateInterval {
  const scenarios = groups.reduce((a, g) => a + g.scenarios, 0);
  if (rate === null || groups.length === 0 || groups.some((g) => g.se === null)) return { se: null, low: null, high: null, scenarios };
  const se = Math.sqrt(groups.reduce((a, g) => a + g.se! ** 2, 0)) / groups.length;
  return { se, ...interval(rate, se), scenarios };
}
