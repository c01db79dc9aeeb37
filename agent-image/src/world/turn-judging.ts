// Turn conditions, judge calls and the completion rule (docs/daemon.md, "Turns" and "Lines and statuses"):
// condition k passes once k replies are in and turn k-1 is accepted (the id mapping then
// completes the oracle events it matched); the run completes when every condition passed,
// nb_turns replies are in and nothing is scheduled — with the final turn judged when
// GAIA2_JUDGE_FINAL_TURN is set. A rejected turn stops the run.
import { appendFileSync } from 'node:fs';
import type { Judgment } from '../contract/status.js';
import { JudgeError, type CompletedEvent, type JudgmentRecord } from '../judge/index.js';
import type { LoadedScenario } from '../scenario/index.js';
import type { SimClock } from './clock.js';
import type { DaemonLog } from './daemon-log.js';
import { isReplyEvent, type TurnJudge } from './judging.js';
import { conditionId, type ScenarioSchedule } from './schedule.js';
import { sliceFinalTurn, sliceTurn } from './turn-slices.js';

export interface JudgingHost {
  readonly scenario: LoadedScenario;
  readonly tracked: readonly CompletedEvent[];
  readonly schedule: ScenarioSchedule;
  readonly clock: SimClock;
  readonly log: DaemonLog;
  readonly replies: number;
  readonly isTerminal: boolean;
  /** No run active or queued, no app command in flight. */
  agentIdle(): boolean;
  setReturn(id: string, value: unknown): void;
  /** Condition k passed: tell the runtime, persist the status. */
  turnStarted(turn: number): void;
  fireDue(): Promise<void>;
  end(status: 'complete' | 'stopped' | 'error', reason: string): void;
}

export interface JudgingOptions {
  judge: TurnJudge | null;
  judgeFinalTurn: boolean;
  /** W1 fix. */
  finalTurnLastReply: boolean;
  judgmentsFile: string;
}

export class TurnJudging {
  conditionsPassed = 0;
  judging = false;
  judgment: Judgment | undefined;
  errorKind: string | undefined;

  constructor(
    private readonly host: JudgingHost,
    private readonly opts: JudgingOptions,
  ) {}

  async checkConditions(): Promise<void> {
    const h = this.host;
    while (!this.judging && !h.isTerminal) {
      const k = this.conditionsPassed + 1;
      if (k >= h.scenario.nbTurns || h.replies < k) return;
      if (this.opts.judge && !(await this.runJudge(k - 1, sliceTurn(h.tracked, k - 1), false))) return;
      this.conditionsPassed = k;
      h.log.info(`Condition ${conditionId(k)} PASSED (smu=${h.replies}, turn_idx=${k})`);
      h.schedule.complete(conditionId(k), h.clock.now());
      h.turnStarted(k);
      await h.fireDue();
    }
  }

  async checkCompletion(): Promise<void> {
    const h = this.host;
    const nb = h.scenario.nbTurns;
    if (this.judging || this.conditionsPassed < nb - 1) return;
    if (h.replies < nb || h.schedule.pendingCount > 0) return;
    const lastReplyFix = this.opts.finalTurnLastReply;
    if (lastReplyFix) {
      // Do not close on a delivery or an ENV line: wait until the agent answered it.
      const lastAgent = [...h.tracked].reverse().find((t) => t.type === 'AGENT');
      if (!h.agentIdle() || !lastAgent || !isReplyEvent(lastAgent)) return;
    }
    const finalTurn = nb - 1;
    if (this.opts.judgeFinalTurn && this.opts.judge) {
      const slice = lastReplyFix ? sliceFinalTurn(h.tracked, finalTurn) : sliceTurn(h.tracked, finalTurn);
      if (!(await this.runJudge(finalTurn, slice, true))) return;
    }
    h.end('complete', this.judgment ? 'all turns done and judged' : 'all turns done (final turn not judged)');
  }

  /** Judges one turn; on success applies the id mapping. Returns false when the run ended. */
  private async runJudge(turn: number, slice: CompletedEvent[], final: boolean): Promise<boolean> {
    const h = this.host;
    this.judging = true;
    h.log.info(`JUDGE turn ${turn}: ${slice.length} event(s)`);
    let v;
    try {
      v = await this.opts.judge!.judgeTurn(turn, slice);
    } catch (e) {
      this.judging = false;
      this.errorKind = e instanceof JudgeError ? e.kind : 'judge_error';
      h.end('error', `judge failed on turn ${turn}: ${(e as Error).message}`);
      return false;
    }
    this.judging = false;
    if (v.record) this.writeRecord(v.record);
    if (h.isTerminal) return false;
    if (!v.success) {
      h.log.info(`JUDGE REJECT turn ${turn}: ${v.failure_reason}`);
      if (!final) h.log.info(`JUDGE REJECTED turn ${turn}: ${v.failure_reason} — stopping`);
      this.judgment = { success: false, failure_reason: v.failure_reason };
      h.end('stopped', `judge rejected turn ${turn}: ${v.failure_reason}`);
      return false;
    }
    h.log.info(`JUDGE ACCEPT turn ${turn}`);
    const byId = new Map(h.tracked.map((t) => [t.id, t]));
    for (const [agentId, oracleId] of Object.entries(v.agent_event_id_to_oracle_event_id)) {
      const t = byId.get(agentId);
      if (!t || h.schedule.completedAt.has(oracleId)) continue;
      h.schedule.complete(oracleId, t.time);
      h.setReturn(oracleId, t.ret);
    }
    if (final) this.judgment = { success: true, failure_reason: '' };
    return true;
  }

  private writeRecord(record: JudgmentRecord): void {
    try {
      appendFileSync(this.opts.judgmentsFile, JSON.stringify(record) + '\n');
    } catch (e) {
      this.host.log.error(`cannot write ${this.opts.judgmentsFile}: ${(e as Error).message}`);
    }
  }
}
