// The resolved run plan: what `run`, `run-dataset` and `run-config` all reduce to before
// anything is launched. Paths are absolute, secrets are values (registered for redaction).
import type { BackendSettings } from './backend.js';
import type { GatewayPlan } from './gateway.js';
import type { ShardSpec } from './shard.js';
import { NO_BUDGET, type RunBudget } from './budget.js';

import type { NoiseSettings } from '@gaia2/contract/noise';

/**
 * Who plays: oracle | default | scripted (ours, in the world image), a registered third-party
 * agent (runner/src/agents/registry.ts) or external (the agent layer of the image).
 */
export type AgentName = string;
export const THINKING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
/** Tool surface of the default agent: one shell tool, or one function per app command. */
export const AGENT_TOOL_MODES = ['shell', 'functions'] as const;
export type Thinking = (typeof THINKING_LEVELS)[number];
export const NOTIFICATION_MODES = ['message', 'native'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];
import type { ClockCpuWait } from '@gaia2/contract/sim-clock';
export { CLOCK_CPU_WAIT_MODES, type ClockCpuWait } from '@gaia2/contract/sim-clock';
/**
 * bridge: the engine's bridge network with a published loopback port, sealed (docs/config.md,
 * "Sealed network"); open: the same network, not sealed (provider-side web tools allowed too);
 * host: the host's network, which cannot be sealed.
 */
export const NETWORK_MODES = ['bridge', 'open', 'host'] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** Whether a run's containers are meant to reach only their world and the model gateway. */
export function sealedNetwork(mode: NetworkMode): boolean {
  return mode === 'bridge';
}

/** The engine's network for a run's network mode: "open" is the bridge network left unsealed. */
export function engineNetwork(mode: NetworkMode): 'bridge' | 'host' {
  return mode === 'host' ? 'host' : 'bridge';
}

/** Canonical split order; `all` expands to this. */
export const CANONICAL_SPLITS = ['execution', 'search', 'ambiguity', 'adaptability', 'time'] as const;
/** The splits of a per-language dataset (Omnilingual-Gaia2): `time` is English only. */
export const MULTILINGUAL_SPLITS = ['execution', 'search', 'ambiguity', 'adaptability'] as const;
/** A language code as the reference accepts it: `language_Script` (spa_Latn, cmn_Hans). */
export const LANGUAGE_PATTERN = /^[a-z]{2,3}(?:_[A-Za-z]{2,4})+$/;

/** The agent image this project builds (`build-image`). */
export const DEFAULT_IMAGE = 'localhost/gaia2-agent:latest';

export const DEFAULT_HF_DATASET = 'meta-agents-research-environments/gaia2-cli';

export interface SecretRef {
  value: string;
  /** Where it came from: 'explicit', 'toml', or the variable name. */
  source: string;
}

export interface AgentSettings {
  name: AgentName;
  image: string;
  /** Container CLI of the reference (podman/docker); recorded and used to pick the engine socket. */
  runtime: string;
  provider: string | null;
  model: string | null;
  apiKey: SecretRef | null;
  baseUrl: string | null;
  thinking: Thinking;
  tools: (typeof AGENT_TOOL_MODES)[number];
  /** Output token limit per model call (MAX_TOKENS); null = the provider's default. */
  maxTokens: number | null;
  /** [agent].context_window: the model's context window in tokens, for agents with such a setting; absent/null = the agent's own. */
  contextWindow?: number | null;
  volumes: string[];
  /** Scripted agent: path of the JSON command list. */
  script: string | null;
  /** A third-party agent's exact package version ([agent].version or its pin); null otherwise. */
  version?: string | null;
  /** [agent.options] (agent layers only), passed as GAIA2_AGENT_OPTIONS. */
  options?: Record<string, string | number | boolean>;
  /** [agent].instructions_file (third-party agents): the user's template, checked (agents/instructions-template.ts). */
  instructions?: { path: string; sha256: string; text: string } | null;
}

export interface JudgeSettings {
  provider: string;
  model: string;
  baseUrl: string | null;
  apiKey: SecretRef | null;
  /** Prompt set of the soft checks (GAIA2_JUDGE_PROMPT_VERSION); null = the default set. */
  promptVersion?: string | null;
  /** JSON object merged into every judge request (GAIA2_JUDGE_EXTRA_BODY); null = none. */
  extraBody?: Record<string, unknown> | null;
}

