// zod schema of the run-config TOML. Tables and keys are strict: an unknown or mistyped
// name is an error that names the table and suggests the nearest known key. TOML is parsed
// with integers as bigint so that `timeout = 600.0` is rejected like upstream does.
import { z } from 'zod';
import { NoiseTable } from './noise.js';
import { bool, choice, int, jsonTable, num, optStr, strList } from '../plan/toml-values.js';
import { BACKEND_PROVIDERS } from '../engine/registry.js';
import { BACKENDS } from '../plan/backend.js';
import { AGENT_TOOL_MODES, CLOCK_CPU_WAIT_MODES, NETWORK_MODES, NOTIFICATION_MODES, THINKING_LEVELS } from '../plan/plan.js';
import { GatewayTable, LimitEntryTable, LimitsTable } from './gateway.js';

/** [phases]: the submission protocol's phases (plan/phases.ts has the names and defaults). */
const PhasesTable = z.strictObject({
  phases: z.array(z.string({ error: 'must be a list of phase names' }), { error: 'must be a list of phase names' }).optional(),
  runs: int,
  mini_subset: optStr,
});

export const TargetTable = z.strictObject({
  scenario: optStr,
  dataset_root: optStr,
  dataset: optStr,
  language: optStr,
  revision: optStr,
  splits: z.union([z.string().transform((s) => [s]), z.array(z.string())], { error: 'must be a string or a list of strings' }).optional(),
  subset_manifest: optStr,
  /** A sequences file (relative to the config): the scenarios play as universe chains. */
  sequences: optStr,
  limit: int,
  recursive: bool,
});

/** [agent.options]: per-agent settings (docs/agents.md); TOML integers arrive as bigint. */
const AgentOptionsTable = z
  .record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.bigint().transform((n) => Number(n))], { error: 'must be a string, number or boolean' }))
  .optional();

export const AgentTable = z.strictObject({
  // checked against the agent registry when resolving (the error lists the known names)
  name: optStr,
  version: optStr,
  options: AgentOptionsTable,
  instructions_file: optStr,
  image: optStr,
  runtime: optStr,
  provider: optStr,
  model: optStr,
  api_key: optStr,
  api_key_env: optStr,
  base_url: optStr,
  thinking: choice(THINKING_LEVELS),
  tools: choice(AGENT_TOOL_MODES),
  max_tokens: int,
  context_window: int,
  volumes: strList,
  script: optStr,
});

export const JudgeTable = z.strictObject({
  model: optStr,
  provider: optStr,
  base_url: optStr,
  api_key: optStr,
  api_key_env: optStr,
  prompt_version: optStr,
  extra_body: jsonTable,
});

export const RunTable = z.strictObject({
  timeout: int,
  health_timeout: int,
  activity_timeout: int,
  idle_timeout: num,
  stuck_loop_min_tool_calls: int,
  max_cost_usd: num,
  max_tokens: num,
  total_max_cost_usd: num,
  total_max_tokens: num,
  engine_outage_wait_s: int,
  adapter_port: int,
  concurrency: int,
  pass_at: int,
  retry: bool,
  output_dir: optStr,
  output: optStr,
  log_level: optStr,
  notification_mode: choice(NOTIFICATION_MODES),
  time_speed: num,
  clock_cpu_wait: choice(CLOCK_CPU_WAIT_MODES),
  network: choice(NETWORK_MODES),
  enable_caching: bool,
  errors_as_failures: bool,
  backend: choice(BACKENDS),
  // this machine's shard of a dataset target (plan/shard.ts; docs/runner.md, Shards)
  shard_id: int,
  num_shards: int,
});

// Agent2Agent (ARE's --a2a_app_prop and the app agents' model; docs/agent2agent.md).
export const AgentToAgentTable = z.strictObject({
  app_prop: num,
  seed: int,
  provider: optStr,
  model: optStr,
  base_url: optStr,
  api_key_env: optStr,
});

/** Each backend's own table (`[kubernetes]`), as its provider declares it (engine/registry.ts). */
const backendTables = Object.fromEntries(BACKEND_PROVIDERS.flatMap((p) => (p.table ? [[p.table.name, p.table.schema.optional()]] : [])));

const MainTables = z.strictObject({
  target: TargetTable,
  agent: AgentTable,
  judge: JudgeTable.optional(),
  run: RunTable.optional(),
  agent2agent: AgentToAgentTable.optional(),
  noise: NoiseTable.optional(),
  phases: PhasesTable.optional(),
  gateway: GatewayTable.optional(),
  limits: LimitsTable.optional(),
});
export const ConfigFile = MainTables.extend(backendTables);
/** The file's tables; a backend's table is read by its provider, so it is typed `unknown` here. */
export type ConfigFileData = z.output<typeof MainTables> & { [backendTable: string]: unknown };

export const TABLE_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(ConfigFile.shape),
  target: Object.keys(TargetTable.shape),
  agent: Object.keys(AgentTable.shape),
  judge: Object.keys(JudgeTable.shape),
  run: Object.keys(RunTable.shape),
  agent2agent: Object.keys(AgentToAgentTable.shape),
  noise: Object.keys(NoiseTable.shape),
  phases: Object.keys(PhasesTable.shape),
  ...Object.assign({}, ...BACKEND_PROVIDERS.map((p) => p.table?.keys ?? {})),
  gateway: Object.keys(GatewayTable.shape),
  limits: Object.keys(LimitEntryTable.shape),
};
