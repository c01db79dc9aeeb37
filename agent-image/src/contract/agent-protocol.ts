// The agent ↔ world-daemon protocol: JSON lines (one object per "\n"-terminated UTF-8 line)
// over a Unix socket. The daemon is the single writer of events.jsonl; the agent only sends
// replies and app commands, never event lines, so it cannot set an event_id or relabel its
// own actions as ENV (docs/contract.md, "Agent protocol").
//
// Life of a connection:
//   agent  → hello {agent, steer?}          (first line; daemon answers welcome)
//   daemon → welcome {tools, sim_time, …}
//   agent  → ready {steer?}                 (adapter /health turns connected:true; the
//                                            simulated clock, held since the start, runs)
//   daemon → message {run_id, text, …}      a run starts: the agent works on it…
//   agent  → cli {id, argv} / time {id}     …calling apps (answers: cli_result / time)
//   agent  → usage / progress / log         (optional, any time)
//   agent  → clock {hold}                   hold / release the simulated clock (a program
//                                            restarting: its start-up is not the agent's time)
//   agent  → reply {run_id, content}        the run ends: the daemon writes the SMU line
//   daemon → shutdown {reason}              terminal status reached; the agent may exit
//
// One run at a time: a message that arrives while a run is active is queued by the daemon
// and delivered (bundled with any other queued ones) after the run's reply, so a mid-run
// notification never creates an extra turn boundary. An agent that declared `steer: true`
// instead receives mid-run messages at once, tagged `steer: true` with the active run_id,
// and must fold them into that run (still one reply for the run); parts it could not take go
// back with the run's reply (`requeue`) and are delivered again as the next run.

import { StringDecoder } from 'node:string_decoder';

export const AGENT_PROTOCOL_VERSION = 1;

/** Sockets of the world daemon inside the image (directory owned by gaia2, mode 755). */
export const DAEMON_SOCKETS = {
  dir: '/run/gaia2',
  /** Agent runtime ↔ daemon (this protocol). */
  agent: '/run/gaia2/agent.sock',
  /** App CLI thin clients (HTTP over a Unix socket, see docs/contract.md). */
  cli: '/run/gaia2/cli.sock',
} as const;

/** Env vars overriding the socket paths (tests, host-side runs). */
export const AGENT_SOCKET_ENV = 'GAIA2_AGENT_SOCKET';
export const CLI_SOCKET_ENV = 'GAIA2_CLI_SOCKET';

// ---------------------------------------------------------------- agent → daemon

export interface HelloMsg {
  type: 'hello';
  protocol: number;
  /** Runtime name, e.g. "default", "scripted". */
  agent: string;
  /** Receive mid-run messages at once instead of queued after the reply. */
  steer?: boolean;
}

export interface ReadyMsg {
  type: 'ready';
  /** As hello's `steer`, for runtimes that learn it only once their program is up. */
  steer?: boolean;
}

/**
 * Holds (true) or releases (false) the simulated clock. The clock starts held and runs from the
 * agent's first `ready`; a runtime holds it again while its program restarts, so start-up is
 * never charged to the scenario's time (docs/daemon.md, "The clock").
 */
export interface ClockMsg {
  type: 'clock';
  hold: boolean;
  /** For the daemon's log. */
  reason?: string;
}

/** Ends the active run. The daemon writes an AgentUserInterface.send_message_to_user line. */
export interface ReplyMsg {
  type: 'reply';
  run_id: string;
  /** Text shown to the user (may be ""). */
  content: string;
  /** "error" when the run failed; content is then the text the user sees (e.g. "Error: …"). */
  state?: 'final' | 'error';
  /** With state "error": the typed cause (provider_error, internal_error, …). */
  error_kind?: string;
  /**
   * The agent's program failed this run on its own (it exited or reported an error): `content`
   * is its failure text, a reply like any other (judged, state "final"); the daemon records the
   * failure in its status (`agent_failures`) so the runner can weigh it against the model
   * gateway's record (docs/agents.md, "When the program fails").
   */
  failure?: { detail: string };
  /** Steer parts the agent did not take into this run: delivered again as the next run (recorded once). */
  requeue?: DeliveredPart[];
  /**
   * How many steer messages of this run the runtime had received when it replied. Steers the
   * daemon sent after that crossed the reply on the socket and are delivered again as the next
   * run. Absent: the runtime saw every one (it handles late steers itself).
   */
  steers_seen?: number;
}

