// The serve contract of an agent layer (docs/agents.md, "Programs that stay up"): a layer whose
// program has a long-running mode ships `/opt/gaia2-agent/bin/agent-serve`. The world's launcher
// runtime starts it once per scenario run — before the first message, with the simulated clock
// held until it says `ready` — and talks to it in JSON lines (one object per "\n"-terminated
// UTF-8 line) over its stdin (runtime → program) and stdout (program → runtime). Its stderr is
// kept as agent-trace/serve.stderr.log. A layer without agent-serve keeps the per-turn launcher
// (`bin/agent`, one process per message).
//
//   program → ready {steer?}            once: the program is up; the first turn may come
//   runtime → turn {turn, text, …}      a message for the agent: a new turn
//   runtime → steer {turn, seq, …}      (only after ready{steer:true}) more input for the active turn
//   program → steered {turn, seq, taken} every steer is answered before that turn's reply
//   program → reply {turn, text}        the turn's answer to the user; the turn ends
//   program → failed {turn, text, …}    the program failed the turn on its own: `text` is what
//                                       it reported, sent to the user as its reply and judged
//   program → log {text, level?}        optional, any time
//   runtime → shutdown {reason}         the scenario ended: exit (SIGTERM 5 s later, then SIGKILL)
//
// One turn at a time: a `turn` is sent only when the previous turn has its reply or failed. A
// steer the program did not take (taken:false, or not answered by the reply) is delivered again
// as the next turn. If the program exits, the active turn fails with its exit status and last
// stderr line, and the runtime starts it again (clock held) before the next turn, with
// GAIA2_SERVE_START set to the start's number (1, 2, …), so it resumes its session from
// $GAIA2_SESSION_DIR.

import type { DeliveredPart } from './agent-protocol.js';

/** The layer's serve program; present → serve mode. */
export const AGENT_SERVE_PATH = '/opt/gaia2-agent/bin/agent-serve';

/** Variables the serve program gets besides the launcher's (docs/agents.md). */
export const AGENT_SERVE_ENV = {
  /** 1 for the first start in a scenario run, 2 after a restart, … */
  start: 'GAIA2_SERVE_START',
} as const;

// ---------------------------------------------------------------- runtime → program

export interface ServeTurnMsg {
  type: 'turn';
  /** 1, 2, … in this scenario run. */
  turn: number;
  /** "user" when any part is a user message, else "notification". */
  kind: 'user' | 'notification';
  /** All parts joined by a blank line. */
  text: string;
  parts: DeliveredPart[];
  /** Simulated time at delivery, "YYYY-MM-DD HH:MM:SS" (UTC). */
  sim_time: string;
}

export interface ServeSteerMsg {
  type: 'steer';
  /** The active turn it is meant for. */
  turn: number;
  /** 1, 2, … within the scenario run. */
  seq: number;
  kind: 'user' | 'notification';
  text: string;
  parts: DeliveredPart[];
  sim_time: string;
}

export interface ServeShutdownMsg {
  type: 'shutdown';
  reason: string;
}

export type RuntimeToServe = ServeTurnMsg | ServeSteerMsg | ServeShutdownMsg;

// ---------------------------------------------------------------- program → runtime

export interface ServeReadyMsg {
  type: 'ready';
  /** The program takes input during a turn (it will answer each `steer` with `steered`). */
  steer?: boolean;
}

export interface ServeSteeredMsg {
  type: 'steered';
  turn: number;
  seq: number;
  /** true: folded into the running turn; false: deliver it again as the next turn. */
  taken: boolean;
}

export interface ServeReplyMsg {
  type: 'reply';
  turn: number;
  text: string;
}

export interface ServeFailedMsg {
  type: 'failed';
  turn: number;
  /** What the program reported (its error message); becomes the reply to the user. */
  text: string;
  /** More detail for the log (exit code, error class); not shown to the user. */
  detail?: string;
}

export interface ServeLogMsg {
  type: 'log';
  text: string;
  level?: 'debug' | 'info' | 'warn' | 'error';
}

export type ServeToRuntime = ServeReadyMsg | ServeSteeredMsg | ServeReplyMsg | ServeFailedMsg | ServeLogMsg;
