// The Gaia2 leaderboard submission format, as the reference writes it (docs/protocol.md,
// "Submission"): a Hugging Face dataset with one config per (phase, config), named
// `<config>`, `<config>_a2a` or `<config>_noise`, data files `<config_name>/<split>-*`, and
// one row per scenario run with these columns.
import type { PhaseName } from '../plan/phases.js';

export type ColumnType = 'string' | 'int64' | 'float64' | 'bool';

/** Column names and types, in the reference's order. */
export const SUBMISSION_COLUMNS: ReadonlyArray<readonly [string, ColumnType]> = [
  ['scenario_id', 'string'],
  ['run_number', 'int64'],
  ['task_id', 'string'],
  ['score', 'float64'],
  ['status', 'string'],
  ['data', 'string'],
  ['run_type', 'string'],
  ['config', 'string'],
  ['phase_name', 'string'],
  ['a2a_app_prop', 'float64'],
  ['has_app_noise', 'bool'],
  ['has_env_noise', 'bool'],
  ['run_config', 'string'],
  ['has_exception', 'bool'],
  ['exception_type', 'string'],
  ['exception_message', 'string'],
  ['rationale', 'string'],
];

export const SUBMISSION_STATUSES = ['success', 'failed', 'exception', 'no_validation'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** One leaderboard row; absent (null) values are left out, as the reference drops them. */
export type SubmissionRow = Record<string, string | number | boolean>;

/** The reference's default split of a submission. */
export const DEFAULT_SUBMISSION_SPLIT = 'validation';

const SUFFIX: Record<PhaseName, string> = { standard: '', agent2agent: '_a2a', noise: '_noise' };

export const configName = (config: string, phase: PhaseName): string => `${config}${SUFFIX[phase]}`;

/** The data file of a config: the reference's `<config_name>/<split>-*` layout. */
export const dataFilePath = (config: string, split: string): string => `${config}/${split}-00000-of-00001.parquet`;

/** Problems with rows against the format (empty when they conform). */
export function validateRows(rows: readonly SubmissionRow[]): string[] {
  const problems: string[] = [];
  const types = new Map(SUBMISSION_COLUMNS);
  rows.forEach((r, i) => {
    const at = `row ${i} (${String(r.scenario_id)} run ${String(r.run_number)})`;
    for (const [k, v] of Object.entries(r)) {
      const t = types.get(k);
      if (!t) problems.push(`${at}: unknown column ${k}`);
      else if (t === 'string' ? typeof v !== 'string' : t === 'bool' ? typeof v !== 'boolean' : typeof v !== 'number' || (t === 'int64' && !Number.isInteger(v)))
        problems.push(`${at}: ${k} must be ${t}`);
    }
    for (const k of ['scenario_id', 'run_number', 'task_id', 'status', 'config', 'phase_name', 'a2a_app_prop', 'has_app_noise', 'has_env_noise', 'has_exception'])
      if (!(k in r)) problems.push(`${at}: missing ${k}`);
    if (!(SUBMISSION_STATUSES as readonly string[]).includes(String(r.status))) problems.push(`${at}: status ${String(r.status)} is not one of ${SUBMISSION_STATUSES.join(', ')}`);
    const want = r.status === 'success' ? 1 : r.status === 'failed' ? 0 : undefined;
    if (r.score !== want) problems.push(`${at}: score ${String(r.score)} does not match status ${String(r.status)}`);
    if (!['standard', 'agent2agent', 'noise'].includes(String(r.phase_name))) problems.push(`${at}: unknown phase ${String(r.phase_name)}`);
  });
  return problems;
}
