// The multi-phase run's own report: one row per phase (its overall numbers, as in the phase's
// report.json) and the mean over the phases that ran, in <root>/report.json and report.md.
import { existsSync, readFileSync } from 'node:fs';
import { writeReport } from '../report/index.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { pct, rateText, type GroupStats, type Report, type ReportOptions } from '../report/index.js';
import { redact } from '../secrets/redact.js';
import type { PhaseName } from '../plan/phases.js';

export interface PhaseOutcome {
  phase: PhaseName;
  /** Why the phase did not run (bad settings, missing support); null when it ran. */
  error: string | null;
}

export interface PhasesReport {
  schema_version: 1;
  kind: 'gaia2-run';
  generated_at: string;
  output_dir: string;
  runs_per_scenario: number;
  /** The augmented phases' subset manifest (their rows are the `mini` config), or null. */
  mini_subset: string | null;
  phases: Array<{ phase: PhaseName; status: 'ran' | 'error' | 'missing'; error?: string; report?: string; overall?: GroupStats; macro?: Report['macro'] }>;
  /** Mean of the phases' overall success rates (phases with judged runs only). */
  mean_success_rate: number | null;
}

function readPhaseReport(root: string, phase: PhaseName): Report | null {
  const f = join(root, phase, 'report.json');
  if (!existsSync(f)) return null;
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as Report;
  } catch {
    return null;
  }
}

export function buildPhasesReport(root: string, runs: number, outcomes: readonly PhaseOutcome[], miniSubset: string | null = null, now = new Date()): PhasesReport {
  const phases = outcomes.map((o): PhasesReport['phases'][number] => {
    if (o.error) return { phase: o.phase, status: 'error', error: o.error };
    const r = readPhaseReport(root, o.phase);
    if (!r) return { phase: o.phase, status: 'missing' };
    return { phase: o.phase, status: 'ran', report: join(o.phase, 'report.json'), overall: r.overall, macro: r.macro };
  });
  const rates = phases.map((p) => p.overall?.success_rate).filter((x): x is number => typeof x === 'number');
  return {
    schema_version: 1,
    kind: 'gaia2-run',
    generated_at: now.toISOString(),
    output_dir: root,
    runs_per_scenario: runs,
    mini_subset: miniSubset,
    phases,
    mean_success_rate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null,
  };
}

export function renderPhasesMarkdown(r: PhasesReport): string {
  const k = String(r.runs_per_scenario);
  // The same rate text as each phase's own report.md (clustered SE and 95% interval).
  const head = ['Phase', 'Scenarios', 'Runs', 'Pass', 'Fail', 'Errors', 'Success ± SE [95% CI]', 'pass@1', `pass@${k}`, `pass^${k}`];
  const rows = r.phases.map((p) => {
    const g = p.overall;
    if (!g) return [p.phase, '', '', '', '', '', p.status === 'error' ? `not run: ${p.error}` : 'no report', '', '', ''];
    return [p.phase, g.scenarios, g.runs, g.passed, g.failed, g.errors, g.success_rate_ci ? rateText(g.success_rate, g.success_rate_ci) : pct(g.success_rate), pct(g.pass_at_k['1']?.value), pct(g.pass_at_k[k]?.value), pct(g.pass_hat_k[k]?.value)];
  });
  const line = (cells: unknown[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    `# Gaia2 run: ${r.output_dir}`,
    '',
    `Runs per scenario: ${r.runs_per_scenario}. Each phase's own report: \`<phase>/report.md\`.`,
    '',
    line(head),
    line(head.map(() => '---')),
    ...rows.map(line),
    '',
    `Mean over phases: ${pct(r.mean_success_rate)}`,
    '',
  ].join('\n');
}

export async function savePhasesReport(r: PhasesReport): Promise<string> {
  await writeFileAtomic(join(r.output_dir, 'report.json'), redact(JSON.stringify(r, null, 2)) + '\n');
  const md = redact(renderPhasesMarkdown(r));
  await writeFileAtomic(join(r.output_dir, 'report.md'), md);
  return md;
}

/** The root's gaia2-run report, or null when `root` is not a gaia2-run output root. */
export function readPhasesReport(root: string): PhasesReport | null {
  try {
    const r = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as PhasesReport;
    return r && r.kind === 'gaia2-run' ? r : null;
  } catch {
    return null;
  }
}

/**
 * `report` on a gaia2-run root: every phase's report again from its result files, then the
 * table (a plain report over the root would mix the phases and replace the table).
 */
export async function rewritePhasesReport(root: string, previous: PhasesReport, warn: (l: string) => void, o: ReportOptions = {}): Promise<PhasesReport> {
  for (const p of previous.phases) if (p.status !== 'error' && existsSync(join(root, p.phase))) await writeReport(join(root, p.phase), { numRuns: previous.runs_per_scenario, warn, ...o });
  const outcomes = previous.phases.map((p) => ({ phase: p.phase, error: p.status === 'error' ? (p.error ?? 'not run') : null }));
  const r = buildPhasesReport(root, previous.runs_per_scenario, outcomes, previous.mini_subset ?? null);
  await savePhasesReport(r);
  return r;
}
