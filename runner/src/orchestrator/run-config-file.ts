// run_config.json (spec §7.6, key order kept) with our additions: run_id (container labels),
// agent, network, judge_mode, pass_at, activity_timeout, schema_version. A retry keeps the
// first started_at and adds resumed_at; num_scenarios is always the full selection.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunPlan } from '../plan/plan.js';
import type { Provenance } from '../provenance/index.js';
import { findRunRecord, toRecord } from '../record/index.js';
import type { AgentRecord } from '../../../agent-image/src/contract/result.js';
import type { ResolvedDataset } from '../dataset/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { redactValue } from '../secrets/redact.js';

/** This directory's own record (a retry keeps its started_at), not run_1's. */
export function readRunConfig(dir: string): Record<string, unknown> | null {
  return findRunRecord(join(dir, 'run_config.json'));
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

export function runConfigRecord(plan: RunPlan, ds: ResolvedDataset | null, x: RunConfigExtras, previous: Record<string, unknown> | null, env: Record<string, string | undefined>): Record<string, unknown> {
  const t = plan.target;
  const rec: Record<string, unknown> = {
    schema_version: 1,
    command: plan.command,
    run_id: x.runId,
    started_at: typeof previous?.started_at === 'string' && x.retryCount !== null ? previous.started_at : x.now.toISOString(),
    ...(x.retryCount !== null ? { resumed_at: x.now.toISOString() } : {}),
    user: env.USER ?? '',
    image: plan.agent.image,
    runtime: plan.agent.runtime,
    agent: x.agent ?? { name: plan.agent.name, version: plan.agent.version ?? null },
    provider: plan.agent.provider,
    model: plan.agent.model,
    base_url: plan.agent.baseUrl,
    judge_model: plan.judge?.model ?? null,
    judge_provider: plan.judge?.provider ?? null,
    judge_base_url: plan.judge?.baseUrl ?? null,
    judge_mode: plan.judge ? 'llm' : 'hard-only',
    // the reference's names: the prompt set and extra body of the judge, the daemon's idle timeout
    judge_prompt_version: plan.judge?.promptVersion ?? null,
    judge_extra_body: plan.judge?.extraBody ?? null,
    idle_timeout: plan.run.idleTimeout ?? null,
    stuck_loop_min_tool_calls: plan.run.stuckLoopMinToolCalls,
    timeout: plan.run.timeout,
    health_timeout: plan.run.healthTimeout,
    activity_timeout: plan.run.activityTimeout,
    network: plan.run.network,
    concurrency: plan.run.concurrency,
    pass_at: plan.run.passAt,
    limit: t.kind === 'scenario' ? null : t.limit,
    noise: plan.noise ?? null,
    ...(x.gateway ? { model_gateway: x.gateway } : {}),
  };
  // Agent2Agent (ARE's a2a_app_prop and the app agents' model); absent in a standard run.
  const a2a = plan.agent2agent;
  if (a2a) Object.assign(rec, { a2a_app_prop: a2a.appProp, a2a_seed: a2a.seed, a2a_provider: a2a.provider, a2a_model: a2a.model, a2a_base_url: a2a.baseUrl });
  if (plan.configPath) rec.config_path = plan.configPath;
  if (t.kind === 'hf') {
    rec.dataset = t.repo;
    rec.revision = t.revision;
    rec.dataset_cache_dir = ds?.cacheDir;
  } else if (t.kind === 'local') rec.dataset = t.path;
  if (t.kind !== 'scenario') rec.language = t.language ?? null;
  else rec.scenario = t.scenario;
  if (t.kind !== 'scenario') {
    if (t.subset) rec.subset = t.subset;
    if (ds?.splits) rec.splits = ds.splits;
    rec.num_scenarios = x.numScenarios;
    if (x.retryCount !== null) rec.retry_num_scenarios = x.retryCount;
    // What `aggregate` checks a shard against: its place, its planned scenarios, the whole selection's.
    if (ds?.shard) rec.shard = { shard_id: ds.shard.index, num_shards: ds.shard.count, num_scenarios: x.numScenarios, dataset_num_scenarios: ds.shard.selected };
  }
  if (x.runNumber !== undefined) {
    rec.run_number = x.runNumber;
    rec.total_runs = plan.run.passAt;
  }
  Object.assign(rec, toRecord(plan), x.provenance ?? {});
  return redactValue(rec);
}

export async function writeRunConfig(dir: string, rec: Record<string, unknown>): Promise<void> {
  await writeJsonAtomic(join(dir, 'run_config.json'), rec);
}

export function previousRunIds(dir: string, passAt: number): string[] {
  const dirs = [dir, ...Array.from({ length: passAt }, (_, i) => join(dir, `run_${i + 1}`))];
  const ids = new Set<string>();
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    const id = readRunConfig(d)?.run_id;
    if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

/** What result.json records of the judge's configuration (none without a judge LLM). */
export function judgeSettingsRecord(plan: RunPlan): { judge_prompt_version?: string; judge_extra_body?: Record<string, unknown> } {
  const j = plan.judge;
  if (!j) return {};
  return { judge_prompt_version: j.promptVersion ?? 'default', ...(j.extraBody ? { judge_extra_body: j.extraBody } : {}) };
}
