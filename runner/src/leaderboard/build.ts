// `leaderboard RUN_DIR…`: one row per run (agent × model), its numbers exactly as `report`
// computes them for that run (dirReport), grouped by Gaia2 setting (standard, noise,
// agent2agent): rows of different settings are not comparable.
import { DEFAULT_TITLE } from './defaults.js';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ConfigError } from '../plan/errors.js';
import { PHASE_NAMES } from '../plan/phases.js';
import { agentIdentity, agentUsageOf, dirReport, loadRunRecords, orderSplits, type Report, type ReportOptions, type RunRecord } from '../report/index.js';
import { defaultPriceTable } from '../tokens/index.js';
import { resolveSources, type LeaderboardSource } from './sources.js';
import { scenarioSets, type ScenarioSets } from './scenario-sets.js';

/** Averages over every run of the row (errors included: they were attempted and may have cost). */
export interface PerScenarioRun {
  runs: number;
  /** The agent's tokens (cached input included); null when no run recorded the agent's usage. */
  agent_input_tokens: number | null;
  agent_output_tokens: number | null;
  agent_cost_usd: number | null;
  /** Agent, app agents and judge; null when some model has no price or nothing was recorded. */
  total_cost_usd: number | null;
  /** Mean duration of a run (container start to verdict). */
  seconds: number | null;
}

export interface LeaderboardRow {
  run: string;
  dir: string;
  /** The run's viewer page, relative to the leaderboard's folder; null when it has none. */
  viewer: string | null;
  agent: { name: string | null; version: string | null; source: string };
  model: string | null;
  provider: string | null;
  judge: string | null;
  setting: string;
  /** Scenarios the run has (before any --common-scenarios restriction). */
  scenarios_run: number;
  /** The run's report numbers (report.json's), over the row's scenarios. */
  report: Pick<Report, 'num_runs' | 'errors_policy' | 'judge_mode' | 'overall' | 'splits' | 'macro' | 'reused_from_cache'>;
  per_scenario_run: PerScenarioRun;
}

export interface LeaderboardSection {
  setting: string;
  /** Capability splits of any row, in the report's order. */
  splits: string[];
  /** k of pass@k / pass^k: 1 … the largest runs per scenario of any row. */
  ks: string[];
  scenarios: ScenarioSets;
  /** True when every row was restricted to the common scenarios (--common-scenarios). */
  restricted: boolean;
  /** Differences between rows that a reader must know (judge, error policy). */
  notes: string[];
  rows: LeaderboardRow[];
}

export interface Leaderboard {
  schema_version: 1;
  generated_at: string;
  title: string;
  /** Where the prices behind the costs came from. */
  prices: string[];
  common_scenarios_only: boolean;
  sections: LeaderboardSection[];
}

export interface LeaderboardOptions extends Pick<ReportOptions, 'prices' | 'errorsAsFailures'> {
  /** The folder the pages are written to: viewer links are relative to it. */
  outDir: string;
  title?: string;
  /** Restrict every row of a section to the scenarios all its rows ran. */
  commonOnly?: boolean;
  warn?: (line: string) => void;
}

export { DEFAULT_TITLE };

function viewerHref(outDir: string, runDir: string): string | null {
  const index = join(runDir, 'index.html');
  if (!existsSync(index)) return null;
  return relative(outDir, index).split(sep).map(encodeURIComponent).join('/');
}

function perScenarioRun(r: Report): PerScenarioRun {
  const o = r.overall;
  const u = o.usage;
  const per = (x: number | null) => (x === null || o.runs === 0 ? null : x / o.runs);
  const agentRecorded = u.agent.runs > 0;
  return {
    runs: o.runs,
    agent_input_tokens: agentRecorded ? per(u.agent.input) : null,
    agent_output_tokens: agentRecorded ? per(u.agent.output) : null,
    agent_cost_usd: agentRecorded ? per(u.cost.agent.usd) : null,
    total_cost_usd: per(u.cost.total_usd),
    seconds: o.duration_seconds.mean,
  };
}

interface Loaded {
  source: LeaderboardSource;
  records: RunRecord[];
  report: Report;
  setting: string;
}

/** The run record's agent; without one (no run_config.json, or it names none), a result.json's. */
function identity(l: Loaded): { agent: LeaderboardRow['agent']; model: string | null } {
  const m = l.report.meta;
  if (m?.agent_identity.name) return { agent: m.agent_identity, model: m.model };
  // The model the agent's calls were billed for (result.json's usage), as the report reads it.
  const model = m?.model ?? l.records.map((r) => agentUsageOf(r)?.model).find((x) => x) ?? null;
  return { agent: agentIdentity(l.records[0]!.result), model };
}

