// run_config.json (spec §7.6, key order kept) with our additions: run_id (container labels),
// agent, network, judge_mode, pass_at, activity_timeout, schema_version. A retry keeps the
// first started_at and adds resumed_at; num_scenarios is always the full selection.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunPlan, SecretRef } from '../config/plan.js';
import type { AgentRecord } from '../../../agent-image/src/contract/result.js';
import { sha256File, type Provenance } from '../provenance/index.js';
import type { ResolvedDataset } from '../dataset/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { redactValue } from '../secrets/redact.js';

export function readRunConfig(dir: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(readFileSync(join(dir, 'run_config.json'), 'utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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
}

/** Where a key came from, never the key: the variable's name, or that it was given literally. */
function keySource(k: SecretRef | null): { api_key_env: string | null; api_key: 'given explicitly (not recorded)' | null } {
  if (!k) return { api_key_env: null, api_key: null };
  const literal = k.source === 'explicit' || k.source === 'toml';
  return { api_key_env: literal ? null : k.source, api_key: literal ? 'given explicitly (not recorded)' : null };
}

/** Every option of the plan, machine-readable, without secrets: enough to rerun it (rerun). */
export function planOptions(plan: RunPlan): Record<string, unknown> {
  const a = plan.agent;
  const j = plan.judge;
  const r = plan.run;
  return {
    target: plan.target,
    agent_options: {
      name: a.name, image: a.image, runtime: a.runtime, provider: a.provider, model: a.model, base_url: a.baseUrl,
      thinking: a.thinking, tools: a.tools, max_tokens: a.maxTokens, volumes: a.volumes, script: a.script,
      ...(a.version ? { version: a.version } : {}), ...(a.options && Object.keys(a.options).length ? { options: a.options } : {}),
      ...(a.script && existsSync(a.script) ? { script_sha256: sha256File(a.script) } : {}),
      ...keySource(a.apiKey),
    },
    judge_options: j
      ? { provider: j.provider, model: j.model, base_url: j.baseUrl, prompt_version: j.promptVersion ?? null, extra_body: j.extraBody ?? null, ...keySource(j.apiKey) }
      : null,
    agent2agent_options: plan.agent2agent
      ? {
          app_prop: plan.agent2agent.appProp, seed: plan.agent2agent.seed, provider: plan.agent2agent.provider,
          model: plan.agent2agent.model, base_url: plan.agent2agent.baseUrl, ...keySource(plan.agent2agent.apiKey),
        }
      : null,
    run_options: {
      timeout: r.timeout, health_timeout: r.healthTimeout, activity_timeout: r.activityTimeout, idle_timeout: r.idleTimeout ?? null, concurrency: r.concurrency,
      pass_at: r.passAt, log_level: r.logLevel, notification_mode: r.notificationMode, time_speed: r.timeSpeed, network: r.network,
      adapter_port: r.adapterPort, enable_caching: r.enableCaching, errors_as_failures: r.errorsAsFailures,
      // where the units ran (the [kubernetes] table names a kubeconfig file, never a credential)
      backend: r.backend,
    },
    // Nothing in the runner draws random numbers (scenario order and queues are deterministic);
    // sampling randomness is the model provider's.
    seeds: null,
  };
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
    timeout: plan.run.timeout,
    health_timeout: plan.run.healthTimeout,
    activity_timeout: plan.run.activityTimeout,
    network: plan.run.network,
    concurrency: plan.run.concurrency,
    pass_at: plan.run.passAt,
    limit: t.kind === 'scenario' ? null : t.limit,
    noise: plan.noise ?? null,
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
  }
  if (x.runNumber !== undefined) {
    rec.run_number = x.runNumber;
    rec.total_runs = plan.run.passAt;
  }
  Object.assign(rec, planOptions(plan), x.provenance ?? {});
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
