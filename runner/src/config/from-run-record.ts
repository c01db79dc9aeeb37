// run_config.json → the plan that produced it, so a run can be repeated from its record alone
// (`gaia2-runner rerun`). Keys are never recorded: a recorded variable name is read again from
// the environment; a literal key falls back to the provider's variables, like an absent one.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { RUN_DEFAULTS, type AgentSettings, type JudgeSettings, type RunPlan, type SecretRef, type Target } from './plan.js';
import { resolveSecret } from './resolve-parts.js';
import { resolveAgentToAgent } from './agent2agent.js';
import { NoiseSettingsError, parseNoiseSettings } from '../../../agent-image/src/contract/noise.js';
import type { BackendSettings } from './backend.js';

type Obj = Record<string, unknown>;

export function readRunRecord(path: string): { file: string; rec: Obj } {
  const isDir = existsSync(path) && statSync(path).isDirectory();
  // A pass@N root keeps its record in run_1/ (every run_k has the same options).
  const file = !isDir ? path : existsSync(join(path, 'run_config.json')) ? join(path, 'run_config.json') : join(path, 'run_1', 'run_config.json');
  let rec: unknown;
  try {
    rec = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read a run record: ${(e as Error).message}`);
  }
  if (!rec || typeof rec !== 'object') throw new ConfigError(`${file}: a run record must be a JSON object`);
  return { file: resolve(file), rec: rec as Obj };
}

function section(rec: Obj, key: string, file: string): Obj {
  const v = rec[key];
  if (!v || typeof v !== 'object') throw new ConfigError(`${file}: field "${key}" is missing (a run_config.json written before runs recorded their options cannot be rerun)`);
  return v as Obj;
}

function key(o: Obj, label: string, env: Record<string, string | undefined>): SecretRef | null {
  const name = typeof o.api_key_env === 'string' ? o.api_key_env : undefined;
  return resolveSecret({ envName: name }, { value: `${label}.api_key`, env: `${label}.api_key_env`, table: label }, env);
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown, d: number): number => (typeof v === 'number' ? v : d);

/**
 * The recorded plan. `pinRevision`: a Hugging Face target uses the recorded commit instead of
 * the branch name, so the rerun sees the same scenarios even after the branch moved.
 */
export function planFromRunRecord(rec: Obj, file: string, env: Record<string, string | undefined>, o: { outputDir: string | null; pinRevision?: boolean }): RunPlan {
  const target = structuredClone(section(rec, 'target', file)) as unknown as Target;
  if (target.kind === 'hf') {
    delete target.refresh;
    const sha = str(rec.dataset_revision_sha);
    if (o.pinRevision && sha) target.revision = sha;
  }
  const a = section(rec, 'agent_options', file);
  const r = section(rec, 'run_options', file);
  const j = rec.judge_options && typeof rec.judge_options === 'object' ? (rec.judge_options as Obj) : null;
  const agent: AgentSettings = {
    name: a.name as AgentSettings['name'],
    image: String(a.image),
    runtime: String(a.runtime ?? 'podman'),
    provider: str(a.provider),
    model: str(a.model),
    apiKey: key(a, 'agent_options', env),
    baseUrl: str(a.base_url),
    thinking: (a.thinking ?? 'low') as AgentSettings['thinking'],
    tools: (a.tools ?? 'shell') as AgentSettings['tools'],
    maxTokens: typeof a.max_tokens === 'number' ? a.max_tokens : null,
    volumes: Array.isArray(a.volumes) ? a.volumes.map(String) : [],
    script: str(a.script),
    version: str(a.version),
    options: a.options && typeof a.options === 'object' ? (a.options as AgentSettings['options']) : {},
  };
  const judge: JudgeSettings | null = j
    ? {
        provider: String(j.provider),
        model: String(j.model),
        baseUrl: str(j.base_url),
        apiKey: key(j, 'judge_options', env),
        promptVersion: str(j.prompt_version),
        extraBody: j.extra_body && typeof j.extra_body === 'object' && !Array.isArray(j.extra_body) ? (j.extra_body as Record<string, unknown>) : null,
      }
    : null;
  const x = rec.agent2agent_options && typeof rec.agent2agent_options === 'object' ? (rec.agent2agent_options as Obj) : null;
  const at = (f: string) => `agent2agent_options.${f} in ${file}`;
  const agent2agent = x
    ? resolveAgentToAgent(
        {
          appProp: typeof x.app_prop === 'number' ? x.app_prop : Number.NaN,
          seed: typeof x.seed === 'number' ? x.seed : undefined,
          provider: str(x.provider) ?? undefined,
          model: str(x.model) ?? undefined,
          baseUrl: str(x.base_url) ?? undefined,
          apiKeyEnv: str(x.api_key_env) ?? undefined,
        },
        agent,
        { appProp: at('app_prop'), seed: at('seed'), provider: at('provider'), model: at('model'), apiKeyEnv: at('api_key_env'), table: `agent2agent_options in ${file}` },
        env,
      )
    : null;
  let noise = null;
  try {
    noise = rec.noise ? parseNoiseSettings(rec.noise, `noise in ${file}`) : null;
  } catch (e) {
    if (e instanceof NoiseSettingsError) throw new ConfigError(e.message);
    throw e;
  }
  const passAt = num(r.pass_at, 1);
  const outputDir = o.outputDir ? resolve(o.outputDir) : null;
  return {
    command: (rec.command as RunPlan['command']) ?? 'run-dataset',
    configPath: null,
    target,
    agent,
    judge,
    agent2agent,
    noise,
    run: {
      ...RUN_DEFAULTS,
      timeout: num(r.timeout, RUN_DEFAULTS.timeout),
      healthTimeout: num(r.health_timeout, RUN_DEFAULTS.healthTimeout),
      activityTimeout: num(r.activity_timeout, RUN_DEFAULTS.activityTimeout),
      idleTimeout: typeof r.idle_timeout === 'number' ? r.idle_timeout : null,
      concurrency: num(r.concurrency, 1),
      passAt,
      logLevel: String(r.log_level ?? RUN_DEFAULTS.logLevel),
      notificationMode: (r.notification_mode ?? RUN_DEFAULTS.notificationMode) as RunPlan['run']['notificationMode'],
      timeSpeed: typeof r.time_speed === 'number' ? r.time_speed : null,
      network: (r.network ?? RUN_DEFAULTS.network) as RunPlan['run']['network'],
      adapterPort: num(r.adapter_port, RUN_DEFAULTS.adapterPort),
      enableCaching: r.enable_caching === true,
      errorsAsFailures: r.errors_as_failures === true,
      backend: isBackend(r.backend) ? r.backend : RUN_DEFAULTS.backend,
      outputDir,
    },
  };
}

/** A recorded backend: the local engine, or a cluster with the settings the run used. */
function isBackend(v: unknown): v is BackendSettings {
  return typeof v === 'object' && v !== null && ((v as { kind?: unknown }).kind === 'local' || (v as { kind?: unknown }).kind === 'kubernetes');
}
