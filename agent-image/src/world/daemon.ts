// The world daemon (DESIGN.md §4): one simulated clock, the scenario's event schedule, every
// app command, the single writer of events.jsonl, daemon_status.json, turn conditions and
// judging. Transports (agent socket, CLI socket, adapter HTTP) and runtimes plug in from
// outside; everything here also runs in one process for tests.
//
// Reference behaviours kept by default, with switches (options.fixes, env in config.ts):
//   W1  the final turn is the slice before the N-th reply and the run closes as soon as the
//       last condition/ENV is done; fix: judge up to the last reply, close only when the
//       agent is idle after a reply.
//   W2  a chained ENV event fires at max(start + delay, parent done); fix: parent done + delay.
import { join } from 'node:path';
import { AUI_APP, SEND_MESSAGE_TO_AGENT, SEND_MESSAGE_TO_USER, type EventLine } from '../contract/events.js';
import type { DaemonState, DaemonStatus, JudgeMode } from '../contract/status.js';
import type { DeliveredPart } from '../contract/agent-protocol.js';
import type { CommandResult } from '../apps/index.js';
import type { LoadedScenario, ScenarioEventModel } from '../scenario/index.js';
import { SimClock, formatSimTime, writeFaketimeFile, type ClockMode } from './clock.js';
import { EventLog } from './event-log.js';
import { writeStatusFile } from './status-file.js';
import { ScenarioSchedule } from './schedule.js';
import { AppsGateway } from './apps-gateway.js';
import { DaemonLog } from './daemon-log.js';
import { bundleNotifications } from './notifications.js';
import { completedEventFromLine, type CompletedEvent } from '../judge/index.js';
import type { TurnJudge } from './judging.js';
import { TurnJudging } from './turn-judging.js';
import { runEnvEvent, type EnvHost } from './env-firing.js';
import { planNextTick, timeoutReason } from './pacing.js';
import type { AgentEndpoint } from './agent-endpoint.js';

export interface WorldDaemonOptions {
  scenario: LoadedScenario;
  stateDir: string;
  clockMode: ClockMode;
  /** Sim seconds per wall second (time increment × GAIA2_TIME_SPEED). */
  speed?: number;
  judge?: TurnJudge | null;
  judgeFinalTurn: boolean;
  fixes?: { finalTurnLastReply?: boolean; chainedEnvTiming?: boolean };
  /** Wall seconds with no activity and nothing scheduled before status error. Default 300. */
  idleTimeoutSec?: number;
  /** Wall seconds for the agent to become ready. Default 120. */
  connectTimeoutSec?: number;
  faketimeFile?: string | null;
  /** Sim start when the scenario has none (FAKETIME from the runner), epoch seconds. */
  fallbackStart?: number;
  log?: DaemonLog;
  /** App id source (tests). */
  ids?: () => string;
  fsRoot?: string;
}

export interface ReplyInfo {
  runId: string;
  content: string;
  state: 'final' | 'error';
}

export class WorldDaemon {
  readonly clock: SimClock;
  readonly events: EventLog;
  /** Every line as the judge sees it, in append order (ids are stable per line). */
  readonly tracked: CompletedEvent[] = [];
  readonly schedule: ScenarioSchedule;
  readonly apps: AppsGateway;
  readonly log: DaemonLog;
  private readonly sc: LoadedScenario;
  private readonly statusFile: string;
  private endpoint: AgentEndpoint | null = null;
  private connected = false;
  private taskEventId: string | null;
  private state: DaemonState = 'waiting';
  private smuCount = 0;
  private numEvents = 0;
  private lastResponse: string | undefined;
  private reason: string | undefined;
  /** Set when the agent runtime ended a run with an error (e.g. its provider refused). */
  private agentErrorKind: string | undefined;
  private readonly returns = new Map<string, unknown>();
  private readonly turns: TurnJudging;
  private readonly envHost: EnvHost;
  private lastActivity = Date.now();
  private readonly startedWall = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private tickAgain = false;
  private usage: Record<string, number> = {};
  private readonly replyListeners: Array<(r: ReplyInfo) => void> = [];
  private readonly terminalListeners: Array<(s: DaemonStatus) => void> = [];
  private readonly waiters: Array<() => void> = [];
  private runCounter = 0;