/** Agent2Agent (ARE's a2a mode): app agents operate a fraction of each scenario's apps. */
export interface AgentToAgentPlan {
  /** Fraction of the eligible apps given to app agents (ARE's a2a_app_prop), > 0. */
  appProp: number;
  /** Seed for the choice of apps; null = each scenario's own seed (ARE's behaviour). */
  seed: number | null;
  /** The app agents' model; defaults were taken from the main agent when resolving. */
  provider: string;
  model: string;
  baseUrl: string | null;
  /** null: looked up by provider in the host environment when the run starts. */
  apiKey: SecretRef | null;
}

/**
 * A dataset target's `shard` (plan/shard.ts): this machine's part of the selection after subset and limit; absent or null = all of it.
 * `sequences`: a sequences file (absolute path) that plays the dataset's scenarios as universe chains
 * (runner/src/sequences/, docs/protocol.md "Universe chains"); absent or null = every scenario on its own.
 */
export type Target =
  | { kind: 'scenario'; scenario: string }
  | { kind: 'local'; path: string; recursive: boolean; splits: string[] | null; subset: string | null; limit: number | null; language?: string | null; shard?: ShardSpec | null; sequences?: string | null }
  | { kind: 'hf'; repo: string; revision: string; splits: string[] | null; subset: string | null; limit: number | null; refresh?: boolean; language?: string | null; shard?: ShardSpec | null; sequences?: string | null };

export interface RunSettings {
  timeout: number;
  healthTimeout: number;
  /** Host watchdog: a run without progress (turn, event count) for this long ends (ours). */
  activityTimeout: number;
  /** The daemon's idle timeout (GAIA2_IDLE_TIMEOUT), sent only when set; null = the daemon's 300 s. */
  idleTimeout: number | null;
  /** Ours: a run ends as a failure after this many identical tool calls with identical results in a row; 0 = never. */
  stuckLoopMinToolCalls: number;
  /** Ours: spend caps of the agent's model calls, enforced by the model gateway (plan/budget.ts). */
  budget: RunBudget;
  /** Ours: how long an engine outage is waited out (queued runs wait, its victims restart) before runs end engine_unavailable; 0 = never wait. */
  engineOutageWait: number;
  concurrency: number;
  passAt: number;
  retry: boolean;
  outputDir: string | null;
  output: string | null;
  logLevel: string;
  notificationMode: NotificationMode;
  timeSpeed: number | null;
  /** Whether the run's CPU wait counts on the simulated clock (GAIA2_CLOCK_CPU_WAIT); null: the image's own (ours: exclude). */
  clockCpuWait: ClockCpuWait | null;
  network: NetworkMode;
  adapterPort: number;
  /** Reuse finished, judged runs with identical inputs from the result cache (opt-in). */
  enableCaching: boolean;
  /** The run's report counts errors as failed runs (default: out of every denominator, as the reference). */
  errorsAsFailures: boolean;
  /** Where the scenario runs execute (the local engine unless the TOML says kubernetes). */
  backend: BackendSettings;
}

export interface RunPlan {
  command: 'run' | 'run-dataset' | 'run-config';
  configPath: string | null;
  target: Target;
  agent: AgentSettings;
  /** null: hard checks only (no judge LLM); stated in summaries, result.json and reports. */
  judge: JudgeSettings | null;
  run: RunSettings;
  /** Agent2Agent phase; null or absent = every app is the main agent's (standard phase). */
  agent2agent?: AgentToAgentPlan | null;
  /** Noise phase settings (sent as GAIA2_NOISE); absent or null = standard phase. */
  noise?: NoiseSettings | null;
  /** The model gateway (docs/gateway.md); absent = its defaults (on where it can serve the run). */
  gateway?: GatewayPlan;
}

export const RUN_DEFAULTS: RunSettings = {
  timeout: 600,
  healthTimeout: 120,
  activityTimeout: 600,
  idleTimeout: null,
  stuckLoopMinToolCalls: 0,
  budget: NO_BUDGET,
  engineOutageWait: 60,
  concurrency: 1,
  passAt: 1,
  retry: false,
  outputDir: null,
  output: null,
  logLevel: 'INFO',
  notificationMode: 'message',
  timeSpeed: null,
  clockCpuWait: null,
  network: 'bridge',
  adapterPort: 8090,
  enableCaching: false,
  errorsAsFailures: false,
  backend: { kind: 'local' },
};

/**
 * The host watchdog's limit in seconds: [run].activity_timeout, raised to the daemon's idle
 * timeout + 60 s when that is longer, so the daemon's own (longer) idle rule decides first.
 */
export const hostActivityTimeout = (r: Pick<RunSettings, 'activityTimeout' | 'idleTimeout'>): number =>
  r.idleTimeout != null ? Math.max(r.activityTimeout, Math.ceil(r.idleTimeout) + 60) : r.activityTimeout;
