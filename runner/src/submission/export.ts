// A finished gaia2-run root → the leaderboard dataset (README.md with the Hub config front
// matter, one parquet file per phase config, computed_stats.json) in <root>/submission/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PhasesReport } from '../phases/overall-report.js';
import { readPhasesReport, renderPhasesMarkdown } from '../phases/overall-report.js';
import { ConfigError } from '../plan/errors.js';
import { PHASE_NAMES } from '../plan/phases.js';
import { integrityOf } from './integrity.js';
import { findRunRecord, type RunRecord } from '../record/index.js';
import { configName, dataFilePath, validateRows, type SubmissionRow } from './format.js';
import { collectRows } from './rows.js';
import { rowsToParquet } from './parquet.js';
import { submissionReadme } from './readme.js';

export interface SubmissionFile {
  path: string;
  content: Uint8Array;
}

export interface Submission {
  dir: string;
  files: SubmissionFile[];
  rows: number;
  success: number;
  configs: Record<string, number>;
}

function phasesReportOf(root: string): PhasesReport {
  const r = readPhasesReport(root);
  if (!r) throw new ConfigError(`${root} is not a finished gaia2-run output root (no gaia2-run report.json)`);
  return r;
}

function firstRunRecord(root: string): RunRecord | null {
  for (const phase of PHASE_NAMES) {
    const rec = findRunRecord(join(root, phase));
    if (rec) return rec;
  }
  return null;
}

/** What the README names of the run: the model (or, without one, the agent), its provider, the dataset. */
function readmeFacts(rec: RunRecord | null): { model: string; provider: string; dataset: string } {
  const a = rec?.agent_options;
  const t = rec?.target;
  return {
    model: a?.model ?? rec?.agent?.name ?? a?.name ?? 'unknown',
    provider: a?.provider ?? 'unknown',
    dataset: t?.kind === 'hf' ? t.repo : t?.kind === 'local' ? t.path : 'local',
  };
}

export function buildSubmission(root: string, o: { split: string }): Submission {
  const report = phasesReportOf(root);
  const byConfig = new Map<string, SubmissionRow[]>();
  for (const { phase, rows } of collectRows(root, { miniSubset: !!report.mini_subset })) {
    for (const r of rows) {
      const name = configName(String(r.config), phase);
      if (!byConfig.has(name)) byConfig.set(name, []);
      byConfig.get(name)!.push(r);
    }
  }
  const all = [...byConfig.values()].flat();
  if (all.length === 0) throw new ConfigError(`${root}: no finished runs to export`);
  const problems = validateRows(all);
  if (problems.length) throw new ConfigError(`submission rows do not match the leaderboard format:\n  ${problems.slice(0, 10).join('\n  ')}`);
  const rc = readmeFacts(firstRunRecord(root));
  const configs = [...byConfig.keys()].sort();
  const files: SubmissionFile[] = configs.map((c) => ({ path: dataFilePath(c, o.split), content: rowsToParquet(byConfig.get(c)!) }));
  const success = all.filter((r) => r.status === 'success').length;
  const readme = submissionReadme({
    ...rc,
    split: o.split,
    configs,
    results: renderPhasesMarkdown(report),
    runsPerScenario: report.runs_per_scenario,
  });
  const stats = {
    generated_by: 'gaia2-runner',
    split: o.split,
    runs_per_scenario: report.runs_per_scenario,
    rows: all.length,
    success,
    success_rate: success / all.length,
    configs: Object.fromEntries(configs.map((c) => {
      const rows = byConfig.get(c)!;
      const ok = rows.filter((r) => r.status === 'success').length;
      return [c, { rows: rows.length, success: ok, exceptions: rows.filter((r) => r.status === 'exception').length, success_rate: ok / rows.length }];
    })),
    phases: report.phases.map((p) => ({ phase: p.phase, status: p.status, success_rate: p.overall?.success_rate ?? null, success_rate_se: p.overall?.success_rate_se ?? null })),
    integrity: integrityOf(root),
  };
  const enc = new TextEncoder();
  files.push({ path: 'README.md', content: enc.encode(readme) }, { path: 'computed_stats.json', content: enc.encode(JSON.stringify(stats, null, 2) + '\n') });
  return { dir: join(root, 'submission'), files, rows: all.length, success, configs: Object.fromEntries(configs.map((c) => [c, byConfig.get(c)!.length])) };
}

export function writeSubmission(s: Submission): void {
  for (const f of s.files) {
    const p = join(s.dir, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.content);
  }
}
