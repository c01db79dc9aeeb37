// The world daemon (docs/daemon.md): one simulated clock, the scenario's event schedule, every
// app command, the single writer of events.jsonl, daemon_status.json, turn conditions and
// judging. Transports (agent socket, CLI socket, adapter HTTP) and runtimes plug in from
// outside; everything here also runs in one process for tests. This class is the API they
// use and wires the parts beside it: agent-link.ts (messages to and lines from the agent),
// tick-loop.ts (when to look again), due-firing.ts (scenario events), turn-judging.ts
// (conditions, completion), run-status.ts (daemon_status.json), return-values.ts.
//
// Reference behaviours kept by default, with switches (options.fixes, env in config.ts):
//   W1  the final turn is the slice before the N-th reply and the run closes as soon as the
//       last condition/ENV is done; fix: judge up to the last reply, close only when the
//       agent is idle after a reply.
//   W2  a chained ENV event fires at max(start + delay, parent done); fix: parent done + delay.
import { join } from 'node:path';
import type { DaemonStatus, JudgeMode } from '../contract/status.js';
import type { DeliveredPart, RenamedCommand } from '../contract/agent-protocol.js';
import { APPS } from '../apps/catalog.js';
import type { EventLine } from '../contract/events.js';
import type { CommandResult } from '../apps/index.js';
import type { LoadedScenario } from '../scenario/index.js';
import { SimClock, writeFaketimeFile, type ClockAnchor } from './clock.js';
import { ClockFile } from './clock-file.js';
import { CpuWaitPacing } from './cpu-wait-pacing.js';
import { EventLog } from './event-log.js';
import { ScenarioSchedule } from './schedule.js';
import { AppsGateway } from './apps-gateway.js';
import { DaemonLog } from './daemon-log.js';
import { completedEventFromLine, type CompletedEvent } from '../judge/index.js';
import { TurnJudging } from './turn-judging.js';
import { timeoutReason } from './pacing.js';
import type { AgentEndpoint } from './agent-endpoint.js';
import { TickLoop } from './tick-loop.js';
import { fireDueEvents, taskEvent, userMessageText, type FiringHost } from './due-firing.js';
import { RunStatus, type UsageRole } from './run-status.js';
import { ReturnValues } from './return-values.js';
import { AgentLink, type ReplyInfo } from './agent-link.js';
import type { WorldDaemonOptions } from './daemon-options.js';

export type { ReplyInfo } from './agent-link.js';

/** The hold a runtime's `clock {hold: true}` puts on the clock. */
const AGENT_HOLD = 'agent';
export type { WorldDaemonOptions } from './daemon-options.js';

export class WorldDaemon {
  readonly clock: SimClock;
  readonly events: EventLog;
  /** Every line as the judge sees it, in append order (ids are stable per line). */
  readonly tracked: CompletedEvent[] = [];
  readonly schedule: ScenarioSchedule;
  readonly apps: AppsGateway;
  readonly log: DaemonLog;
  private readonly sc: LoadedScenario;
  private readonly run: RunStatus;
  private readonly agent: AgentLink;
  private readonly returns: ReturnValues;
  private readonly turns: TurnJudging;
  private readonly firing: FiringHost;
  private readonly loop: TickLoop;
  private lastActivity = Date.now();
  private readonly startedWall = Date.now();
  private readonly waiters: Array<() => void> = [];
  private runCounter = 0;
  private readonly clockFile: ClockFile | null;
  private clockFileFailed = false;
  private readonly cpuWaitPacing: CpuWaitPacing | null;

