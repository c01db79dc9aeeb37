// Paired statistics of two runs over the same scenarios: McNemar's exact test on the
// scenarios whose verdict changed, and a seeded paired bootstrap of the mean difference.
import { mulberry32 } from '@gaia2/contract/mulberry32';
import { choose } from '../report/metrics.js';

/** Exact two-sided McNemar p-value: b and c are the two kinds of discordant pairs. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += choose(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}

/** Uniform in [0, 1) from a seed: the same seed gives the same resamples everywhere. */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

export interface BootstrapResult {
  low: number;
  high: number;
  resamples: number;
  seed: number;
}

/** Percentile 95 % interval of the mean of `diffs`, resampling scenarios with replacement. */
export function pairedBootstrap(diffs: readonly number[], seed: number, resamples = 10_000): BootstrapResult | null {
  const m = diffs.length;
  if (m < 2) return null;
  const rand = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < m; i++) sum += diffs[Math.floor(rand() * m)]!;
    means[r] = sum / m;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]!;
  return { low: at(0.025), high: at(0.975), resamples, seed };
}

/** SE of a mean of paired differences: sample STD / √m. */
export function pairedSe(diffs: readonly number[]): number | null {
  const m = diffs.length;
  if (m < 2) return null;
  const mean = diffs.reduce((a, b) => a + b, 0) / m;
  return Math.sqrt(diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / (m - 1) / m);
}