  constructor(private readonly opts: WorldDaemonOptions) {
    this.sc = opts.scenario;
    this.log = opts.log ?? new DaemonLog(null);
    this.clock = new SimClock({ start: this.sc.startTime || opts.fallbackStart || Date.now() / 1000, speed: opts.speed, mode: opts.clockMode });
    this.events = new EventLog(join(opts.stateDir, 'events.jsonl'));
    this.statusFile = join(opts.stateDir, 'daemon_status.json');
    this.schedule = new ScenarioSchedule(this.sc, { chainedEnvFix: !!opts.fixes?.chainedEnvTiming });
    this.apps = new AppsGateway(opts.stateDir, { ids: opts.ids, fsRoot: opts.fsRoot });
    const rootUser = this.sc.userEvents.filter((e) => e.dependencies.length === 0);
    this.taskEventId = (rootUser.find((e) => e.action?.fn === SEND_MESSAGE_TO_AGENT) ?? rootUser[0])?.id ?? null;
    for (const [id, why] of this.schedule.stuck) this.log.warn(`event ${id} will never fire: ${why}`);
    const setReturn = (id: string, value: unknown): void => {
      this.returns.set(id, value);
      if (id.startsWith('Event-ENV-')) opts.judge?.envReturnValues.set(id, value);
    };
    this.envHost = {
      clock: this.clock,
      apps: this.apps,
      log: this.log,
      lookup: (id) => this.returnValue(id),
      appendEnvLines: (lines) => this.appendTracked(lines),
      setReturn,
    };
    const self = this;
    this.turns = new TurnJudging(
      {
        scenario: this.sc,
        tracked: this.tracked,
        schedule: this.schedule,
        clock: this.clock,
        log: this.log,
        get replies() {
          return self.smuCount;
        },
        get isTerminal() {
          return self.isTerminal;
        },
        agentIdle: () => (!this.endpoint || this.endpoint.isIdle()) && !this.apps.busy,
        setReturn,
        turnStarted: (k) => {
          this.endpoint?.turnStarted?.(k);
          this.writeStatus();
        },
        fireDue: () => this.fireDue(),
        end: (status, reason) => this.terminate(status, reason),
      },
      {
        judge: opts.judge ?? null,
        judgeFinalTurn: opts.judgeFinalTurn,
        finalTurnLastReply: !!opts.fixes?.finalTurnLastReply,
        judgmentsFile: join(opts.stateDir, 'judgments.jsonl'),
      },
    );
  }

  // ------------------------------------------------------------------ lifecycle

  /** Writes user_details.json and status running, then starts the loop. State must be initialised. */
  start(): void {
    this.state = 'running';
    this.writeStatus();
    this.log.info(
      `scenario ${this.sc.id}: ${this.sc.nbTurns} turn(s), ${this.sc.envEvents.length} ENV, clock ${this.clock.mode} ×${this.clock.speed}`,
    );
    this.wake();
  }

  get status(): DaemonStatus {
    const s: DaemonStatus = {
      status: this.state,
      turn: this.smuCount,
      nb_turns: this.sc.nbTurns,
      num_events: this.numEvents,
    };
    if (this.lastResponse !== undefined) s.last_response = this.lastResponse;
    if (this.turns.judgment) s.judgment = this.turns.judgment;
    s.sim_time = this.clock.text();
    s.pending_events = this.schedule.pendingCount;
    if (this.reason !== undefined) s.reason = this.reason;
    const errorKind = this.agentErrorKind ?? this.turns.errorKind;
    if (errorKind !== undefined) s.error_kind = errorKind;
    s.judge_mode = this.judgeMode;
    const extra = s as DaemonStatus & Record<string, unknown>;
    extra.agent = this.endpoint?.name ?? null;
    extra.connected = this.connected;
    if (Object.keys(this.usage).length) extra.usage = this.usage;
    return s;
  }

  get judgeMode(): JudgeMode {
    return this.opts.judge?.mode ?? 'hard-only';
  }

