// run_config.json's options: the part of the run record that says what was run, enough to run
// it again (rerun) and to key the result cache. One schema for writing (toRecord) and reading
// (fromRecord); records written before a field existed read with that field's default.
import { z } from 'zod';
import { BACKENDS, type BackendSettings } from '../plan/backend.js';
import { AGENT_TOOL_MODES, CLOCK_CPU_WAIT_MODES, NETWORK_MODES, NOTIFICATION_MODES, RUN_DEFAULTS, THINKING_LEVELS } from '../plan/plan.js';

const str = z.string();
const optStr = str.nullable().default(null);
const splits = z.array(str).nullable().default(null);
const limit = z.number().int().nullable().default(null);
/** A sharded target's part (plan/shard.ts); absent in unsharded runs and records older than shards. */
const shard = z.object({ index: z.number().int().min(0), count: z.number().int().min(1) }).nullable().optional();
/** The sequences file a chained run played (docs/protocol.md, "Universe chains"); absent otherwise. */
const sequences = str.nullable().optional();
/** A key is never recorded: the variable it came from, or that it was given literally. */
const keySource = { api_key_env: optStr, api_key: optStr };

export const TargetRecord = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scenario'), scenario: str }),
  z.object({ kind: z.literal('local'), path: str, recursive: z.boolean().default(true), splits, subset: optStr, limit, language: str.nullable().optional(), shard, sequences }),
  z.object({ kind: z.literal('hf'), repo: str, revision: str, splits, subset: optStr, limit, refresh: z.boolean().optional(), language: str.nullable().optional(), shard, sequences }),
]);

export const AgentRecord = z.object({
  /** oracle, default, scripted or an agent layer's name (agents/). */
  name: str,
  image: str,
  runtime: str.default('podman'),
  provider: optStr,
  model: optStr,
  base_url: optStr,
  thinking: z.enum(THINKING_LEVELS).default('low'),
  tools: z.enum(AGENT_TOOL_MODES).default('shell'),
  max_tokens: z.number().int().nullable().default(null),
  /** [agent].context_window; absent in records before it and when not set. */
  context_window: z.number().int().nullable().optional(),
  volumes: z.array(str).default([]),
  script: optStr,
  /** The script's content, so a changed script is a different run. */
  script_sha256: str.optional(),
  /** [agent].instructions_file: the template's path and the sha256 of its bytes (the text is read again on a rerun). */
  instructions_file: z.object({ path: str, sha256: str }).optional(),
  /** An agent layer's package version; null: the layer's default. */
  version: str.nullable().optional(),
  /** An agent layer's options (--agent-option); absent: none. */
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  ...keySource,
});

export const JudgeRecord = z.object({
  provider: str,
  model: str,
  base_url: optStr,
  /** Prompt set of the soft checks; null: the default set. */
  prompt_version: optStr,
  /** JSON object merged into every judge request; null: none. */
  extra_body: z.record(z.string(), z.unknown()).nullable().default(null),
  ...keySource,
});

export const AgentToAgentRecord = z.object({ app_prop: z.number(), seed: z.number().int().nullable().default(null), provider: str, model: str, base_url: optStr, ...keySource });

const d = RUN_DEFAULTS;
export const RunOptionsRecord = z.object({
  timeout: z.number().default(d.timeout),
  health_timeout: z.number().default(d.healthTimeout),
  activity_timeout: z.number().default(d.activityTimeout),
  /** The daemon's idle timeout; null: the daemon's own default. */
  idle_timeout: z.number().nullable().default(null),
  /** Stuck-loop threshold; absent when off (and in older records). */
  stuck_loop_min_tool_calls: z.number().int().optional(),
  /** The run's spend caps ([run] max_cost_usd, …; null = no cap); absent when none is set (and in older records). */
  budget: z
    .object({ max_cost_usd: z.number().nullable(), max_tokens: z.number().int().nullable(), total_max_cost_usd: z.number().nullable(), total_max_tokens: z.number().int().nullable() })
    .optional(),
  /** How long an engine outage is waited out; absent in older records (the default then). */
  engine_outage_wait_s: z.number().int().optional(),
  concurrency: z.number().int().default(1),
  pass_at: z.number().int().default(1),
  log_level: str.default(d.logLevel),
  notification_mode: z.enum(NOTIFICATION_MODES).default(d.notificationMode),
  time_speed: z.number().nullable().default(null),
  /** GAIA2_CLOCK_CPU_WAIT as sent; null: not sent (the image's own: ours excludes the wait). */
  clock_cpu_wait: z.enum(CLOCK_CPU_WAIT_MODES).nullable().optional(),
  network: z.enum(NETWORK_MODES).default(d.network),
  adapter_port: z.number().int().default(d.adapterPort),
  enable_caching: z.boolean().default(false),
  errors_as_failures: z.boolean().default(false),
  /** Where the units ran: the kind and that backend's settings (a kubeconfig path, never a credential). */
  backend: z
    .custom<BackendSettings>((v) => typeof v === 'object' && v !== null && (BACKENDS as readonly unknown[]).includes((v as { kind?: unknown }).kind), {
      message: `must be a table whose kind is one of: ${BACKENDS.join(', ')}`,
    })
    .default({ kind: 'local' }),
});

export const RecordedOptions = z.object({
  command: z.enum(['run', 'run-dataset', 'run-config']).default('run-dataset'),
  target: TargetRecord,
  agent_options: AgentRecord,
  judge_options: JudgeRecord.nullable().default(null),
  agent2agent_options: AgentToAgentRecord.nullable().default(null),
  run_options: RunOptionsRecord,
  /** Noise phase settings as sent to the image (GAIA2_NOISE); checked by the contract's parser. */
  noise: z.unknown().nullable().default(null),
  /** The model gateway's settings (absent: its defaults); read back by config/gateway-record.ts. */
  gateway_options: z.record(z.string(), z.unknown()).optional(),
  /** Nothing in the runner draws random numbers; sampling randomness is the model provider's. */
  seeds: z.null().default(null),
});
export type RecordedOptions = z.output<typeof RecordedOptions>;
