// run-config: validated TOML tables → RunPlan (spec/runner.md §2; order of checks kept).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { DEFAULT_IMAGE } from '../image/index.js';
import { resolveBackend } from './backend.js';
import { ConfigError } from './errors.js';
import { readConfigFile } from './load-toml.js';
import { resolveConfigPath } from './paths.js';
import { RUN_DEFAULTS, type RunPlan, type Target } from './plan.js';
import { checkMin, resolveAgent, resolveJudge, resolveSecret } from './resolve-parts.js';
import { normaliseSplits } from './splits.js';

export function loadRunConfig(configPath: string, env: Record<string, string | undefined> = process.env): RunPlan {
  let file = configPath.startsWith('~') ? join(homedir(), configPath.slice(1)) : configPath;
  file = resolve(file);
  if (existsSync(file)) file = realpathSync(file);
  const data = readConfigFile(file);
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
  const splits = normaliseSplits(t.splits ?? [], '[target].splits');
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
    target = { kind: 'local', path: datasetRoot, recursive: t.recursive ?? true, splits, subset: subset ?? null, limit: t.limit ?? null };
  } else {
    target = { kind: 'hf', repo: t.dataset!, revision: t.revision ?? 'main', splits, subset: subset ?? null, limit: t.limit ?? null };
  }

  const a = data.agent;
  const agentKey = resolveSecret({ value: a.api_key, envName: a.api_key_env }, { value: 'api_key', env: 'api_key_env', table: '[agent]', envLabel: '[agent].api_key_env' }, env);
  const agent = resolveAgent(
    { ...a, image: a.image ?? DEFAULT_IMAGE, name: a.name, apiKey: agentKey, baseUrl: a.base_url, maxTokens: a.max_tokens, script: path(a.script, '[agent].script') },
    { image: '[agent].image', provider: '[agent].provider', model: '[agent].model', name: '[agent].name', script: '[agent].script' },
  );
  if (agent.script) mustExist(agent.script, '[agent].script');
  const jt = data.judge ?? {};
  const judgeKey = resolveSecret({ value: jt.api_key, envName: jt.api_key_env }, { value: 'api_key', env: 'api_key_env', table: '[judge]', envLabel: '[judge].api_key_env' }, env);
  const judge = resolveJudge({ provider: jt.provider, model: jt.model, baseUrl: jt.base_url, apiKey: judgeKey }, { provider: '[judge].provider', model: '[judge].model' });

  const r = data.run ?? {};
  const outputDir = path(r.output_dir, '[run].output_dir') ?? null;
  let output = path(r.output, '[run].output') ?? null;
  if (!output && outputDir && target.kind !== 'scenario') output = join(outputDir, 'results.jsonl');
  for (const k of ['timeout', 'health_timeout', 'activity_timeout', 'adapter_port', 'concurrency', 'pass_at'] as const) checkMin(r[k], 1, `[run].${k}`);
  checkMin(r.time_speed, 0, '[run].time_speed', true);
  const run = {
    ...RUN_DEFAULTS,
    timeout: r.timeout ?? RUN_DEFAULTS.timeout,
    healthTimeout: r.health_timeout ?? RUN_DEFAULTS.healthTimeout,
    activityTimeout: r.activity_timeout ?? RUN_DEFAULTS.activityTimeout,
    adapterPort: r.adapter_port ?? RUN_DEFAULTS.adapterPort,
    concurrency: r.concurrency ?? 1,
    passAt: r.pass_at ?? 1,
    retry: r.retry ?? false,
    outputDir,
    output,
    logLevel: r.log_level ?? 'INFO',
    notificationMode: r.notification_mode ?? 'message',
    timeSpeed: r.time_speed ?? null,
    network: r.network ?? 'bridge',
    backend: resolveBackend(r.backend, data.kubernetes, (raw, name) => path(raw, name)!),
  };
  if (target.kind === 'scenario') {
    if (run.concurrency !== 1) throw new ConfigError('[run].concurrency is only supported for dataset targets');
    if (run.passAt !== 1) throw new ConfigError('[run].pass_at > 1 is only supported for dataset targets');
    if (run.retry) throw new ConfigError('--retry is only supported for dataset targets');
  }
  if (run.passAt > 1 && !outputDir) throw new ConfigError('[run].pass_at > 1 requires [run].output_dir');
  if (run.backend.kind === 'kubernetes' && run.network === 'host') throw new ConfigError('[run].network = "host" is not possible with backend = "kubernetes" (Pods are reached through the API server)');
  return { command: 'run-config', configPath: file, target, agent, judge, run };
}