  get isTerminal(): boolean {
    return this.state === 'complete' || this.state === 'stopped' || this.state === 'error';
  }

  get isConnected(): boolean {
    return this.connected;
  }

  get agentName(): string | null {
    return this.endpoint?.name ?? null;
  }

  onReply(l: (r: ReplyInfo) => void): void {
    this.replyListeners.push(l);
  }

  onTerminal(l: (s: DaemonStatus) => void): void {
    this.terminalListeners.push(l);
  }

  /** Resolves with the terminal status. */
  finished(): Promise<DaemonStatus> {
    if (this.isTerminal) return Promise.resolve(this.status);
    return new Promise((r) => this.onTerminal(r));
  }

  /** Ends the run with status error (crash handlers, lost agent, fatal setup problems). */
  fail(reason: string): void {
    this.terminate('error', reason);
  }

  // ------------------------------------------------------------------ agent side

  /** Attaches the runtime; it receives nothing until markReady(). */
  attachAgent(endpoint: AgentEndpoint): void {
    this.endpoint = endpoint;
  }

  /** The agent can take messages: adapter reports connected, the task is delivered. */
  markReady(): void {
    if (this.connected || this.isTerminal) return;
    this.connected = true;
    this.activity();
    this.log.info(`agent ${this.endpoint?.name ?? '?'} connected`);
    const task = this.taskEventId ? this.sc.byId.get(this.taskEventId) : null;
    const text = task ? contentOf(task) : null;
    if (text !== null) this.deliver({ kind: 'user', text });
    this.endpoint?.turnStarted?.(0);
    this.writeStatus();
    this.wake();
  }

  /** The agent runtime went away (process died, socket closed). */
  agentLost(why: string): void {
    this.connected = false;
    if (this.isTerminal) return;
    if (this.smuCount >= this.sc.nbTurns) {
      this.log.warn(`agent lost after its final reply (${why}); finishing without it`);
      this.endpoint = null;
      this.wake();
      return;
    }
    this.terminate('error', `agent runtime lost before finishing (turn ${this.smuCount} of ${this.sc.nbTurns}): ${why}`);
  }

  /** A message for the agent from outside (POST /notify). Returns the run id. */
  postMessage(text: string, kind: 'user' | 'notification' = 'user'): string {
    return this.deliver({ kind, text });
  }

  /** One agent app command (argv[0] = CLI name). Successful writes become event lines. */
  async agentCli(argv: readonly string[]): Promise<CommandResult> {
    this.activity();
    const r = await this.apps.cli(argv, () => ({ simTime: this.clock.text() }));
    this.appendAgentLines(r.events.map((l) => ({ ...l, event_id: undefined })));
    return r;
  }

  /** One agent action by ARE name (the in-process oracle). */
  async agentAction(app: string, fn: string, args: Record<string, unknown>): Promise<CommandResult> {
    this.activity();
    const r = await this.apps.action(app, fn, args, () => ({ simTime: this.clock.text() }));
    this.appendAgentLines(r.events.map((l) => ({ ...l, event_id: undefined })));
    return r;
  }

  /** The agent's reply to the user: an SMU line, the only turn boundary. */
  agentReply(content: string, runId = '', state: 'final' | 'error' = 'final', errorKind?: string): void {
    if (this.isTerminal) return;
    if (state === 'error') {
      // A run that failed (provider refused, runtime bug) is not an answer: no turn boundary,
      // no judging; the scenario ends as an infrastructure error with its kind.
      for (const l of this.replyListeners) l({ runId, content, state });
      this.agentErrorKind = errorKind ?? 'internal_error';
      this.terminate('error', `agent run failed (${this.agentErrorKind}): ${content.slice(0, 500)}`);
      return;
    }
    this.appendAgentLines([
      { t: this.clock.now(), app: AUI_APP, fn: SEND_MESSAGE_TO_USER, args: { content }, w: true, ret: null, sim_t: this.clock.text() },
    ]);
    for (const l of this.replyListeners) l({ runId, content, state });
  }

  /** Progress, usage and protocol traffic keep the idle timer from firing. */
  activity(): void {
    this.lastActivity = Date.now();
  }

