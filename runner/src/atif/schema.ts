// Harbor's Agent Trajectory Interchange Format (ATIF), the parts this runner writes, with
// Harbor's field names (its pydantic models, src/harbor/models/trajectories/, and RFC 0001).
// Every object there forbids fields it does not declare; custom data goes into `extra`.

/**
 * The version written. The fields used here all exist since ATIF-v1.7 (`llm_call_count`,
 * `extra` on observation results); Harbor's models read v1.0 to v1.8, so a v1.7 file is read
 * by Harbor releases from before v1.8 too.
 */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.7';

/** The versions Harbor's Trajectory model accepts. */
export const ATIF_KNOWN_VERSIONS = ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7', 'ATIF-v1.8'];

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  /** A JSON object (Harbor requires one, possibly empty). */
  arguments: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export interface AtifObservationResult {
  source_call_id?: string;
  content?: string;
  extra?: Record<string, unknown>;
}

export interface AtifMetrics {
  /** All input tokens, cached ones included. */
  prompt_tokens?: number;
  completion_tokens?: number;
  /** The part of prompt_tokens read from the prompt cache. */
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Record<string, unknown>;
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  /** Agent steps only (as are reasoning_content, tool_calls, metrics). */
  model_name?: string;
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  llm_call_count?: number;
  extra?: Record<string, unknown>;
}

export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: string;
  session_id?: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
  extra?: Record<string, unknown>;
}
