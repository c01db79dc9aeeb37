// run-config: validated TOML tables → RunPlan (docs/config.md; the reference's order of checks kept).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { DEFAULT_IMAGE } from '../image/index.js';
import { resolveBackend } from '../engine/registry.js';
import { ConfigError } from '../plan/errors.js';
import { readConfigFile } from './load-toml.js';
import type { ConfigFileData } from './toml-schema.js';
import { resolveConfigPath } from './paths.js';
import { RUN_DEFAULTS, type RunPlan, type Target } from '../plan/plan.js';
import { checkLanguage, checkMin, checkSequences, checkStuckLoopMin, checkBudget, languageRoot, resolveAgent, resolveJudge, resolveSecret } from './resolve-parts.js';
import { normaliseSplits } from '../plan/splits.js';
import { resolveAgentToAgent, TOML_A2A_NAMES } from './agent2agent.js';
import { noiseFromTable } from './noise.js';
import { resolveGateway } from './gateway.js';
import { checkShard, shardOutputDir } from '../plan/shard.js';

/** Absolute, symlink-free path of a config file argument. */
export function configFilePath(configPath: string): string {
  const file = resolve(configPath.startsWith('~') ? join(homedir(), configPath.slice(1)) : configPath);
  return existsSync(file) ? realpathSync(file) : file;
}

/** The patch for `--a2a-app-prop`: it replaces [agent2agent].app_prop. */
export function withA2aAppProp(appProp: number | undefined): ((data: ConfigFileData) => ConfigFileData) | undefined {
  return appProp === undefined ? undefined : (data) => ({ ...data, agent2agent: { ...data.agent2agent, app_prop: appProp } });
}

/**
 * Replaces the file's [run].shard_id / num_shards (run-config's --shard-id / --num-shards, a SLURM
 * task's own shard): a number sets it, null removes it, undefined keeps the file's.
 */
export function withShards(index: number | null | undefined, count: number | null | undefined): (data: ConfigFileData) => ConfigFileData {
  return (data) => {
    const { shard_id, num_shards, ...run } = data.run ?? {};
    const i = index === undefined ? shard_id : index;
    const n = count === undefined ? num_shards : count;
    return { ...data, run: { ...run, ...(i != null ? { shard_id: i } : {}), ...(n != null ? { num_shards: n } : {}) } };
  };
}

/**
 * TOML → plan. `patch` adjusts the validated tables first (command-line values that replace the
 * file's, e.g. --a2a-app-prop; gaia2-run builds each phase's plan from the same file with the
 * phase's [noise] and [agent2agent] settings). A [phases] table is read by gaia2-run only.
 */
