// The daemon status object: /var/gaia2/state/daemon_status.json and GET /status
// (docs/contract.md, "Status object"). Reference fields first; sim_time, pending_events and
// reason are our additions.

export type DaemonState = 'waiting' | 'running' | 'complete' | 'stopped' | 'error';
export const TERMINAL_STATES: ReadonlySet<string> = new Set(['complete', 'stopped', 'error']);

export interface Judgment {
  success: boolean;
  failure_reason: string;
}

export interface DaemonStatus {
  status: DaemonState;
  /** Number of reply (turn) boundaries seen so far. */
  turn: number;
  nb_turns: number;
  /** Non-ENV events.jsonl lines consumed, AUI lines included. */
  num_events: number;
  last_response?: string;
  judgment?: Judgment;
  // --- additions ---
  sim_time?: string;
  pending_events?: number;
  /** Why the daemon reached a terminal status (always set on terminal statuses). */
  reason?: string;
  /** Typed cause of an error status (e.g. provider_error, judge_error), see contract/result.ts. */
  error_kind?: string;
  /** judge mode used: "llm" or "hard-only". */
  judge_mode?: JudgeMode;
  /** Token counts reported to the daemon by every LLM caller (agent and app agents), summed. */
  usage?: ReportedUsage;
  /** The main agent's reported counts alone (images before it: only `usage`). */
  agent_usage?: ReportedUsage;
  /** Agent2Agent: the app agents' reported counts alone. */
  app_agents_usage?: ReportedUsage;
  /**
   * Turns whose agent program failed on its own (a reply with `failure`): its failure text was
   * the reply and was judged. The runner weighs these against the model gateway's record.
   */
  agent_failures?: AgentFailure[];
}

export interface AgentFailure {
  /** The reply's turn boundary (1 = the first reply). */
  turn: number;
  /** The failure text sent as the reply (first 2,000 characters). */
  text: string;
  /** What the runtime knows beyond it (exit code, last stderr line). */
  detail: string;
  sim_time: string;
  /** The machine's clock at the failure, Unix seconds (for matching the gateway's record). */
  wall_t: number;
}

/** Counts an agent reported (`usage` protocol message): input_tokens, output_tokens, … */
export type ReportedUsage = Record<string, number>;

export type JudgeMode = 'llm' | 'hard-only';

export const isTerminal = (s: { status?: string } | null | undefined): boolean =>
  !!s && typeof s.status === 'string' && TERMINAL_STATES.has(s.status);

/** One record of judgments.jsonl (docs/judge.md, "Records"). */
export interface TurnJudgmentRecord {
  turn: number;
  success: boolean;
  failure_reason: string | null;
  match_details?: Array<{ oracle_id: string; oracle_tool: string; matched: boolean; reason?: string | null }> | null;
  [k: string]: unknown;
}