/** Runs one app command as an agent action, e.g. argv ["calendar","add-event","--title","x"]. */
export interface CliMsg {
  type: 'cli';
  id: number | string;
  argv: string[];
}

export interface TimeRequestMsg {
  type: 'time';
  id: number | string;
}

/** Token use, added up by the daemon (status field `usage`). All fields optional deltas. */
export interface UsageMsg {
  type: 'usage';
  run_id?: string;
  model?: string;
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cost_usd?: number;
}

/** Heartbeat: the agent is alive and working (resets the idle timer). */
export interface ProgressMsg {
  type: 'progress';
  run_id?: string;
  text?: string;
}

export interface LogMsg {
  type: 'log';
  level?: 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

export type AgentToDaemon =
  | HelloMsg
  | ReadyMsg
  | ReplyMsg
  | CliMsg
  | TimeRequestMsg
  | UsageMsg
  | ProgressMsg
  | LogMsg
  | ClockMsg;

// ---------------------------------------------------------------- daemon → agent

export interface WelcomeMsg {
  type: 'welcome';
  protocol: number;
  /** Agent-visible CLI names of the scenario's apps, sorted (e.g. ["calendar","emails"]). */
  tools: string[];
  /** Current simulated time, "YYYY-MM-DD HH:MM:SS" UTC. */
  sim_time: string;
  /** realtime | fast-forward */
  clock_mode: string;
  /**
   * Agent2Agent: CLIs (a subset of `tools`) operated by app agents; for these the agent has
   * only `<cli> expert-agent --task TEXT`. Absent when no app is.
   */
  app_agents?: string[];
  /**
   * Noise phase (ours): app commands the agent sees under another name and/or description;
   * `fn` identifies the command (its ARE function). Absent when nothing is renamed.
   */
  renamed_commands?: RenamedCommand[];
}

export interface RenamedCommand {
  cli: string;
  fn: string;
  name: string;
  help: string;
}

export interface DeliveredPart {
  kind: 'user' | 'notification';
  text: string;
}

/** A new run (or, with steer, more input for the active run). */
export interface MessageMsg {
  type: 'message';
  run_id: string;
  /** "user" when any part is a user message, else "notification". */
  kind: 'user' | 'notification';
  /** All parts joined by a blank line: what the model should read. */
  text: string;
  parts: DeliveredPart[];
  sim_time: string;
  /** true: extra input for the active run (only to agents that said steer:true). */
  steer?: boolean;
}

export interface CliResultMsg {
  type: 'cli_result';
  id: number | string;
  stdout: string;
  stderr: string;
  exit_code: number;
}

export interface TimeMsg {
  type: 'time';
  id: number | string;
  sim_time: string;
  /** Sim time as epoch seconds. */
  epoch: number;
}

export interface ShutdownMsg {
  type: 'shutdown';
  /** Terminal status of the daemon: complete | stopped | error. */
  status: string;
  reason: string;
}

export interface ProtocolErrorMsg {
  type: 'error';
  id?: number | string;
  message: string;
}

export type DaemonToAgent =
  | WelcomeMsg
  | MessageMsg
  | CliResultMsg
  | TimeMsg
  | ShutdownMsg
  | ProtocolErrorMsg;

/** Encodes one protocol line (JSON + "\n"). */
export const encodeLine = (msg: AgentToDaemon | DaemonToAgent): string => JSON.stringify(msg) + '\n';

/**
 * Splits a byte stream into complete lines; a partial tail waits for the next chunk.
 * Returns a push function that calls `onLine` for each complete non-empty line.
 */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let pending = '';
  const decoder = new StringDecoder('utf8'); // a multi-byte char may span two chunks
  return (chunk) => {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) onLine(line);
    }
  };
}
