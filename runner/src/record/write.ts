// The one writer of run_config.json. The file is the typed record (run-record.ts) preceded by
// the reference's flat keys (spec runner §7.6: its viewer and tools read `model`, `dataset`,
// `judge_model`…). Those keys are a contract, so they stay, but they are derived here from the
// record and never read back: read.ts takes the record's own fields.
import { join } from 'node:path';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { redactValue } from '../secrets/redact.js';
import type { RunRecord } from './run-record.js';

export const RUN_RECORD_FILE = 'run_config.json';

/** The reference's keys the record holds in its own sections; written first, in the reference's order. */
function referenceKeys(rec: RunRecord): Record<string, unknown> {
  const a = rec.agent_options;
  const j = rec.judge_options;
  const t = rec.target;
  const r = rec.run_options;
  const dataset = t?.kind === 'hf' ? t.repo : t?.kind === 'local' ? t.path : undefined;
  const subset = t && t.kind !== 'scenario' ? t.subset : null;
  return {
    command: rec.command,
    started_at: rec.started_at,
    user: rec.user,
    image: a?.image ?? null,
    runtime: a?.runtime ?? null,
    provider: a?.provider ?? null,
    model: a?.model ?? null,
    base_url: a?.base_url ?? null,
    judge_model: j?.model ?? null,
    judge_provider: j?.provider ?? null,
    judge_base_url: j?.base_url ?? null,
    timeout: r.timeout,
    health_timeout: r.health_timeout,
    concurrency: r.concurrency,
    limit: t && t.kind !== 'scenario' ? t.limit : null,
    ...(rec.config_path ? { config_path: rec.config_path } : {}),
    ...(dataset ? { dataset } : {}),
    ...(rec.dataset_cache_dir ? { dataset_cache_dir: rec.dataset_cache_dir } : {}),
    ...(t?.kind === 'scenario' ? { scenario: t.scenario } : {}),
    ...(subset ? { subset } : {}),
    ...(rec.splits ? { splits: rec.splits } : {}),
    ...(rec.num_scenarios !== undefined ? { num_scenarios: rec.num_scenarios } : {}),
    ...(rec.retry_num_scenarios !== undefined ? { retry_num_scenarios: rec.retry_num_scenarios } : {}),
    ...(rec.run_number !== undefined ? { run_number: rec.run_number, total_runs: r.pass_at } : {}),
  };
}

/** The file's JSON: the reference's keys, then every field of the record not already among them. */
export function runRecordJson(rec: RunRecord): Record<string, unknown> {
  const flat = referenceKeys(rec);
  const rest = Object.fromEntries(Object.entries(rec).filter(([k, v]) => !(k in flat) && v !== undefined));
  return redactValue({ ...flat, ...rest });
}

/** <dir>/run_config.json, written whole or not at all. */
export async function writeRunRecord(dir: string, rec: RunRecord): Promise<void> {
  await writeJsonAtomic(join(dir, RUN_RECORD_FILE), runRecordJson(rec));
}
