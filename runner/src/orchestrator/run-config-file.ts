// This run's record (record/run-record.ts): the plan's options (toRecord) and the facts of the
// run: run_id (container labels), who played, when it started, how many scenarios it planned,
// provenance. A retry keeps the first started_at and adds resumed_at; num_scenarios is always
// the full selection. record/write.ts writes it (with the reference's flat keys, derived).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunPlan } from '../plan/plan.js';
import { digestOf, type Provenance } from '../provenance/index.js';
import { findRunRecord, RUN_RECORD_FILE, RUN_RECORD_SCHEMA_VERSION, toRecord, writeRunRecord, type RunRecord } from '../record/index.js';
import type { AgentRecord } from '@gaia2/contract/result';
import type { ResolvedDataset } from '../dataset/index.js';

/** This directory's own record (a retry keeps its started_at), not run_1's. */
export function readRunConfig(dir: string): RunRecord | null {
  return findRunRecord(join(dir, RUN_RECORD_FILE));
}

export interface RunConfigExtras {
  runId: string;
  /** Who plays, with its exact version (orchestrator/agent-image.ts); default: the plan's name. */
  agent?: AgentRecord;
  numScenarios: number;
  retryCount: number | null;
  runNumber?: number;
  now: Date;
  /** Runner, engine, image, dataset revision and scenario hashes (absent in some tests). */
  provenance?: Provenance;
  /** How model traffic flowed: through the gateway, direct, or replayed (docs/gateway.md). */
  gateway?: object;
}

export function runConfigRecord(plan: RunPlan, ds: ResolvedDataset | null, x: RunConfigExtras, previous: RunRecord | null, env: Record<string, string | undefined>): RunRecord {
  const t = plan.target;
  const retry = x.retryCount !== null;
  const dataset = t.kind !== 'scenario';
  const options = toRecord(plan);
  return {
    ...options,
    // The judge settings' digest, so a verdict can be tied to the exact judge (`verify`).
    judge_sha256: digestOf(options.judge_options),
    schema_version: RUN_RECORD_SCHEMA_VERSION,
    run_id: x.runId,
    started_at: retry && previous?.started_at ? previous.started_at : x.now.toISOString(),
    ...(retry ? { resumed_at: x.now.toISOString() } : {}),
    user: env.USER ?? '',
    agent: x.agent ? { name: x.agent.name, version: x.agent.version ?? null } : { name: plan.agent.name, version: plan.agent.version ?? null },
    ...(plan.configPath ? { config_path: plan.configPath } : {}),
    ...(t.kind === 'hf' && ds?.cacheDir ? { dataset_cache_dir: ds.cacheDir } : {}),
    ...(dataset && ds?.splits ? { splits: ds.splits } : {}),
    ...(dataset ? { num_scenarios: x.numScenarios } : {}),
    ...(dataset && retry ? { retry_num_scenarios: x.retryCount! } : {}),
    // What `aggregate` checks a shard against: its place, its planned scenarios, the whole selection's.
    ...(dataset && ds?.shard ? { shard: { shard_id: ds.shard.index, num_shards: ds.shard.count, num_scenarios: x.numScenarios, dataset_num_scenarios: ds.shard.selected } } : {}),
    ...(x.runNumber !== undefined ? { run_number: x.runNumber } : {}),
    ...(x.gateway ? { model_gateway: x.gateway as Record<string, unknown> } : {}),
    ...(x.provenance ?? {}),
  };
}

export async function writeRunConfig(dir: string, rec: RunRecord): Promise<void> {
  await writeRunRecord(dir, rec);
}

export function previousRunIds(dir: string, passAt: number): string[] {
  const dirs = [dir, ...Array.from({ length: passAt }, (_, i) => join(dir, `run_${i + 1}`))];
  const ids = new Set<string>();
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    const id = readRunConfig(d)?.run_id;
    if (id) ids.add(id);
  }
  return [...ids];
}

/** What result.json records of the judge's configuration (none without a judge LLM). */
export function judgeSettingsRecord(plan: RunPlan): { judge_prompt_version?: string; judge_extra_body?: Record<string, unknown> } {
  const j = plan.judge;
  if (!j) return {};
  return { judge_prompt_version: j.promptVersion ?? 'default', ...(j.extraBody ? { judge_extra_body: j.extraBody } : {}) };
}
