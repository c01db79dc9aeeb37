// When each scenario USER/ENV event fires (docs/daemon.md, "When events fire").
//
// An event fires once every dependency has completed. Condition successors (the USER message
// and ENV reactions released at turn boundary k) lose their dependency on the oracle reply and
// depend on `condition_turn_<k>` instead; they fire at (condition time + delay).
// Other events fire, by default, as the reference does (W2): at max(start + delay, time the
// dependencies completed), which makes a chained ENV event fire early. With `chainedEnvFix`
// they fire at (dependencies completed + delay).
//
// Oracle (AGENT) ids complete only when a judged turn maps an agent action onto them, as in the
// reference. Events that can never fire are reported as stuck instead of blocking completion
// forever (W8): unknown event types, and events waiting on oracle actions of the final turn
// (which is judged only at the very end).
import type { LoadedScenario, ScenarioEventModel } from '../scenario/index.js';

export const conditionId = (k: number): string => `condition_turn_${k}`;

export interface DueEvent {
  event: ScenarioEventModel;
  at: number;
}

export class ScenarioSchedule {
  /** id → sim time it completed (USER, ENV, remapped oracle ids, conditions). */
  readonly completedAt = new Map<string, number>();
  /** id → effective dependencies. */
  private readonly deps = new Map<string, string[]>();
  /** Condition successors: fire at condition time + delay. */
  private readonly conditionSuccessors = new Set<string>();
  /** USER/ENV ids not fired yet, in JSON order. */
  private readonly pending: ScenarioEventModel[] = [];
  /** Pending events that can never fire, with why. */
  readonly stuck = new Map<string, string>();

  constructor(
    private readonly sc: LoadedScenario,
    private readonly opts: { chainedEnvFix: boolean; background?: ReadonlySet<string> },
  ) {
    for (const e of sc.events) this.deps.set(e.id, [...e.dependencies]);
    for (const b of sc.turnBoundaries) {
      for (const id of b.successorIds) {
        const d = (this.deps.get(id) ?? []).filter((x) => x !== b.endOfTurnOracleId);
        d.push(conditionId(b.turn));
        this.deps.set(id, d);
        this.conditionSuccessors.add(id);
      }
    }
    const finalTurn = sc.nbTurns - 1;
    for (const e of sc.events) {
      if (e.type === 'AGENT') continue;
      if (e.type !== 'ENV' && e.type !== 'USER') {
        this.stuck.set(e.id, `unknown event type ${e.type}`);
        continue;
      }
      const blocker = (this.deps.get(e.id) ?? []).find((d) => {
        const p = sc.byId.get(d);
        return p !== undefined && p.type === 'AGENT' && (p.turn ?? finalTurn) >= finalTurn;
      });
      if (blocker) {
        this.stuck.set(e.id, `depends on oracle action ${blocker} of the final turn`);
        continue;
      }
      this.pending.push(e);
    }
    // Whatever waits on a stuck event is stuck too.
    for (let changed = true; changed; ) {
      changed = false;
      for (const e of [...this.pending]) {
        const blocker = (this.deps.get(e.id) ?? []).find((d) => this.stuck.has(d));
        if (!blocker) continue;
        this.stuck.set(e.id, `depends on ${blocker}, which never fires`);
        this.pending.splice(this.pending.indexOf(e), 1);
        changed = true;
      }
    }
  }

  /** Pending events that hold the run open: all but background (noise) events, which are
   *  dropped when the run ends, as the reference stops its environment with the agent. */
  get pendingCount(): number {
    // Asked on every loop pass and status build; with noise, hundreds of background events wait.
    const bg = this.opts.background;
    if (!bg) return this.pending.length;
    let n = 0;
    for (const e of this.pending) if (!bg.has(e.id)) n++;
    return n;
  }

  /** Ids that stay pending (for status/pending_events and logs), background events excluded. */
  pendingIds(): string[] {
    const bg = this.opts.background;
    return this.pending.filter((e) => !bg?.has(e.id)).map((e) => e.id);
  }

  complete(id: string, at: number): void {
    if (!this.completedAt.has(id)) this.completedAt.set(id, at);
  }

  /** Fire time of a pending event, or null while a dependency is incomplete. */
  fireTime(e: ScenarioEventModel): number | null {
    let depsDone = -Infinity;
    for (const d of this.deps.get(e.id) ?? []) {
      const t = this.completedAt.get(d);
      if (t === undefined) return null;
      depsDone = Math.max(depsDone, t);
    }
    const rel = e.relativeTime ?? 0;
    if (depsDone === -Infinity) return e.eventTime ?? this.sc.startTime + rel;
    if (this.conditionSuccessors.has(e.id) || this.opts.chainedEnvFix) return depsDone + rel;
    const own = e.eventTime ?? this.sc.startTime + rel;
    return Math.max(own, depsDone);
  }

  /** Earliest fire time among pending events whose dependencies are complete. */
  nextDue(): number | null {
    let best: number | null = null;
    for (const e of this.pending) {
      const t = this.fireTime(e);
      if (t !== null && (best === null || t < best)) best = t;
    }
    return best;
  }

  /**
   * Removes and returns the events due at or before `now`, in (fire time, JSON order).
   * Firing is transitive within one call: an event completed here can make a successor due
   * at the same instant, which the caller picks up on its next call.
   */
  takeDue(now: number): DueEvent[] {
    const due: DueEvent[] = [];
    for (const e of this.pending) {
      const t = this.fireTime(e);
      if (t !== null && t <= now + 1e-9) due.push({ event: e, at: t });
    }
    due.sort((a, b) => a.at - b.at || a.event.index - b.event.index);
    for (const d of due) this.pending.splice(this.pending.indexOf(d.event), 1);
    return due;
  }
}
