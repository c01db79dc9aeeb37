// run_config.json → the plan that produced it, so a run can be repeated from its record alone
// (`gaia2-runner rerun`). The record's options are checked against record/'s schema. Keys are
// never recorded: a recorded variable name is read again from the environment; a literal key
// falls back to the provider's variables, like an absent one.
import { resolve } from 'node:path';
import { NoiseSettingsError, parseNoiseSettings } from '@gaia2/contract/noise';
import { ConfigError } from '../plan/errors.js';
import { RUN_DEFAULTS, type AgentSettings, type JudgeSettings, type RunPlan, type SecretRef, type Target } from '../plan/plan.js';
import { recordedOptions, type RunRecord } from '../record/index.js';
import { resolveSecret } from './resolve-parts.js';
import { resolveAgentToAgent } from './agent2agent.js';
import { gatewayOf } from './gateway-record.js';
import { loadInstructionsFile } from '../agents/instructions-template.js';
import { checkShard, shardOutputDir } from '../plan/shard.js';

/**
 * The run's instructions template, read again from its recorded path; refused when the file is
 * gone or no longer the recorded bytes (a rerun with other instructions is another run).
 */
function recordedInstructions(r: { path: string; sha256: string } | undefined, file: string): AgentSettings['instructions'] {
  if (!r) return null;
  const field = `agent_options.instructions_file in ${file}:`;
  let got;
  try {
    got = loadInstructionsFile(r.path, field);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (got.sha256 !== r.sha256) throw new ConfigError(`${field} ${got.path} changed since the run (sha256 ${got.sha256}, recorded ${r.sha256})`);
  return got;
}

function key(o: { api_key_env: string | null }, label: string, env: Record<string, string | undefined>): SecretRef | null {
  return resolveSecret({ envName: o.api_key_env ?? undefined }, { value: `${label}.api_key`, env: `${label}.api_key_env`, table: label }, env);
}

/**
 * The recorded plan. `pinRevision`: a Hugging Face target uses the recorded commit instead of
 * the branch name, so the rerun sees the same scenarios even after the branch moved.
 */
export function planFromRunRecord(rec: RunRecord, file: string, env: Record<string, string | undefined>, o: { outputDir: string | null; pinRevision?: boolean }): RunPlan {
  const opts = recordedOptions(rec, file);
  const target = structuredClone(opts.target) as Target;
  if (target.kind === 'hf') {
    delete target.refresh;
    const sha = typeof rec.dataset_revision_sha === 'string' ? rec.dataset_revision_sha : null;
    if (o.pinRevision && sha) target.revision = sha;
  }
  // A shard's record reruns that shard, into <output-dir>/shards/<I>-of-<N>/ like the first time.
  const shard = target.kind === 'scenario' ? null : checkShard(target.shard?.index, target.shard?.count, { index: `target.shard.index in ${file}`, count: `target.shard.count in ${file}` });
  const outputDir = o.outputDir ? resolve(o.outputDir) : null;
  const a = opts.agent_options;
  const r = opts.run_options;
  const j = opts.judge_options;
  const agent: AgentSettings = {
    name: a.name,
    image: a.image,
    runtime: a.runtime,
    provider: a.provider,
    model: a.model,
    apiKey: key(a, 'agent_options', env),
    baseUrl: a.base_url,
    thinking: a.thinking,
    tools: a.tools,
    maxTokens: a.max_tokens,
    ...(a.context_window ? { contextWindow: a.context_window } : {}),
    volumes: a.volumes,
    script: a.script,
    version: a.version ?? null,
    options: a.options ?? {},
    instructions: recordedInstructions(a.instructions_file, file),
  };
  const judge: JudgeSettings | null = j
    ? { provider: j.provider, model: j.model, baseUrl: j.base_url, apiKey: key(j, 'judge_options', env), promptVersion: j.prompt_version, extraBody: j.extra_body }
    : null;
  const x = opts.agent2agent_options;
  const at = (f: string) => `agent2agent_options.${f} in ${file}`;
  const agent2agent = x
    ? resolveAgentToAgent(
        { appProp: x.app_prop, seed: x.seed ?? undefined, provider: x.provider, model: x.model, baseUrl: x.base_url ?? undefined, apiKeyEnv: x.api_key_env ?? undefined },
        agent,
        { appProp: at('app_prop'), seed: at('seed'), provider: at('provider'), model: at('model'), apiKeyEnv: at('api_key_env'), table: `agent2agent_options in ${file}` },
        env,
      )
    : null;
  let noise = null;
  try {
    noise = opts.noise ? parseNoiseSettings(opts.noise, `noise in ${file}`) : null;
  } catch (e) {
    if (e instanceof NoiseSettingsError) throw new ConfigError(e.message);
    throw e;
  }
  return {
    command: opts.command,
    configPath: null,
    target,
    agent,
    judge,
    agent2agent,
    noise,
    ...gatewayOf(rec.gateway_options),
    run: {
      ...RUN_DEFAULTS,
      timeout: r.timeout,
      healthTimeout: r.health_timeout,
      activityTimeout: r.activity_timeout,
      idleTimeout: r.idle_timeout,
      stuckLoopMinToolCalls: r.stuck_loop_min_tool_calls ?? 0,
      budget: r.budget ? { maxCostUsd: r.budget.max_cost_usd, maxTokens: r.budget.max_tokens, totalMaxCostUsd: r.budget.total_max_cost_usd, totalMaxTokens: r.budget.total_max_tokens } : RUN_DEFAULTS.budget,
      engineOutageWait: r.engine_outage_wait_s ?? RUN_DEFAULTS.engineOutageWait,
      concurrency: r.concurrency,
      passAt: r.pass_at,
      logLevel: r.log_level,
      notificationMode: r.notification_mode,
      timeSpeed: r.time_speed,
      clockCpuWait: r.clock_cpu_wait ?? null,
      network: r.network,
      adapterPort: r.adapter_port,
      enableCaching: r.enable_caching,
      errorsAsFailures: r.errors_as_failures,
      backend: r.backend,
      outputDir: shard && outputDir ? shardOutputDir(outputDir, shard) : outputDir,
    },
  };
}