  addUsage(u: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(u)) {
      if (typeof v === 'number' && Number.isFinite(v)) this.usage[k] = (this.usage[k] ?? 0) + v;
    }
    this.activity();
  }

  /** Called by endpoints when a message actually reaches the agent (SMA line). */
  recordDelivered(parts: readonly DeliveredPart[]): void {
    const lines: EventLine[] = parts.map((p) => ({
      t: this.clock.now(),
      app: AUI_APP,
      fn: SEND_MESSAGE_TO_AGENT,
      args: { content: p.text },
      w: false,
      ret: 'Message sent.',
      sim_t: this.clock.text(),
    }));
    this.appendAgentLines(lines);
  }

  newRunId(): string {
    return `run-${++this.runCounter}`;
  }

  // ------------------------------------------------------------------ in-process runtime helpers

  /** Sim time at which scenario/ENV event `id` completed, if it did. */
  completedAt(id: string): number | undefined {
    return this.schedule.completedAt.get(id);
  }

  returnValue(id: string): { found: true; value: unknown } | { found: false } {
    return this.returns.has(id) ? { found: true, value: this.returns.get(id) } : { found: false };
  }

  /** Resolves after the next change (lines, fired events, clock jumps). */
  changed(): Promise<void> {
    return new Promise((r) => this.waiters.push(r));
  }

  /** Re-evaluates the schedule soon (an endpoint's idle state or wake time changed). */
  wake(): void {
    if (this.isTerminal) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  // ------------------------------------------------------------------ internals

  private deliver(part: DeliveredPart): string {
    this.activity();
    if (!this.endpoint || this.isTerminal) {
      this.log.warn(`no agent to deliver to; dropped ${part.kind} message`);
      return '';
    }
    return this.endpoint.deliver(part);
  }

  private appendAgentLines(lines: EventLine[]): void {
    if (lines.length === 0 || this.isTerminal) return;
    this.appendTracked(lines);
    let replies = 0;
    for (const l of lines) {
      this.numEvents++;
      if (l.app === AUI_APP && l.fn === SEND_MESSAGE_TO_USER) {
        replies++;
        this.smuCount++;
        const c = (l.args as { content?: unknown }).content;
        this.lastResponse = typeof c === 'string' ? c : '';
        this.log.info(`>>> TURN BOUNDARY DETECTED — turn ${this.smuCount} <<<`);
      }
    }
    this.activity();
    if (replies && this.smuCount > this.sc.nbTurns * 3) {
      this.terminate('error', `too many turns: ${this.smuCount} replies for a ${this.sc.nbTurns}-turn scenario`);
      return;
    }
    this.writeStatus();
    this.wake();
  }

  private appendTracked(lines: EventLine[]): void {
    const stamped = lines.map((l) => (l.sim_t ? l : { ...l, sim_t: this.clock.text() }));
    this.events.append(stamped);
    for (const l of stamped) this.tracked.push(completedEventFromLine(l, this.tracked.length));
    for (const w of this.waiters.splice(0)) w();
  }

  private async tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.tickAgain = false;
        await this.step();
      } while (this.tickAgain && !this.isTerminal);
    } catch (e) {
      this.terminate('error', `daemon crashed: ${(e as Error).stack ?? String(e)}`);
    } finally {
      this.ticking = false;
    }
    this.scheduleNext();
  }

  private async step(): Promise<void> {
    if (this.isTerminal) return;
    await this.fireDue();
    if (this.isTerminal) return;
    await this.turns.checkConditions();
    if (this.isTerminal) return;
    await this.turns.checkCompletion();
    if (this.isTerminal) return;
    this.checkTimeouts();
    this.endpoint?.poke?.(); // in-process runtimes waiting for a sim time re-check the clock
    if (this.opts.faketimeFile) writeFaketimeFile(this.opts.faketimeFile, this.clock.text());
  }

  /** Fires everything due now (USER deliveries, ENV actions) and delivers the notifications. */
  async fireDue(): Promise<void> {
    for (;;) {
      const due = this.schedule.takeDue(this.clock.now());
      if (due.length === 0) return;
      const envCount = due.filter((d) => d.event.type === 'ENV').length;
      if (envCount) this.log.info(`Time advance: sim=${this.clock.now().toFixed(1)} (+0s), firing ${envCount} ENV actions`);
      const notes: string[] = [];
      for (const [i, d] of due.entries()) {
        const n = await this.fireOne(d.event, i);
        if (n) notes.push(n);
        if (this.isTerminal) return;
      }
      const bundle = bundleNotifications(notes);
      if (bundle) {
        this.log.info(`Sending ${notes.length} bundled notification(s) (turn ${this.smuCount})`);
        for (const n of notes) this.log.info(`Notification: ${n}`);
        this.deliver({ kind: 'notification', text: bundle });
      }
      for (const w of this.waiters.splice(0)) w();
      this.endpoint?.poke?.();
    }
  }

  private async fireOne(e: ScenarioEventModel, i: number): Promise<string | null> {
    this.activity();
    if (e.type === 'USER') {
      this.schedule.complete(e.id, this.clock.now());
      // Root USER events are the task (sent at connect), as in the reference.
      const text = contentOf(e);
      if (e.dependencies.length > 0 && text !== null) {
        this.log.info(`Delivering user message ${e.id}`);
        this.deliver({ kind: 'user', text });
      }
      return null;
    }
    const note = await runEnvEvent(e, i, this.envHost);
    this.schedule.complete(e.id, this.clock.now());
    return note;
  }

  private checkTimeouts(): void {
    const reason = timeoutReason({
      connected: this.connected,
      wallSinceStartMs: Date.now() - this.startedWall,
      wallSinceActivityMs: Date.now() - this.lastActivity,
      connectTimeoutSec: this.opts.connectTimeoutSec ?? 120,
      idleTimeoutSec: this.opts.idleTimeoutSec ?? 300,
      pending: this.schedule.pendingCount,
      judging: this.turns.judging,
      turn: this.smuCount,
      nbTurns: this.sc.nbTurns,
    });
    if (reason) this.terminate('error', reason);
  }

  /** Arms the timer for the next tick; in fast-forward, jumps the clock while the agent is idle. */
  private scheduleNext(): void {
    if (this.isTerminal) return;
    if (this.timer) clearTimeout(this.timer);
    const plan = planNextTick(
      {
        mode: this.clock.mode,
        now: this.clock.now(),
        due: this.schedule.nextDue(),
        agentWake: this.endpoint?.wakeAt() ?? null,
        idle: this.connected && !this.turns.judging && !this.apps.busy && (!this.endpoint || this.endpoint.isIdle()),
      },
      (t) => this.clock.wallMsUntil(t),
    );
    if (plan.jumpTo !== null) {
      const skipped = this.clock.jumpTo(plan.jumpTo);
      if (skipped > 0) this.log.info(`fast-forward: +${skipped.toFixed(1)}s to ${formatSimTime(plan.jumpTo)}`);
      this.endpoint?.poke?.();
    }
    this.timer = setTimeout(() => void this.tick(), plan.delayMs);
  }

  private terminate(status: 'complete' | 'stopped' | 'error', reason: string): void {
    if (this.isTerminal) return;
    this.state = status;
    this.reason = reason;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    (status === 'error' ? this.log.error.bind(this.log) : this.log.info.bind(this.log))(`status ${status}: ${reason}`);
    this.writeStatus();
    if (this.opts.faketimeFile) {
      try {
        writeFaketimeFile(this.opts.faketimeFile, this.clock.text());
      } catch {
        /* best effort */
      }
    }
    this.endpoint?.shutdown(status, reason);
    const s = this.status;
    for (const l of this.terminalListeners.splice(0)) l(s);
    for (const w of this.waiters.splice(0)) w();
  }

  private writeStatus(): void {
    try {
      writeStatusFile(this.statusFile, this.status);
    } catch (e) {
      this.log.error(`cannot write ${this.statusFile}: ${(e as Error).message}`);
    }
  }
}

function contentOf(e: ScenarioEventModel): string | null {
  const c = e.action?.args.content;
  return typeof c === 'string' ? c : c === undefined || c === null ? null : String(c);
}
