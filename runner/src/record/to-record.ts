// RunPlan → the options part of run_config.json (schema.ts): every setting, no secret.
import { hasBudget } from '../plan/budget.js';
import { existsSync } from 'node:fs';
import { sha256File } from '../fsutil/hash.js';
import type { RunPlan, SecretRef } from '../plan/plan.js';
import type { RecordedOptions } from './schema.js';

export const LITERAL_KEY = 'given explicitly (not recorded)';

/** Where a key came from, never the key: the variable's name, or that it was given literally. */
function keySource(k: SecretRef | null): { api_key_env: string | null; api_key: string | null } {
  if (!k) return { api_key_env: null, api_key: null };
  const literal = k.source === 'explicit' || k.source === 'toml';
  return { api_key_env: literal ? null : k.source, api_key: literal ? LITERAL_KEY : null };
}

export function toRecord(plan: RunPlan): RecordedOptions {
  const a = plan.agent;
  const j = plan.judge;
  const r = plan.run;
  const x = plan.agent2agent;
  return {
    command: plan.command,
    target: plan.target,
    agent_options: {
      name: a.name, image: a.image, runtime: a.runtime, provider: a.provider, model: a.model, base_url: a.baseUrl,
      thinking: a.thinking, tools: a.tools, max_tokens: a.maxTokens, ...(a.contextWindow ? { context_window: a.contextWindow } : {}), volumes: a.volumes, script: a.script,
      ...(a.version ? { version: a.version } : {}), ...(a.options && Object.keys(a.options).length ? { options: a.options } : {}),
      ...(a.instructions ? { instructions_file: { path: a.instructions.path, sha256: a.instructions.sha256 } } : {}),
      ...(a.script && existsSync(a.script) ? { script_sha256: sha256File(a.script) } : {}),
      ...keySource(a.apiKey),
    },
    judge_options: j
      ? { provider: j.provider, model: j.model, base_url: j.baseUrl, prompt_version: j.promptVersion ?? null, extra_body: j.extraBody ?? null, ...keySource(j.apiKey) }
      : null,
    agent2agent_options: x ? { app_prop: x.appProp, seed: x.seed, provider: x.provider, model: x.model, base_url: x.baseUrl, ...keySource(x.apiKey) } : null,
    run_options: {
      timeout: r.timeout, health_timeout: r.healthTimeout, activity_timeout: r.activityTimeout, idle_timeout: r.idleTimeout ?? null, concurrency: r.concurrency,
      // Only when on: a setting that is off stays out of the record, so the result cache's keys of
      // runs made before it existed still match.
      ...(r.clockCpuWait ? { clock_cpu_wait: r.clockCpuWait } : {}),
      ...(r.stuckLoopMinToolCalls ? { stuck_loop_min_tool_calls: r.stuckLoopMinToolCalls } : {}),
      ...(hasBudget(r.budget) ? { budget: { max_cost_usd: r.budget.maxCostUsd, max_tokens: r.budget.maxTokens, total_max_cost_usd: r.budget.totalMaxCostUsd, total_max_tokens: r.budget.totalMaxTokens } } : {}),
      engine_outage_wait_s: r.engineOutageWait,
      pass_at: r.passAt, log_level: r.logLevel, notification_mode: r.notificationMode, time_speed: r.timeSpeed, network: r.network,
      adapter_port: r.adapterPort, enable_caching: r.enableCaching, errors_as_failures: r.errorsAsFailures,
      backend: r.backend,
    },
    noise: plan.noise ?? null,
    ...(plan.gateway ? { gateway_options: { mode: plan.gateway.mode, replay: plan.gateway.replay, retry_attempts: plan.gateway.retryAttempts, retry_budget_seconds: plan.gateway.retryBudgetSeconds, limits: plan.gateway.limits, allow_provider_tools: plan.gateway.allowProviderTools } } : {}),
    seeds: null,
  };
}
