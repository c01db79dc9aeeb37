// The daemon's side of the conversation with whoever plays the agent (agent-endpoint.ts): is
// it attached, is it ready, messages to it (dropped with a warning when nobody listens), and
// what comes back. App commands and replies become event lines, as do messages once they
// reach the agent; a reply is the only turn boundary, and a runaway agent (more than three
// replies per scenario turn) ends the run.
import type { DeliveredPart } from '../contract/agent-protocol.js';
import type { AgentFailure } from '../contract/status.js';
import { AUI_APP, SEND_MESSAGE_TO_AGENT, SEND_MESSAGE_TO_USER, type EventLine } from '../contract/events.js';
import type { CommandResult } from '../apps/index.js';
import type { AppsGateway } from './apps-gateway.js';
import type { SimClock } from './clock.js';
import type { DaemonLog } from './daemon-log.js';
import type { AgentEndpoint } from './agent-endpoint.js';
import type { RunStatus, UsageRole } from './run-status.js';
import type { DelegatedApps } from './delegated-apps.js';
import { appForCli, cliName } from '../apps/catalog.js';
import type { AppliedNoise } from '../noise/index.js';

export interface ReplyInfo {
  runId: string;
  content: string;
  state: 'final' | 'error';
}

export interface AgentLinkHost {
  readonly clock: SimClock;
  readonly apps: AppsGateway;
  readonly log: DaemonLog;
  readonly run: RunStatus;
  readonly nbTurns: number;
  /** The task message, delivered once the agent is ready (null: none). */
  readonly task: string | null;
  activity(): void;
  appendTracked(lines: EventLine[]): void;
  /** Agent2Agent: apps the main agent reaches only through their app agent (null: none). */
  readonly appAgents?: DelegatedApps | null;
  addUsage?(u: Record<string, unknown>, role?: UsageRole): void;
  /** Look at the world again soon. */
  wake(): void;
  fail(reason: string): void;
  /** Noise phase: agent commands may fail and see renamed commands. */
  readonly noise?: AppliedNoise | null;
  /** Lines in events.jsonl so far (places a tool failure among them). */
  eventCount(): number;
}

export class AgentLink {
  private current: AgentEndpoint | null = null;
  private ready = false;
  /** Latched by the first markReady(): an agent has connected in this run (never cleared). */
  private seen = false;
  private readonly replyListeners: Array<(r: ReplyInfo) => void> = [];

  constructor(private readonly host: AgentLinkHost) {}

  get endpoint(): AgentEndpoint | null {
    return this.current;
  }

  get connected(): boolean {
    return this.ready;
  }

  /** True from the first time the agent was ready until the process ends, even after it left. */
  get everConnected(): boolean {
    return this.seen;
  }

  /** No endpoint, or one with no run active or queued. */
  get idle(): boolean {
    return !this.current || this.current.isIdle();
  }

  /** The world changed: in-process runtimes waiting for a sim time re-check it. */
  poke(): void {
    this.current?.poke?.();
  }

  attach(endpoint: AgentEndpoint): void {
    this.current = endpoint;
  }

  onReply(l: (r: ReplyInfo) => void): void {
    this.replyListeners.push(l);
  }

  /** The agent can take messages: the task is delivered, turn 0 starts. */
  markReady(): void {
    const h = this.host;
    if (this.ready || h.run.isTerminal) return;
    this.ready = true;
    this.seen = true;
    h.activity();
    h.log.info(`agent ${this.current?.name ?? '?'} connected`);
    if (h.task !== null) this.deliver({ kind: 'user', text: h.task });
    this.current?.turnStarted?.(0);
    h.run.write();
    h.wake();
  }

  /** The runtime went away: after its final reply the run finishes without it, else it fails. */
  lost(why: string): void {
    const h = this.host;
    this.ready = false;
    if (h.run.isTerminal) return;
    if (h.run.replies >= h.nbTurns) {
      h.log.warn(`agent lost after its final reply (${why}); finishing without it`);
      this.current = null;
      h.wake();
      return;
    }
    h.fail(`agent runtime lost before finishing (turn ${h.run.replies} of ${h.nbTurns}): ${why}`);
  }

  /** Hands a message to the endpoint; returns its run id ('' when dropped). */
  deliver(part: DeliveredPart): string {
    this.host.activity();
    if (!this.current || this.host.run.isTerminal) {
      this.host.log.warn(`no agent to deliver to; dropped ${part.kind} message`);
      return '';
    }
    return this.current.deliver(part);
  }

