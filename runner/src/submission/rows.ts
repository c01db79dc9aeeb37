// Leaderboard rows from a finished gaia2-run root: one per scenario run of every phase, with
// the phase's flags and the run's own trace files as `data`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract/result';
import type { NoiseSettings } from '@gaia2/contract/noise';
import { AGENT2AGENT_APP_PROP, PHASE_NAMES, type PhaseName } from '../plan/phases.js';
import { loadRunRecords, type RunRecord } from '../report/index.js';
import { findRunRecord, runRecordFile, runRecordJson } from '../record/index.js';
import type { SubmissionRow } from './format.js';

/** What a row's `data` holds: our run's files (the reference puts its own trace export here). */
export const TRACE_FORMAT = 'gaia2-runner/run-files@1';
// app_agents_trace.jsonl: the Agent2Agent app agents' side of the conversation.
const TRACE_FILES = ['events.jsonl', 'trace.jsonl', 'app_agents_trace.jsonl', 'noise.jsonl', 'daemon_judgments.jsonl'] as const;

const readText = (f: string): string | null => (existsSync(f) ? readFileSync(f, 'utf8') : null);

function traceData(rec: RunRecord): string {
  const dir = dirname(rec.path);
  const files: Record<string, string> = {};
  for (const f of TRACE_FILES) {
    const t = readText(join(dir, f));
    if (t !== null) files[f] = t;
  }
  return JSON.stringify({ format: TRACE_FORMAT, result: rec.result, files });
}

function statusOf(r: ScenarioResult): { status: string; score?: number } {
  if (r.status === 'pass' || r.success === true) return { status: 'success', score: 1 };
  if (r.status === 'fail' || r.success === false) return { status: 'failed', score: 0 };
  return { status: 'exception' };
}

export interface PhaseRows {
  phase: PhaseName;
  /** The base config of every row (the scenario's split, or `mini` for a mini-subset phase). */
  rows: SubmissionRow[];
}

/** Rows of every phase under `root` (phases without a directory are absent). */
export function collectRows(root: string, o: { miniSubset: boolean }): PhaseRows[] {
  const out: PhaseRows[] = [];
  for (const phase of PHASE_NAMES) {
    const dir = join(root, phase);
    if (!existsSync(dir)) continue;
    // One record per run directory, read once. A row carries it with its own scenario's hash
    // only: the record's table of every scenario's hash in every row would grow the export
    // with the square of the dataset.
    const records = new Map<number, { runDir: string; config: Record<string, unknown>; noise: NoiseSettings | null; hashes: Record<string, string> }>();
    const recordOf = (runIndex: number) => {
      let hit = records.get(runIndex);
      if (!hit) {
        const perRun = join(dir, `run_${runIndex}`);
        const runDir = existsSync(runRecordFile(perRun)) ? perRun : dir;
        const rec = findRunRecord(runDir);
        // The row's run_config is the record as run_config.json stores it (record/write.ts).
        const { scenario_hashes, ...config } = rec ? runRecordJson(rec) : {};
        records.set(runIndex, (hit = { runDir, config, noise: (rec?.noise ?? null) as NoiseSettings | null, hashes: (scenario_hashes ?? {}) as Record<string, string> }));
      }
      return hit;
    };
    const rows = loadRunRecords(dir).map((rec): SubmissionRow => {
      const { runDir, config: recorded, noise, hashes } = recordOf(rec.runIndex);
      const hash = hashes[relative(runDir, dirname(rec.path))];
      const runConfig: Record<string, unknown> = { ...recorded, ...(hash ? { scenario_hash: hash } : {}) };
      const r = rec.result;
      const { status, score } = statusOf(r);
      const config = phase !== 'standard' && o.miniSubset ? 'mini' : (rec.split ?? 'unknown');
      const row: Record<string, string | number | boolean | null | undefined> = {
        scenario_id: r.scenario_id,
        run_number: rec.runIndex,
        task_id: r.scenario_id,
        score,
        status,
        data: traceData(rec),
        has_exception: status === 'exception',
        exception_type: status === 'exception' ? (r.error_kind ?? 'error') : null,
        exception_message: status === 'exception' ? (r.error ?? null) : null,
        rationale: r.failure_reasons?.length ? r.failure_reasons.join('\n') : null,
        config,
        phase_name: phase,
        a2a_app_prop: phase === 'agent2agent' ? AGENT2AGENT_APP_PROP : 0,
        has_app_noise: phase === 'noise' && !!noise?.tool_augmentation,
        has_env_noise: phase === 'noise' && !!noise?.env_events,
        run_config: JSON.stringify(runConfig),
      };
      return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)) as SubmissionRow;
    });
    out.push({ phase, rows });
  }
  return out;
}
