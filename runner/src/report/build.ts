// Aggregates run records into the report: per split and overall, macro and micro.
import type { RunRecord } from './collect.js';
import { mean, median, passAtK, passHatK, standardError } from './metrics.js';
import { defaultPriceTable, type PriceTable } from '../tokens/index.js';
import { usageTotals, type UsageTotals } from './usage.js';
import { clusteredInterval, macroInterval, type RateInterval } from './uncertainty.js';
import type { ReportMeta } from './meta.js';

export interface GroupStats {
  scenarios: number;
  runs: number;
  judged: number;
  passed: number;
  failed: number;
  errors: number;
  errors_by_kind: Record<string, number>;
  /**
   * Judged runs (pass or fail) whose agent program failed a turn on its own: counted in the
   * rates like any judged run, shown beside them (result.json `agent_failed`, docs/agents.md).
   */
  program_failed: number;
  /** Of those, the runs with no model gateway record to weigh the failure against (direct mode). */
  program_failed_unchecked: number;
  /**
   * Failed runs that a stuck loop ended (result.json `stuck_loop`, [run].stuck_loop_min_tool_calls):
   * judged failures, counted in the rates, shown beside `failed`. Absent in older reports.
   */
  stuck_loops: number;
  /** passed / counted runs (judged, plus errors with --errors-as-failures); null when none. */
  success_rate: number | null;
  /** The reference's figure: STD of the per-run-index success rates / √(number of run indices). */
  success_rate_se: number | null;
  /** SE clustered by scenario and the 95 % interval of success_rate (docs/report.md). */
  success_rate_ci: RateInterval;
  per_run: Array<{ run: number; judged: number; passed: number; success_rate: number | null }>;
  /** k → mean over scenarios with ≥ k judged runs; `scenarios_counted` says how many. */
  pass_at_k: Record<string, { value: number | null; scenarios_counted: number }>;
  pass_hat_k: Record<string, { value: number | null; scenarios_counted: number }>;
  duration_seconds: { total: number; mean: number | null; median: number | null; known: number };
  /** Tokens (agent and judge apart) and their cost at the report's price table. */
  usage: UsageTotals;
  /**
   * Runs whose result.json says their agent's network was sealed, or not (docs/config.md,
   * "Sealed network"); results written before sealing existed count in neither. Absent in older reports.
   */
  network?: NetworkCounts;
}

export interface NetworkCounts {
  sealed: number;
  unsealed: number;
}

export function networkCounts(records: readonly RunRecord[]): NetworkCounts {
  return { sealed: records.filter((r) => r.result.network_sealed === true).length, unsealed: records.filter((r) => r.result.network_sealed === false).length };
}

export interface Report {
  schema_version: 1;
  generated_at: string;
  output_dir: string;
  num_runs: number;
  judge_mode: 'llm' | 'hard-only' | 'mixed' | 'unknown';
  /** Where the prices behind the costs came from. */
  prices: string[];
  overall: GroupStats;
  splits: Record<string, GroupStats>;
  /** Mean over splits of their success rate / pass@k / pass^k. */
  macro: { success_rate: number | null; success_rate_ci: RateInterval; pass_at_k: Record<string, number | null>; pass_hat_k: Record<string, number | null> };
  /** excluded: errors are in no denominator (the reference); as-failures: they count as failed runs. */
  errors_policy: ErrorsPolicy;
  /** What the run was (from run_config.json), for the header a paper needs. */
  meta: ReportMeta | null;
  /** Runs taken from the result cache (--enable-caching) instead of being run again. */
  reused_from_cache: number;
  /** The whole report's GroupStats.network (the overall group's). */
  network: NetworkCounts;
  /** The model gateway of the invocation that wrote this report: mode and traffic counts (docs/gateway.md). */
  model_gateway?: Record<string, unknown>;
}

export type ErrorsPolicy = 'excluded' | 'as-failures';

export interface ReportOptions {
  prices?: PriceTable;
  errorsAsFailures?: boolean;
  meta?: ReportMeta | null;
}