  /** The main agent's app command: to the app, or to its app agent under Agent2Agent. */
  async cli(argv: readonly string[]): Promise<CommandResult> {
    const h = this.host;
    if (!h.appAgents?.handles(argv)) return this.appCli(argv);
    h.activity();
    const r = await h.appAgents.run(argv, {
      simTime: () => h.clock.text(),
      // App agents know the apps by their own command names, not the main agent's renamed ones.
      appCli: (a) => this.appCli(a, false),
      usage: (u) => h.addUsage?.(u, 'app_agents'),
      activity: () => h.activity(),
      providerFailed: (error, app) => {
        if (h.run.isTerminal) return;
        h.run.agentErrorKind = 'provider_error';
        h.fail(`the ${app} app agent's model call failed (${error.reason}, HTTP ${error.status}): ${error.message.slice(0, 300)}`);
      },
    });
    this.appendAgentLines(r.events.map((l) => ({ ...l, event_id: undefined })));
    return r;
  }

  /**
   * One app command as an agent action, straight to the app. Under Noise it may fail, and
   * `renamed` says whether it names commands as the main agent sees them (Noise renames).
   */
  async appCli(argv: readonly string[], renamed = true): Promise<CommandResult> {
    const h = this.host;
    h.activity();
    const tools = h.noise?.tools ?? null;
    const failed = tools?.draw(argv, appForCli(cliName(argv)) ?? null, renamed);
    if (failed) {
      // Fails before the app runs: no state change and no event line, so the judge never sees it.
      h.log.info(`NOISE tool failure: ${failed.tool}`);
      h.noise!.recorder.write([{ kind: 'tool_failure', sim_t: h.clock.text(), events_before: h.eventCount(), tool: failed.tool, argv: failed.argv, message: failed.message }]);
      return { stdout: '', stderr: failed.message + '\n', exitCode: 1, events: [] };
    }
    const r = await h.apps.cli(argv, () => ({ simTime: h.clock.text(), surface: renamed ? tools?.surface : undefined }));
    this.appendAgentLines(r.events.map((l) => ({ ...l, event_id: undefined })));
    return r;
  }

  async action(app: string, fn: string, args: Record<string, unknown>): Promise<CommandResult> {
    const h = this.host;
    h.activity();
    const r = await h.apps.action(app, fn, args, () => ({ simTime: h.clock.text() }));
    this.appendAgentLines(r.events.map((l) => ({ ...l, event_id: undefined })));
    return r;
  }

  /**
   * The agent's reply: a turn boundary. With `failure` the agent's program failed the run on its
   * own and `content` is its failure text: still an answer (judged like any other), recorded in
   * the status's `agent_failures` with the wall clock the runner matches against the model
   * gateway's record (docs/agents.md, "When the program fails").
   */
  reply(content: string, runId: string, state: 'final' | 'error', errorKind?: string, failure?: { detail: string }): void {
    const h = this.host;
    if (h.run.isTerminal) return;
    if (state === 'error') {
      // A run that failed (provider refused, runtime bug) is not an answer: no turn boundary,
      // no judging; the scenario ends as an infrastructure error with its kind.
      for (const l of this.replyListeners) l({ runId, content, state });
      h.run.agentErrorKind = errorKind ?? 'internal_error';
      h.fail(`agent run failed (${h.run.agentErrorKind}): ${content.slice(0, 500)}`);
      return;
    }
    const clock = h.clock;
    // One wall stamp for the reply line and the failure record: the runner's window ends there.
    const wall = Date.now() / 1000;
    if (failure) h.run.recordFailure(failureRecord(h.run.replies + 1, content, failure.detail, clock.text(), wall));
    this.appendAgentLines([
      { t: clock.now(), app: AUI_APP, fn: SEND_MESSAGE_TO_USER, args: { content }, w: true, ret: null, sim_t: clock.text(), wall_t: wall },
    ]);
    for (const l of this.replyListeners) l({ runId, content, state });
  }

  recordDelivered(parts: readonly DeliveredPart[]): void {
    const clock = this.host.clock;
    const lines: EventLine[] = parts.map((p) => ({
      t: clock.now(),
      app: AUI_APP,
      fn: SEND_MESSAGE_TO_AGENT,
      args: { content: p.text },
      w: false,
      ret: 'Message sent.',
      sim_t: clock.text(),
    }));
    this.appendAgentLines(lines);
  }

  private appendAgentLines(lines: EventLine[]): void {
    const h = this.host;
    if (lines.length === 0 || h.run.isTerminal) return;
    h.appendTracked(lines);
    const replies = h.run.countAgentLines(lines);
    h.activity();
    if (replies && h.run.replies > h.nbTurns * 3) {
      h.fail(`too many turns: ${h.run.replies} replies for a ${h.nbTurns}-turn scenario`);
      return;
    }
    h.run.write();
    h.wake();
  }
}

/** Longest failure text kept in the status (the whole text is the reply line in events.jsonl). */
const FAILURE_TEXT_MAX = 2000;

function failureRecord(turn: number, text: string, detail: string, simTime: string, wall: number): AgentFailure {
  return { turn, text: text.slice(0, FAILURE_TEXT_MAX), detail: detail.slice(0, FAILURE_TEXT_MAX), sim_time: simTime, wall_t: wall };
}