function row(l: Loaded, report: Report, outDir: string): LeaderboardRow {
  const m = report.meta;
  const { num_runs, errors_policy, judge_mode, overall, splits, macro, reused_from_cache } = report;
  const who = identity(l);
  return {
    run: l.source.label,
    dir: l.source.dir,
    viewer: viewerHref(outDir, l.source.dir),
    agent: who.agent,
    model: who.model,
    provider: m?.provider ?? null,
    judge: m?.judge ?? null,
    setting: l.setting,
    scenarios_run: l.report.overall.scenarios,
    report: { num_runs, errors_policy, judge_mode, overall, splits, macro, reused_from_cache },
    per_scenario_run: perScenarioRun(report),
  };
}

/** The headline rate: the mean of the capability splits when there are splits, else the overall rate. */
export const headline = (r: LeaderboardRow): number | null => (Object.keys(r.report.splits).length ? r.report.macro.success_rate : r.report.overall.success_rate);

function byHeadline(a: LeaderboardRow, b: LeaderboardRow): number {
  const x = headline(a);
  const y = headline(b);
  if (x !== y) return x === null ? 1 : y === null ? -1 : y - x;
  return a.run.localeCompare(b.run);
}

const distinct = (xs: ReadonlyArray<string | null>): string[] => [...new Set(xs.map((x) => x ?? 'unknown'))];

function section(setting: string, group: Loaded[], o: LeaderboardOptions, reportOptions: ReportOptions): LeaderboardSection {
  const { sets, commonKeys } = scenarioSets(group.map((l) => l.records));
  const restricted = Boolean(o.commonOnly) && !sets.same;
  const rows = group.map((l) => {
    if (!restricted) return row(l, l.report, o.outDir);
    const records = l.records.filter((r) => commonKeys.has(r.key));
    return row(l, dirReport(l.source.dir, { ...reportOptions, records, ...(l.source.numRuns ? { numRuns: l.source.numRuns } : {}) }), o.outDir);
  });
  rows.sort(byHeadline);
  const maxRuns = Math.max(1, ...rows.map((r) => r.report.num_runs));
  const notes: string[] = [];
  const judges = distinct(rows.map((r) => r.judge));
  if (judges.length > 1) notes.push(`The rows were judged differently (${judges.join('; ')}): their verdicts are not strictly comparable.`);
  const policies = distinct(rows.map((r) => r.report.errors_policy));
  if (policies.length > 1) notes.push(`The rows count errors differently (${policies.join(', ')}): pass --errors-as-failures or --no-errors-as-failures to apply one rule to all.`);
  return {
    setting,
    splits: orderSplits(new Set(rows.flatMap((r) => Object.keys(r.report.splits)))),
    ks: Array.from({ length: maxRuns }, (_, i) => String(i + 1)),
    scenarios: sets,
    restricted,
    notes,
    rows,
  };
}

const SETTING_ORDER: readonly string[] = PHASE_NAMES;
const settingRank = (s: string) => (SETTING_ORDER.includes(s) ? SETTING_ORDER.indexOf(s) : SETTING_ORDER.length);

export function buildLeaderboard(dirs: readonly string[], o: LeaderboardOptions): Leaderboard {
  if (dirs.length === 0) throw new ConfigError('leaderboard: name at least one run directory');
  const reportOptions: ReportOptions = { prices: o.prices ?? defaultPriceTable(), ...(o.errorsAsFailures !== undefined ? { errorsAsFailures: o.errorsAsFailures } : {}) };
  const loaded: Loaded[] = resolveSources(dirs).map((source) => {
    const records = loadRunRecords(source.dir, o.warn);
    if (records.length === 0) throw new ConfigError(`leaderboard: no result.json under ${source.dir} (not a run directory, or no scenario has finished)`);
    const report = dirReport(source.dir, { ...reportOptions, records, ...(source.numRuns ? { numRuns: source.numRuns } : {}) });
    return { source, records, report, setting: source.phase ?? report.meta?.setting ?? 'standard' };
  });
  const settings = [...new Set(loaded.map((l) => l.setting))].sort((a, b) => settingRank(a) - settingRank(b) || a.localeCompare(b));
  return {
    schema_version: 1,
    generated_at: new Date().toISOString(),
    title: o.title ?? DEFAULT_TITLE,
    prices: reportOptions.prices!.sources,
    common_scenarios_only: Boolean(o.commonOnly),
    sections: settings.map((s) => section(s, loaded.filter((l) => l.setting === s), o, reportOptions)),
  };
}
