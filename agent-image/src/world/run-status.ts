// daemon_status.json and what it reports about the run, kept as the daemon goes: the state and
// why it ended, the agent's event lines and replies (a reply is the only turn boundary), the
// last reply and token usage; the facts other parts own (clock, schedule, judge, agent
// connection) are asked for at each snapshot. Whoever waits for the end is told here.
import { AUI_APP, SEND_MESSAGE_TO_USER, type EventLine } from '../contract/events.js';
import { TERMINAL_STATES, type AgentFailure, type DaemonState, type DaemonStatus, type Judgment, type JudgeMode } from '../contract/status.js';
import type { DaemonLog } from './daemon-log.js';
import { writeStatusFile } from './status-file.js';

/** Who reported tokens: the agent under test or an Agent2Agent app agent. */
export type UsageRole = 'agent' | 'app_agents';

export interface StatusFacts {
  nbTurns: number;
  judgment: Judgment | undefined;
  simTime: string;
  pendingEvents: number;
  /** Why judging failed, when it did (an agent run error takes precedence). */
  judgeErrorKind: string | undefined;
  judgeMode: JudgeMode;
  agent: string | null;
  connected: boolean;
  /** Agent2Agent: scenario apps operated by app agents (empty: none). */
  appAgents?: readonly string[];
  /** An agent has connected at some point (latched). */
  everConnected: boolean;
  /** The runtime chosen to play and what chose it (settings), when known. */
  agentRuntime?: { name: string; chosenBy: string };
}

export class RunStatus {
  state: DaemonState = 'waiting';
  reason: string | undefined;
  /** Set when the agent runtime ended a run with an error (e.g. its provider refused). */
  agentErrorKind: string | undefined;
  private replyCount = 0;
  private numEvents = 0;
  private lastResponse: string | undefined;
  /** Token counts as reported, per role (every caller's sum is computed from them: `usage`). */
  private readonly agentUsage: Record<string, number> = {};
  private readonly appAgentsUsage: Record<string, number> = {};
  private readonly terminalListeners: Array<(s: DaemonStatus) => void> = [];
  /** Turns whose program failed on its own (judged replies all the same). */
  private readonly failures: AgentFailure[] = [];

  constructor(
    private readonly file: string,
    private readonly log: DaemonLog,
    private readonly facts: () => StatusFacts,
  ) {}

  get isTerminal(): boolean {
    return TERMINAL_STATES.has(this.state);
  }

  /** Replies so far: the turn boundaries seen. */
  get replies(): number {
    return this.replyCount;
  }

  /** Counts lines the agent's side produced; returns how many were replies. */
  countAgentLines(lines: readonly EventLine[]): number {
    let replies = 0;
    for (const l of lines) {
      this.numEvents++;
      if (l.app === AUI_APP && l.fn === SEND_MESSAGE_TO_USER) {
        replies++;
        this.replyCount++;
        const c = (l.args as { content?: unknown }).content;
        this.lastResponse = typeof c === 'string' ? c : '';
        this.log.info(`>>> TURN BOUNDARY DETECTED — turn ${this.replies} <<<`);
      }
    }
    return replies;
  }

  /** A turn whose agent program failed on its own: status `agent_failures`. */
  recordFailure(f: AgentFailure): void {
    this.failures.push(f);
    this.log.warn(`agent program failed turn ${f.turn}: ${f.detail || f.text}`.slice(0, 500));
  }

  /** Adds reported token counts to the role's: `agent_usage` and `app_agents_usage` keep the two roles apart. */
  addUsage(u: Record<string, unknown>, role: UsageRole = 'agent'): void {
    const apart = role === 'agent' ? this.agentUsage : this.appAgentsUsage;
    for (const [k, v] of Object.entries(u)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      apart[k] = (apart[k] ?? 0) + v;
    }
  }

  /** `usage`: every caller's sum, its meaning since before the roles were split (runners that read only it). */
  private usageSum(): Record<string, number> {
    const sum = { ...this.agentUsage };
    for (const [k, v] of Object.entries(this.appAgentsUsage)) sum[k] = (sum[k] ?? 0) + v;
    return sum;
  }

  get status(): DaemonStatus {
    const f = this.facts();
    const s: DaemonStatus = {
      status: this.state,
      turn: this.replies,
      nb_turns: f.nbTurns,
      num_events: this.numEvents,
    };
    if (this.lastResponse !== undefined) s.last_response = this.lastResponse;
    if (f.judgment) s.judgment = f.judgment;
    s.sim_time = f.simTime;
    s.pending_events = f.pendingEvents;
    if (this.reason !== undefined) s.reason = this.reason;
    const errorKind = this.agentErrorKind ?? f.judgeErrorKind;
    if (errorKind !== undefined) s.error_kind = errorKind;
    s.judge_mode = f.judgeMode;
    const extra = s as DaemonStatus & Record<string, unknown>;
    extra.agent = f.agent;
    extra.connected = f.connected;
    if (f.appAgents?.length) extra.app_agents = [...f.appAgents];
    extra.ever_connected = f.everConnected;
    if (f.agentRuntime) {
      extra.agent_runtime = f.agentRuntime.name;
      extra.agent_runtime_chosen_by = f.agentRuntime.chosenBy;
    }
    const usage = this.usageSum();
    if (Object.keys(usage).length) extra.usage = usage;
    if (Object.keys(this.agentUsage).length) extra.agent_usage = this.agentUsage;
    if (Object.keys(this.appAgentsUsage).length) extra.app_agents_usage = this.appAgentsUsage;
    if (this.failures.length) s.agent_failures = this.failures.map((f) => ({ ...f }));
    return s;
  }

  /** Persists the status; a failed write is logged, never fatal. */
  write(): void {
    try {
      writeStatusFile(this.file, this.status);
    } catch (e) {
      this.log.error(`cannot write ${this.file}: ${(e as Error).message}`);
    }
  }

  onTerminal(l: (s: DaemonStatus) => void): void {
    this.terminalListeners.push(l);
  }

  /** Resolves with the terminal status. */
  finished(): Promise<DaemonStatus> {
    if (this.isTerminal) return Promise.resolve(this.status);
    return new Promise((r) => this.onTerminal(r));
  }

  /** The run just reached a terminal state: tell everyone waiting for it. */
  announceTerminal(): void {
    const s = this.status;
    for (const l of this.terminalListeners.splice(0)) l(s);
  }
}
