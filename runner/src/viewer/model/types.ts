// The JSON the pages embed. The client renders it through text nodes only.
import type { Usage } from '../../trace/usage-shape.js';

export type ViewStatus = 'pass' | 'fail' | 'error' | 'running';

/** One row of a run index; also cached in the incremental manifest. */
export interface IndexRow {
  id: string;
  href: string;
  split: string;
  status: ViewStatus;
  errorKind: string;
  /** A stuck loop ended the run (result.json `stuck_loop`); absent in rows cached by older viewers. */
  stuckLoop?: boolean;
  model: string;
  /** The agent's side: the main agent's calls and tokens with its app agents' (Agent2Agent). */
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  /** Of those, the app agents' (0 without Agent2Agent); absent in rows cached by older viewers. */
  appAgentLlmCalls?: number;
  appAgentTokensIn?: number;
  appAgentTokensOut?: number;
  /** The LLM judge's tokens (its calls are not in the agent's trace). */
  judgeTokensIn: number;
  judgeTokensOut: number;
  /** Agent, app agents and judge, at the price table; null when a model has no price. */
  costUsd: number | null;
  durationS: number | null;
  latencyMs: number;
  toolCalls: number;
  turn: string;
  info: string;
}

export type ViewBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'raw'; rawType: string };

export interface Comparison {
  oracleId: string;
  oracleTool: string;
  matched: boolean;
  reason: string;
  oracleArgs: Record<string, unknown> | null;
  agentTool: string;
  agentArgs: Record<string, unknown> | null;
  judgeOutput: string;
}

export type TimelineItem =
  | { k: 'task'; text: string; simT: string }
  | { k: 'call'; seq: number; t: string; model: string; latencyMs: number; usage: Usage; costUsd: number | null; status: number; stop: string; error: string; unparsed: string; retried: boolean }
  | { k: 'msg'; role: string; blocks: ViewBlock[]; seq: number }
  | { k: 'tool'; id: string; name: string; input: unknown; result: string | null; isError: boolean; seq: number; appAgents?: AppAgentView[] }
  | { k: 'context'; note: string; seq: number }
  | { k: 'event'; kind: 'env' | 'user' | 'reply' | 'action'; t: number; /** The machine clock of the line (events.jsonl wall_t), the model calls' clock. */ wall?: number; simT: string; app: string; fn: string; args: unknown; ret: unknown; write: boolean; eventId: string; noise?: boolean; appAgents?: AppAgentView[] }
  /** Noise phase: an agent command that was made to fail (noise.jsonl); it has no event line. */
  | { k: 'failure'; t: number; simT: string; tool: string; argv: string[]; message: string; eventsBefore: number | null }
  | { k: 'verdict'; turn: number; success: boolean; reason: string; comparisons: Comparison[] };

/** Agent2Agent: one app agent's conversation for one expert_agent call, shown nested. */
export interface AppAgentView {
  call: number;
  app: string;
  cli: string;
  task: string;
  answer: string;
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  /** At the price table; null when its model has no price. */
  costUsd: number | null;
  items: TimelineItem[];
}

export interface TraceView {
  page: 'trace';
  id: string;
  runName: string;
  homeHref: string;
  prevHref: string;
  nextHref: string;
  row: IndexRow;
  result: {
    failureReasons: string[];
    error: string;
    errorKind: string;
    judgeMode: string;
    timedOut: boolean;
    /** result.json `stuck_loop`: the call the agent repeated without progress; null when none. */
    stuckLoop: StuckLoopView | null;
    agentResponse: string;
    startedAt: string;
    finishedAt: string;
  };
  daemon: { status: string; turn: number; nbTurns: number; simTime: string; reason: string } | null;
  oracle: Array<{ id: string; type: string; tool: string; args: Record<string, unknown>; deps: string[] }>;
  items: TimelineItem[];
  badLines: Array<{ line: number; text: string }>;
  /** The end of eventd.log (the daemon's own account of turns, ENV firing and judging). */
  daemonLogTail: string;
  rawFiles: Array<{ name: string; size: number }>;
  /** Noise phase run (noise.jsonl present): what was injected; null otherwise. */
  noise?: {
    toolFailureProbability: number | null;
    toolSeed: number | null;
    eventsPerMinute: number | null;
    eventsSeed: number | null;
    planned: number;
    fired: number;
    failures: number;
  } | null;
}

/** The repeated call of a run that a stuck loop ended ([run].stuck_loop_min_tool_calls). */
export interface StuckLoopView {
  tool: string;
  args: Record<string, unknown>;
  count: number;
  minToolCalls: number;
  /** events.jsonl line where the threshold was reached (0 when unknown). */
  line: number;
}
