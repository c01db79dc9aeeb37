// result.json (one per scenario run) and the lines of results.jsonl. Reference fields
// (docs/runner.md, "result.json") first; status, error_kind and the rest are our additions.

export type RunStatus = 'pass' | 'fail' | 'error';

/** Every non-judged outcome has one of these (docs/runner.md, "result.json"). */
export const ERROR_KINDS = [
  'engine_unavailable',
  'image_missing',
  'container_start_failed',
  'health_timeout',
  'container_exited',
  'scenario_timeout',
  'activity_timeout',
  'judge_error',
  'provider_error',
  'artifact_error',
  'daemon_error',
  // Older runs: a third-party agent's program failed a turn (its launcher exited non-zero).
  // New runs judge such a turn's failure text and record `agent_failed`, or, when the model
  // gateway's record shows the provider failing in that turn, end as provider_error
  // (docs/agents.md, "When the program fails"). Readers still accept it.
  'agent_error',
  'no_judgment',
  'invalid_scenario',
  'interrupted',
  'internal_error',
  // A cluster backend's diagnosis of a unit that never ran or died under the workload
  // (all retryable infrastructure errors).
  'pod_unschedulable',
  'pod_pending_timeout',
  'image_pull_failed',
  'oom_killed',
  'pod_evicted',
  'node_lost',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface ScenarioResult {
  scenario_id: string;
  /** true pass, false fail, null error (not judged). */
  success: boolean | null;
  reward?: number;
  num_agent_events?: number;
  num_oracle_events?: number;
  agent_response?: string | null;
  judged_in_container?: boolean;
  failure_reasons?: string[];
  error?: string;
  timed_out?: boolean;
  timeout_seconds?: number;
  daemon_status?: Record<string, unknown>;
  scenario_file?: string;
  // --- additions ---
  status: RunStatus;
  error_kind?: ErrorKind;
  split?: string;
  run_index?: number;
  judge_mode?: 'llm' | 'hard-only';
  /** The judge's prompt set (ours: the runner records what it configured). */
  judge_prompt_version?: string;
  /** Fields merged into every judge request (ours: the runner records what it configured). */
  judge_extra_body?: Record<string, unknown>;
  duration_seconds?: number;
  started_at?: string;
  finished_at?: string;
  image?: string;
  /** Who played (ours: {name, version}); results of older runs hold the name as a string. */
  agent?: AgentRecord | string;
  model?: string | null;
  usage?: RunUsage;
  /** The agent's program failed turns on its own and the run stands as judged (docs/agents.md). */
  agent_failed?: AgentFailedRecord;
  /** Times the runner started this run again from scratch because an engine outage cut it short (docs/reliability.md); absent: never. */
  infra_restarts?: number;
  /**
   * Whether the agent's network was sealed (docs/config.md, "Sealed network"): true when the
   * image installed its egress filter; false for an open or host network, or an image without
   * the filter. Absent in results written before sealing existed.
   */
  network_sealed?: boolean;
  /** A universe chain's run (docs/protocol.md, "Universe chains"): the chain's universe_id. */
  universe_id?: string;
  /** Its place in the chain, 0-based. */
  universe_position?: number;
  /** Why the state it started from is not what the scenario before it left (absent: it is). */
  carry_error?: string;
  [k: string]: unknown;
}

/**
 * result.json `agent_failed`: turns whose agent program failed on its own (daemon status
 * `agent_failures`), each judged with its failure text as the reply, and what the runner
 * weighed them against before letting the run stand.
 */
export interface AgentFailedRecord {
  /** The failed turns (1 = the first reply). */
  turns: number[];
  /** The first failed turn's failure text (its judged reply, first 2,000 characters). */
  text: string;
  /**
   * `gateway_record`: the model gateway's record of the container shows no refused, timed-out
   * or reset call in those turns; `none`: there was no record to look at (direct mode, or no
   * output directory to keep it), so the run stands without evidence either way.
   */
  evidence: 'gateway_record' | 'none';
  /** The same in a sentence. */
  note: string;
}

/** Tokens of some LLM calls. input_tokens counts every input token, cached ones included. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  /** Part of input_tokens read from the provider's prompt cache (0 when not reported). */
  cache_read_tokens?: number;
  /** Part of input_tokens written to the prompt cache (Anthropic reports it). */
  cache_write_tokens?: number;
  /** HTTP calls, retries included; absent when only the agent's own totals are known. */
  llm_calls?: number;
}

/** One role's calls: the agent's or the judge's, with the model they were billed for. */
export interface RoleUsage extends TokenUsage {
  model: string | null;
  /**
   * trace: summed from the trace file; agent_report: the agent's own totals (no trace);
   * gateway: summed from the runner's model gateway record (model_traffic.jsonl).
   */
  source: 'trace' | 'agent_report' | 'gateway';
}

/** result.json `usage`: agent + app agents + judge totals at the top, each role apart. */
export interface RunUsage extends TokenUsage {
  cost_usd?: number | null;
  agent?: RoleUsage;
  judge?: RoleUsage;
  /** Agent2Agent: the app agents' calls (app_agents_trace.jsonl), billed to their own model. */
  app_agents?: RoleUsage;
}

/** result.json / run_config.json `agent`: who played and its exact version (docs/agents.md). */
export interface AgentRecord {
  name: string;
  /** The third-party package's version, the image label of an agent layer, or our runner's version. */
  version: string | null;
}

/** The agent's name of a recorded `agent` field, object or (older runs) string; '' when absent. */
export function recordedAgentName(v: unknown): string {
  if (typeof v === 'string') return v;
  return v && typeof v === 'object' && typeof (v as AgentRecord).name === 'string' ? (v as AgentRecord).name : '';
}

