// `compare A B [C…]`: each run against the first, per split and overall, on the scenarios both
// judged. A scenario's score is its success rate over its judged runs (0 or 1 at pass@1).
import { basename, resolve } from 'node:path';
import { loadRunRecords, type RunRecord } from '../report/index.js';
import { orderSplits } from '../report/build.js';
import { mcnemarExact, pairedBootstrap, pairedSe, type BootstrapResult } from './paired-stats.js';

export const BOOTSTRAP_SEED = 20_240_601;

interface ScenarioScore {
  key: string;
  split: string;
  n: number;
  c: number;
}

export interface Flip {
  scenario: string;
  split: string;
  from: number;
  to: number;
}

export interface PairStats {
  /** Scenarios judged in both runs (an error-only scenario has no score and is left out). */
  shared: number;
  baseline_rate: number | null;
  rate: number | null;
  /** rate − baseline_rate, both means over the shared scenarios. */
  delta: number | null;
  delta_se: number | null;
  bootstrap_ci95: BootstrapResult | null;
  /** Only when both runs have one run per scenario: verdicts that went fail→pass / pass→fail. */
  mcnemar: { fail_to_pass: number; pass_to_fail: number; p_value: number } | null;
}

export interface PairComparison {
  baseline: string;
  run: string;
  overall: PairStats;
  splits: Record<string, PairStats>;
  /** Scenarios whose score changed (at pass@1: verdict flips). */
  flips: Flip[];
  /** Scenarios only one of the two runs judged. */
  unpaired: { baseline_only: number; run_only: number };
}

export interface Comparison {
  schema_version: 1;
  generated_at: string;
  runs: Array<{ name: string; dir: string; scenarios: number; runs_per_scenario: number }>;
  bootstrap_seed: number;
  pairs: PairComparison[];
}

function scores(records: readonly RunRecord[]): Map<string, ScenarioScore> {
  const out = new Map<string, ScenarioScore>();
  for (const r of records) {
    const s = out.get(r.key) ?? { key: r.key, split: r.split ?? '', n: 0, c: 0 };
    out.set(r.key, s);
    if (r.status === 'error') continue;
    s.n++;
    if (r.status === 'pass') s.c++;
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

function pairStats(pairs: Array<[ScenarioScore, ScenarioScore]>, binary: boolean, seed: number): PairStats {
  const a = pairs.map(([x]) => x.c / x.n);
  const b = pairs.map(([, y]) => y.c / y.n);
  const diffs = b.map((v, i) => v - a[i]!);
  const ra = mean(a);
  const rb = mean(b);
  let mcnemar: PairStats['mcnemar'] = null;
  if (binary) {
    const fail_to_pass = diffs.filter((d) => d > 0).length;
    const pass_to_fail = diffs.filter((d) => d < 0).length;
    mcnemar = { fail_to_pass, pass_to_fail, p_value: mcnemarExact(fail_to_pass, pass_to_fail) };
  }
  return {
    shared: pairs.length,
    baseline_rate: ra,
    rate: rb,
    delta: ra === null || rb === null ? null : rb - ra,
    delta_se: pairedSe(diffs),
    bootstrap_ci95: pairedBootstrap(diffs, seed),
    mcnemar,
  };
}

function comparePair(baseName: string, base: Map<string, ScenarioScore>, name: string, other: Map<string, ScenarioScore>, binary: boolean): PairComparison {
  const pairs: Array<[ScenarioScore, ScenarioScore]> = [];
  let baseOnly = 0;
  for (const [k, s] of base) {
    const o = other.get(k);
    if (s.n > 0 && o && o.n > 0) pairs.push([s, o]);
    else if (s.n > 0) baseOnly++;
  }
  const runOnly = [...other].filter(([k, o]) => o.n > 0 && !(base.get(k)?.n ?? 0)).length;
  const splits: Record<string, PairStats> = {};
  for (const split of orderSplits(new Set(pairs.map(([s]) => s.split).filter(Boolean)))) {
    splits[split] = pairStats(pairs.filter(([s]) => s.split === split), binary, BOOTSTRAP_SEED);
  }
  const flips = pairs
    .filter(([x, y]) => x.c / x.n !== y.c / y.n)
    .map(([x, y]) => ({ scenario: x.key, split: x.split, from: x.c / x.n, to: y.c / y.n }));
  return { baseline: baseName, run: name, overall: pairStats(pairs, binary, BOOTSTRAP_SEED), splits, flips, unpaired: { baseline_only: baseOnly, run_only: runOnly } };
}

/** Compares every run after the first with the first. Names default to the directory names. */
export function buildCompare(dirs: readonly string[], warn: (l: string) => void = () => {}): Comparison {
  const loaded = dirs.map((d) => {
    const records = loadRunRecords(d, warn);
    return { name: basename(resolve(d)), dir: resolve(d), records, scores: scores(records), perScenario: Math.max(1, ...records.map((r) => r.runIndex)) };
  });
  const [base, ...rest] = loaded;
  return {
    schema_version: 1,
    generated_at: new Date().toISOString(),
    runs: loaded.map((l) => ({ name: l.name, dir: l.dir, scenarios: l.scores.size, runs_per_scenario: l.perScenario })),
    bootstrap_seed: BOOTSTRAP_SEED,
    pairs: rest.map((r) => comparePair(base!.name, base!.scores, r.name, r.scores, base!.perScenario === 1 && r.perScenario === 1)),
  };
}