export function loadRunConfig(
  configPath: string,
  env: Record<string, string | undefined> = process.env,
  patch?: (data: ConfigFileData) => ConfigFileData,
  o: { phases?: boolean } = {},
): RunPlan {
  const file = configFilePath(configPath);
  let data = readConfigFile(file);
  if (data.phases && !o.phases) throw new ConfigError(`${file}: [phases] is read by gaia2-run: gaia2-runner gaia2-run --config ${file}`);
  if (patch) data = patch(data);
  try {
    return toPlan(data, file, env);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`);
    throw e;
  }
}

function toPlan(data: ReturnType<typeof readConfigFile>, file: string, env: Record<string, string | undefined>): RunPlan {
  const base = dirname(file);
  const t = data.target;
  const path = (raw: string | undefined, name: string) => (raw ? resolveConfigPath(raw, name, base, env) : undefined);
  const mustExist = (p: string | undefined, name: string, dir = false) => {
    if (p === undefined) return p;
    if (!existsSync(p)) throw new ConfigError(`${name} does not exist: ${p}`);
    if (dir && !statSync(p).isDirectory()) throw new ConfigError(`${name} must be a directory: ${p}`);
    return p;
  };
  const scenario = mustExist(path(t.scenario, '[target].scenario'), '[target].scenario');
  const datasetRoot = mustExist(path(t.dataset_root, '[target].dataset_root'), '[target].dataset_root', true);
  const subset = mustExist(path(t.subset_manifest, '[target].subset_manifest'), '[target].subset_manifest');
  const sequences = mustExist(path(t.sequences, '[target].sequences'), '[target].sequences') ?? null;
  const language = checkLanguage(t.language, '[target].language', { scenario: Boolean(scenario) });
  const splits = normaliseSplits(t.splits ?? [], '[target].splits', language);
  checkMin(t.limit, 1, '[target].limit');
  const count = [scenario, datasetRoot, t.dataset].filter(Boolean).length;
  if (count !== 1) throw new ConfigError('Config must set exactly one of [target].scenario, [target].dataset_root, or [target].dataset');
  if (t.dataset && (/^[.~/]/.test(t.dataset) || t.dataset.split('/').length !== 2))
    throw new ConfigError(`[target].dataset must be a Hugging Face id "org/name" (got ${JSON.stringify(t.dataset)}); use [target].dataset_root for a local directory`);
  if (t.revision && !t.dataset) throw new ConfigError('[target].revision is only supported with [target].dataset (Hugging Face)');

  let target: Target;
  if (scenario) {
    if (splits) throw new ConfigError('[target].splits cannot be used with [target].scenario');
    if (subset) throw new ConfigError('[target].subset_manifest cannot be used with [target].scenario');
    if (t.recursive !== undefined) throw new ConfigError('[target].recursive is only supported for dataset targets');
    if (t.limit !== undefined) throw new ConfigError('[target].limit is only supported for dataset targets');
    target = { kind: 'scenario', scenario };
  } else if (datasetRoot) {
    const path = language ? languageRoot(datasetRoot, language) : datasetRoot;
    target = { kind: 'local', path, recursive: t.recursive ?? true, splits, subset: subset ?? null, limit: t.limit ?? null, ...(language ? { language } : {}), ...(sequences ? { sequences } : {}) };
  } else {
    target = { kind: 'hf', repo: t.dataset!, revision: t.revision ?? 'main', splits, subset: subset ?? null, limit: t.limit ?? null, ...(language ? { language } : {}), ...(sequences ? { sequences } : {}) };
  }

  const a = data.agent;
  const agentKey = resolveSecret({ value: a.api_key, envName: a.api_key_env }, { value: 'api_key', env: 'api_key_env', table: '[agent]', envLabel: '[agent].api_key_env' }, env);
  const agent = resolveAgent(
    { ...a, image: a.image ?? DEFAULT_IMAGE, name: a.name, apiKey: agentKey, baseUrl: a.base_url, maxTokens: a.max_tokens, contextWindow: a.context_window, script: path(a.script, '[agent].script'), instructionsFile: path(a.instructions_file, '[agent].instructions_file') },
    { image: '[agent].image', provider: '[agent].provider', model: '[agent].model', name: '[agent].name', script: '[agent].script', version: '[agent].version', options: '[agent.options]', instructions: '[agent].instructions_file', contextWindow: '[agent].context_window' },
  );
  if (agent.script) mustExist(agent.script, '[agent].script');
  const jt = data.judge ?? {};
  const judgeKey = resolveSecret({ value: jt.api_key, envName: jt.api_key_env }, { value: 'api_key', env: 'api_key_env', table: '[judge]', envLabel: '[judge].api_key_env' }, env);
  const judge = resolveJudge(
    { provider: jt.provider, model: jt.model, baseUrl: jt.base_url, apiKey: judgeKey, promptVersion: jt.prompt_version, extraBody: jt.extra_body },
    { provider: '[judge].provider', model: '[judge].model', promptVersion: '[judge].prompt_version' },
  );

  const r = data.run ?? {};
  const shard = checkShard(r.shard_id, r.num_shards, { index: '[run].shard_id', count: '[run].num_shards' });
  const givenOutputDir = path(r.output_dir, '[run].output_dir') ?? null;
  if (shard) {
    if (target.kind === 'scenario') throw new ConfigError('[run].shard_id and [run].num_shards split a dataset target, not [target].scenario');
    if (!givenOutputDir) throw new ConfigError('[run].num_shards requires [run].output_dir (each shard writes <output_dir>/shards/<I>-of-<N>/)');
    target = { ...target, shard };
  }
  // A shard's run is a complete run of its own in its folder; the default extra results copy follows it.
  const outputDir = shard && givenOutputDir ? shardOutputDir(givenOutputDir, shard) : givenOutputDir;
  checkSequences(
    { sequences, subset: subset ?? null, sharded: Boolean(shard), outputDir: givenOutputDir, scenarioTarget: target.kind === 'scenario' },
    { sequences: '[target].sequences', subset: '[target].subset_manifest', shard: '[run].num_shards', outputDir: '[run].output_dir' },
  );
  let output = path(r.output, '[run].output') ?? null;
  if (!output && outputDir && target.kind !== 'scenario') output = join(outputDir, 'results.jsonl');
  for (const k of ['timeout', 'health_timeout', 'activity_timeout', 'adapter_port', 'concurrency', 'pass_at'] as const) checkMin(r[k], 1, `[run].${k}`);
  checkMin(r.time_speed, 0, '[run].time_speed', true);
  checkMin(r.idle_timeout, 0, '[run].idle_timeout', true);
  checkMin(r.engine_outage_wait_s, 0, '[run].engine_outage_wait_s');
  const run = {
    ...RUN_DEFAULTS,
    timeout: r.timeout ?? RUN_DEFAULTS.timeout,
    healthTimeout: r.health_timeout ?? RUN_DEFAULTS.healthTimeout,
    activityTimeout: r.activity_timeout ?? RUN_DEFAULTS.activityTimeout,
    idleTimeout: r.idle_timeout ?? null,
    stuckLoopMinToolCalls: checkStuckLoopMin(r.stuck_loop_min_tool_calls, '[run].stuck_loop_min_tool_calls'),
    budget: checkBudget(
      { maxCostUsd: r.max_cost_usd, maxTokens: r.max_tokens, totalMaxCostUsd: r.total_max_cost_usd, totalMaxTokens: r.total_max_tokens },
      { maxCostUsd: '[run].max_cost_usd', maxTokens: '[run].max_tokens', totalMaxCostUsd: '[run].total_max_cost_usd', totalMaxTokens: '[run].total_max_tokens' },
    ),
    engineOutageWait: r.engine_outage_wait_s ?? RUN_DEFAULTS.engineOutageWait,
    adapterPort: r.adapter_port ?? RUN_DEFAULTS.adapterPort,
    concurrency: r.concurrency ?? 1,
    passAt: r.pass_at ?? 1,
    retry: r.retry ?? false,
    outputDir,
    output,
    logLevel: r.log_level ?? 'INFO',
    notificationMode: r.notification_mode ?? 'message',
    timeSpeed: r.time_speed ?? null,
    clockCpuWait: r.clock_cpu_wait ?? null,
    network: r.network ?? 'bridge',
    enableCaching: r.enable_caching ?? false,
    errorsAsFailures: r.errors_as_failures ?? false,
    backend: resolveBackend(r.backend, data, (raw, name) => path(raw, name)!),
  };
  if (target.kind === 'scenario') {
    if (run.concurrency !== 1) throw new ConfigError('[run].concurrency is only supported for dataset targets');
    if (run.passAt !== 1) throw new ConfigError('[run].pass_at > 1 is only supported for dataset targets');
    if (run.retry) throw new ConfigError('--retry is only supported for dataset targets');
  }
  if (run.passAt > 1 && !outputDir) throw new ConfigError('[run].pass_at > 1 requires [run].output_dir');
  const x = data.agent2agent ?? {};
  const agent2agent = resolveAgentToAgent(
    { appProp: x.app_prop, seed: x.seed, provider: x.provider, model: x.model, baseUrl: x.base_url, apiKeyEnv: x.api_key_env },
    agent,
    TOML_A2A_NAMES,
    env,
  );
  const noise = data.noise ? noiseFromTable(data.noise) : null;
  // What the backend cannot do (network = "host" on a cluster) is refused by the run's preflight, from its capabilities.
  const gateway = resolveGateway({ table: data.gateway, limits: data.limits, path: (raw, name) => path(raw, name)! });
  return { command: 'run-config', configPath: file, target, agent, judge, run, agent2agent, noise, gateway };
}