export function groupStats(records: readonly RunRecord[], numRuns: number, o: ReportOptions = {}): GroupStats {
  const counts = (r: RunRecord) => r.status !== 'error' || Boolean(o.errorsAsFailures);
  const byScenario = new Map<string, { n: number; c: number }>();
  const errors_by_kind: Record<string, number> = {};
  let passed = 0, failed = 0, errors = 0, programFailed = 0, programUnchecked = 0, stuckLoops = 0;
  const durations: number[] = [];
  for (const r of records) {
    const s = byScenario.get(r.key) ?? { n: 0, c: 0 };
    byScenario.set(r.key, s);
    if (r.status === 'error') {
      errors++;
      const kind = String(r.result.error_kind ?? 'unknown');
      errors_by_kind[kind] = (errors_by_kind[kind] ?? 0) + 1;
      if (counts(r)) s.n++;
    } else {
      s.n++;
      const af = r.result.agent_failed;
      if (af && typeof af === 'object') {
        programFailed++;
        if (af.evidence !== 'gateway_record') programUnchecked++;
      }
      if (r.status === 'pass') {
        s.c++;
        passed++;
      } else {
        failed++;
        if (r.result.stuck_loop && typeof r.result.stuck_loop === 'object') stuckLoops++;
      }
    }
    if (typeof r.result.duration_seconds === 'number') durations.push(r.result.duration_seconds);
  }
  const per_run = [];
  for (let k = 1; k <= numRuns; k++) {
    const rs = records.filter((r) => r.runIndex === k && counts(r));
    const p = rs.filter((r) => r.status === 'pass').length;
    per_run.push({ run: k, judged: rs.length, passed: p, success_rate: rs.length ? p / rs.length : null });
  }
  const rates = per_run.map((r) => r.success_rate).filter((x): x is number => x !== null);
  const judged = passed + failed;
  const counted = judged + (o.errorsAsFailures ? errors : 0);
  const pass_at_k: GroupStats['pass_at_k'] = {};
  const pass_hat_k: GroupStats['pass_hat_k'] = {};
  for (let k = 1; k <= numRuns; k++) {
    const at = [...byScenario.values()].map((s) => passAtK(s.n, s.c, k)).filter((x): x is number => x !== null);
    const hat = [...byScenario.values()].map((s) => passHatK(s.n, s.c, k)).filter((x): x is number => x !== null);
    pass_at_k[k] = { value: mean(at), scenarios_counted: at.length };
    pass_hat_k[k] = { value: mean(hat), scenarios_counted: hat.length };
  }
  return {
    scenarios: byScenario.size,
    runs: records.length,
    judged,
    passed,
    failed,
    errors,
    errors_by_kind,
    program_failed: programFailed,
    program_failed_unchecked: programUnchecked,
    stuck_loops: stuckLoops,
    success_rate: counted ? passed / counted : null,
    success_rate_se: rates.length ? standardError(rates) : null,
    success_rate_ci: clusteredInterval([...byScenario.values()]),
    per_run,
    pass_at_k,
    pass_hat_k,
    duration_seconds: { total: durations.reduce((a, b) => a + b, 0), mean: mean(durations), median: median(durations), known: durations.length },
    usage: usageTotals(records, o.prices ?? defaultPriceTable()),
    network: networkCounts(records),
  };
}

const SPLIT_ORDER = ['execution', 'search', 'ambiguity', 'adaptability', 'time'];
export function orderSplits(names: Iterable<string>): string[] {
  const known = SPLIT_ORDER.filter((s) => [...names].includes(s));
  return [...known, ...[...names].filter((s) => !SPLIT_ORDER.includes(s)).sort()];
}

export function buildReport(records: readonly RunRecord[], outputDir: string, numRunsHint = 1, o: ReportOptions = {}): Report {
  const numRuns = Math.max(numRunsHint, ...records.map((r) => r.runIndex), 1);
  const splitNames = orderSplits(new Set(records.map((r) => r.split).filter((s): s is string => !!s)));
  const splits: Record<string, GroupStats> = {};
  for (const s of splitNames) splits[s] = groupStats(records.filter((r) => r.split === s), numRuns, o);
  const macroOf = (f: (g: GroupStats) => number | null) => mean(Object.values(splits).map(f).filter((x): x is number => x !== null));
  const modes = new Set(records.map((r) => r.result.judge_mode).filter(Boolean));
  const macroRate = macroOf((g) => g.success_rate);
  const withRate = Object.values(splits).filter((g) => g.success_rate !== null);
  const macro: Report['macro'] = { success_rate: macroRate, success_rate_ci: macroInterval(macroRate, withRate.map((g) => g.success_rate_ci)), pass_at_k: {}, pass_hat_k: {} };
  for (let k = 1; k <= numRuns; k++) {
    macro.pass_at_k[k] = macroOf((g) => g.pass_at_k[k]!.value);
    macro.pass_hat_k[k] = macroOf((g) => g.pass_hat_k[k]!.value);
  }
  return {
    schema_version: 1,
    generated_at: new Date().toISOString(),
    output_dir: outputDir,
    num_runs: numRuns,
    judge_mode: modes.size === 0 ? 'unknown' : modes.size > 1 ? 'mixed' : ([...modes][0] as 'llm' | 'hard-only'),
    overall: groupStats(records, numRuns, o),
    prices: (o.prices ?? defaultPriceTable()).sources,
    splits,
    macro,
    errors_policy: o.errorsAsFailures ? 'as-failures' : 'excluded',
    meta: o.meta ?? null,
    reused_from_cache: records.filter((r) => r.result.reused_from_cache).length,
    network: networkCounts(records),
  };
}