  constructor(private readonly opts: WorldDaemonOptions) {
    this.sc = opts.scenario;
    this.log = opts.log ?? new DaemonLog(null);
    // Held at the scenario's start until the agent's first `ready` (agent-link.ts markReady).
    this.clockFile = opts.simClockFile ? new ClockFile(opts.simClockFile, opts.clockAgentUid) : null;
    this.clock = new SimClock({
      start: this.sc.startTime || opts.fallbackStart || Date.now() / 1000,
      speed: opts.speed,
      mode: opts.clockMode,
      ...(this.clockFile ? { publish: (a: ClockAnchor) => this.publishClock(a) } : {}),
    });
    this.cpuWaitPacing = opts.cpuWait ? new CpuWaitPacing(this.clock, opts.cpuWait) : null;
    this.events = new EventLog(join(opts.stateDir, 'events.jsonl'));
    this.run = new RunStatus(join(opts.stateDir, 'daemon_status.json'), this.log, () => ({
      nbTurns: this.sc.nbTurns,
      judgment: this.turns.judgment,
      simTime: this.clock.text(),
      pendingEvents: this.schedule.pendingCount,
      judgeErrorKind: this.turns.errorKind,
      judgeMode: this.judgeMode,
      agent: this.agentName,
      connected: this.agent.connected,
      appAgents: opts.appAgents?.apps ?? [],
      everConnected: this.agent.everConnected,
      agentRuntime: opts.agentRuntime,
    }));
    this.schedule = new ScenarioSchedule(this.sc, { chainedEnvFix: !!opts.fixes?.chainedEnvTiming, background: opts.noise?.backgroundIds });
    this.apps = new AppsGateway(opts.stateDir, { ids: opts.ids, fsRoot: opts.fsRoot }, opts.states, opts.drive);
    for (const [id, why] of this.schedule.stuck) this.log.warn(`event ${id} will never fire: ${why}`);
    this.returns = new ReturnValues(opts.judge ?? null);
    const setReturn = (id: string, value: unknown): void => this.returns.set(id, value);
    const self = this;
    this.firing = {
      clock: this.clock,
      apps: this.apps,
      log: this.log,
      schedule: this.schedule,
      lookup: this.returns.lookup,
      appendEnvLines: (lines) => this.appendTracked(lines),
      setReturn,
      get isTerminal() {
        return self.isTerminal;
      },
      get turn() {
        return self.run.replies;
      },
      activity: () => this.activity(),
      deliver: (part) => void this.agent.deliver(part),
      batchFired: () => {
        this.notifyChanged();
        this.agent.poke();
      },
    };
    this.turns = new TurnJudging(
      {
        scenario: this.sc,
        tracked: this.tracked,
        schedule: this.schedule,
        clock: this.clock,
        log: this.log,
        get replies() {
          return self.run.replies;
        },
        get isTerminal() {
          return self.isTerminal;
        },
        agentIdle: () => this.agent.idle && !this.apps.busy,
        setReturn,
        turnStarted: (k) => {
          this.agent.endpoint?.turnStarted?.(k);
          this.run.write();
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
    this.loop = new TickLoop({
      clock: this.clock,
      log: this.log,
      get isTerminal() {
        return self.isTerminal;
      },
      step: () => this.step(),
      pacing: () => ({
        due: this.schedule.nextDue(),
        agentWake: this.agent.endpoint?.wakeAt() ?? null,
        idle: this.agent.connected && !this.turns.judging && !this.apps.busy && this.agent.idle,
      }),
      poke: () => this.agent.poke(),
      fail: (reason) => this.terminate('error', reason),
    });
    const task = taskEvent(this.sc);
    this.agent = new AgentLink({
      clock: this.clock,
      apps: this.apps,
      log: this.log,
      run: this.run,
      nbTurns: this.sc.nbTurns,
      task: task ? userMessageText(task) : null,
      activity: () => this.activity(),
      appendTracked: (lines) => this.appendTracked(lines),
      appAgents: opts.appAgents ?? null,
      addUsage: (u, role) => this.addUsage(u, role),
      wake: () => this.wake(),
      fail: (reason) => this.terminate('error', reason),
      noise: opts.noise ?? null,
      eventCount: () => this.tracked.length,
    });
  }

  // ------------------------------------------------------------------ lifecycle

  /** Writes user_details.json and status running, then starts the loop. State must be initialised. */
  start(): void {
    this.run.state = 'running';
    this.run.write();
    if (this.cpuWaitPacing && !this.opts.cpuWait!.available) this.log.warn('the CPU wait cannot be read (no /proc/<pid>/task/<tid>/schedstat): it counts on the clock');
    else this.cpuWaitPacing?.start();
    this.log.info(
      `scenario ${this.sc.id}: ${this.sc.nbTurns} turn(s), ${this.sc.envEvents.length} ENV, clock ${this.clock.mode} ×${this.clock.speed}`,
    );
    this.wake();
  }

  get status(): DaemonStatus {
    return this.run.status;
  }

  get judgeMode(): JudgeMode {
    return this.opts.judge?.mode ?? 'hard-only';
  }

  get isTerminal(): boolean {
    return this.run.isTerminal;
  }

  get isConnected(): boolean {
    return this.agent.connected;
  }

  /** CLIs the main agent reaches only through their app agent (Agent2Agent), sorted. */
  get appAgentClis(): string[] {
    return this.opts.appAgents?.clis ?? [];
  }

  /** A runtime is attached but has never been ready: its program is starting (the clock is held). */
  get agentStarting(): boolean {
    return this.agent.endpoint !== null && !this.agent.everConnected && !this.isTerminal;
  }

  /** An agent has connected at some point of this run (stays true after it disconnects). */
  get hasConnected(): boolean {
    return this.agent.everConnected;
  }

  /** Noise phase: commands the agent sees renamed or re-described (for the welcome). */
  renamedCommands(): RenamedCommand[] {
    const tools = this.opts.noise?.tools;
    return tools ? tools.renamedCommands(APPS) : [];
  }

  get agentName(): string | null {
    return this.agent.endpoint?.name ?? null;
  }

  onReply(l: (r: ReplyInfo) => void): void {
    this.agent.onReply(l);
  }

  onTerminal(l: (s: DaemonStatus) => void): void {
    this.run.onTerminal(l);
  }

  /** Resolves with the terminal status. */
  finished(): Promise<DaemonStatus> {
    return this.run.finished();
  }

  /** Ends the run with status error (crash handlers, lost agent, fatal setup problems). */
  fail(reason: string): void {
    this.terminate('error', reason);
  }

  // ------------------------------------------------------------------ agent side (agent-link.ts)

  /** Attaches the runtime; it receives nothing until markReady(). */
  attachAgent(endpoint: AgentEndpoint): void {
    this.agent.attach(endpoint);
    // Boot is over for the runner: the states the scenario's parse deferred follow now.
    this.apps.parseDeferredInBackground(this.opts.afterStatesParsed);
  }

  /** The agent can take messages: adapter reports connected, the task is delivered. */
  markReady(): void {
    this.agent.markReady();
    this.apps.parseDeferredInBackground(this.opts.afterStatesParsed);
  }

  /** The agent runtime went away (process died, socket closed). */
  agentLost(why: string): void {
    // A runtime that held the clock (its program restarting) cannot release it any more.
    if (this.clock.release(AGENT_HOLD)) this.log.info('clock released: the agent runtime went away');
    this.agent.lost(why);
  }

  /**
   * The runtime holds (true) or releases (false) the simulated clock (`clock {hold}`): its
   * program is (re)starting, and that start-up is not the agent's time. The start hold (until
   * the first `ready`) stays whatever the runtime says.
   */
  holdClock(hold: boolean, reason?: string): void {
    const changed = hold ? this.clock.hold(AGENT_HOLD) : this.clock.release(AGENT_HOLD);
    if (changed) this.log.info(`clock ${hold ? 'held' : 'released'} by the agent runtime at ${this.clock.text()}${reason ? ` (${reason})` : ''}`);
    this.wake();
  }

  /** A message for the agent from outside (POST /notify). Returns the run id. */
  postMessage(text: string, kind: 'user' | 'notification' = 'user'): string {
    return this.agent.deliver({ kind, text });
  }

  /** One agent app command (argv[0] = CLI name). Successful writes become event lines. */
  agentCli(argv: readonly string[]): Promise<CommandResult> {
    return this.agent.cli(argv);
  }

  /** One agent action by ARE name (the in-process oracle). */
  agentAction(app: string, fn: string, args: Record<string, unknown>): Promise<CommandResult> {
    return this.agent.action(app, fn, args);
  }

  /** The agent's reply to the user: an SMU line, the only turn boundary. */
  agentReply(content: string, runId = '', state: 'final' | 'error' = 'final', errorKind?: string, failure?: { detail: string }): void {
    this.agent.reply(content, runId, state, errorKind, failure);
  }

  /** Progress, usage and protocol traffic keep the idle timer from firing. */
  activity(): void {
    this.lastActivity = Date.now();
  }

  addUsage(u: Record<string, unknown>, role: UsageRole = 'agent'): void {
    this.run.addUsage(u, role);
    this.activity();
  }

  /** Called by endpoints when a message actually reaches the agent (SMA line). */
  recordDelivered(parts: readonly DeliveredPart[]): void {
    this.agent.recordDelivered(parts);
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
    return this.returns.lookup(id);
  }

  /** Fires everything due now (USER deliveries, ENV actions) and delivers the notifications. */
  fireDue(): Promise<void> {
    return fireDueEvents(this.firing);
  }

  /** Resolves after the next change (lines, fired events, clock jumps). */
  changed(): Promise<void> {
    return new Promise((r) => this.waiters.push(r));
  }

  /** Re-evaluates the schedule soon (an endpoint's idle state or wake time changed). */
  wake(): void {
    this.loop.wake();
  }

  // ------------------------------------------------------------------ internals

  private appendTracked(lines: EventLine[]): void {
    // wall_t: the machine's clock when the line was written, the stamp the runner's model gateway
    // puts on each model call (model_traffic.jsonl `t`), so the two interleave exactly.
    const wall = Date.now() / 1000;
    const stamped = lines.map((l) => ({ ...l, sim_t: l.sim_t ?? this.clock.text(), wall_t: l.wall_t ?? wall }));
    this.events.append(stamped);
    for (const l of stamped) this.tracked.push(completedEventFromLine(l, this.tracked.length));
    this.notifyChanged();
  }

  /** Writes a new anchor of the clock to the clock file (a failure is logged once; the run goes on). */
  private publishClock(a: ClockAnchor): void {
    try {
      this.clockFile!.write(a);
    } catch (e) {
      if (!this.clockFileFailed) this.log.error(`cannot write the clock file ${this.opts.simClockFile}: ${(e as Error).message}`);
      this.clockFileFailed = true;
    }
  }

  private notifyChanged(): void {
    for (const w of this.waiters.splice(0)) w();
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
    this.agent.poke(); // in-process runtimes waiting for a sim time re-check the clock
    if (this.opts.faketimeFile) writeFaketimeFile(this.opts.faketimeFile, this.clock.text());
  }

  private checkTimeouts(): void {
    const reason = timeoutReason({
      connected: this.agent.everConnected,
      starting: this.agentStarting,
      wallSinceStartMs: Date.now() - this.startedWall,
      wallSinceActivityMs: Date.now() - this.lastActivity,
      connectTimeoutSec: this.opts.connectTimeoutSec ?? 120,
      idleTimeoutSec: this.opts.idleTimeoutSec ?? 300,
      pending: this.schedule.pendingCount,
      judging: this.turns.judging,
      turn: this.run.replies,
      nbTurns: this.sc.nbTurns,
    });
    if (reason) this.terminate('error', reason);
  }

  /** The app state files, as they stand now, before anyone is told the run ended (and after each later command). */
  private persistStates(): void {
    try {
      this.apps.settle();
    } catch (e) {
      // the drive's tree or a state file (settle writes the states whatever the drive did)
      this.log.error(`at the end of the run: ${(e as Error).message}`);
    }
  }

  private terminate(status: 'complete' | 'stopped' | 'error', reason: string): void {
    if (this.isTerminal) return;
    this.run.state = status;
    this.run.reason = reason;
    this.loop.stop();
    if (this.cpuWaitPacing) {
      this.cpuWaitPacing.stop();
      this.log.info(`clock: ${this.cpuWaitPacing.keptOffSeconds.toFixed(2)} s the run waited for a CPU kept off the simulated clock`);
    }
    (status === 'error' ? this.log.error.bind(this.log) : this.log.info.bind(this.log))(`status ${status}: ${reason}`);
    this.persistStates();
    this.run.write();
    if (this.opts.faketimeFile) {
      try {
        writeFaketimeFile(this.opts.faketimeFile, this.clock.text());
      } catch {
        /* best effort */
      }
    }
    this.agent.endpoint?.shutdown(status, reason);
    this.run.announceTerminal();
    this.notifyChanged();
  }
}
