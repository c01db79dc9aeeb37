// The oracle runtime: a perfect agent that replays the scenario's oracle actions inside the
// daemon process (it is trusted: it reads the scenario). Per turn, in topological order with
// ties in JSON order, each action waits for its ENV dependencies, resolves `{{id[.key]}}`
// placeholders from earlier return values, waits until its scheduled sim time (parent time +
// relative delay, the judge's reference-time rule) and runs as an agent action; the turn's
// oracle reply ends the turn (docs/daemon.md, "The oracle runtime").
import { SEND_MESSAGE_TO_USER, AUI_APP } from '../../contract/events.js';
import { pyJsonValue } from '../../contract/pyjson.js';
import type { LoadedScenario, ScenarioEventModel } from '../../scenario/index.js';
import { resolveArgs } from '../../scenario/index.js';
import { InProcessRuntime } from '../in-process-runtime.js';
import type { WorldDaemon } from '../../world/daemon.js';

/** Reply written when the last turn has no oracle reply of its own. */
export const ORACLE_DONE_TEXT = '[oracle replay complete]';

/** Delays up to this are not waited for (the judge does not time-check them either). */
const TIME_CHECK_THRESHOLD = 1;

export class OracleAgent extends InProcessRuntime {
  readonly name = 'oracle';
  /** Oracle event id → sim time its action ran (for children's reference times). */
  private readonly doneAt = new Map<string, number>();
  /** Oracle event id → return value of its action. */
  private readonly rets = new Map<string, unknown>();
  readonly errors: string[] = [];

  constructor(
    world: WorldDaemon,
    private readonly sc: LoadedScenario,
  ) {
    super(world);
  }

  protected async run(): Promise<void> {
    for (let turn = 0; turn < this.sc.nbTurns && !this.stopped; turn++) {
      await this.until(() => this.startedTurns.includes(turn));
      await this.playTurn(turn);
    }
  }

  private async playTurn(turn: number): Promise<void> {
    this.busy = true;
    const events = this.sc.oracleByTurn[turn] ?? [];
    const actions = events.filter((e) => !isReplyEvent(e));
    const replies = events.filter(isReplyEvent);
    for (const e of actions) {
      if (this.stopped) return;
      await this.prepare(e);
      const a = e.action!;
      const args = resolveArgs(a.args, (id) => this.lookup(id));
      const r = await this.world.agentAction(a.app, a.fn, args);
      this.doneAt.set(e.id, this.world.clock.now());
      if (r.exitCode !== 0) {
        this.errors.push(`${e.id} ${a.app}.${a.fn}: exit ${r.exitCode}: ${r.stderr.trim()}`);
        this.world.log.warn(`oracle: CLI failed for ${e.id} ${a.app}.${a.fn}: ${r.stderr.trim()}`);
        this.rets.set(e.id, e.id); // the reference falls back to the event id
        continue;
      }
      const own = r.events.find((l) => l.fn === a.fn) ?? r.events[r.events.length - 1];
      this.rets.set(e.id, own ? pyJsonValue(own.ret) : r.stdout.trim());
    }
    if (this.stopped) return;
    const reply = replies[replies.length - 1];
    if (reply) await this.prepare(reply);
    const last = turn === this.sc.nbTurns - 1;
    const content = reply ? String(reply.action?.args.content ?? '') : last ? ORACLE_DONE_TEXT : null;
    if (content === null) return;
    if (reply) this.doneAt.set(reply.id, this.world.clock.now());
    this.busy = false;
    this.world.agentReply(content);
  }

  /** Waits for ENV dependencies, then for the event's scheduled sim time. */
  private async prepare(e: ScenarioEventModel): Promise<void> {
    const envDeps = e.dependencies.filter((d) => this.sc.byId.get(d)?.type === 'ENV');
    await this.until(() => envDeps.every((d) => this.world.completedAt(d) !== undefined));
    const rel = e.relativeTime ?? 0;
    if (rel <= TIME_CHECK_THRESHOLD || e.dependencies.length === 0) return;
    await this.waitForSimTime(this.referenceTime(e) + rel);
  }

  /** The judge's reference time: latest AGENT parent, else latest ENV parent, else start. */
  private referenceTime(e: ScenarioEventModel): number {
    let t = this.sc.startTime;
    for (const d of e.dependencies) {
      const p = this.sc.byId.get(d);
      if (p?.type === 'AGENT') t = Math.max(t, this.doneAt.get(d) ?? t);
      else if (p?.type === 'ENV') t = Math.max(t, this.world.completedAt(d) ?? t);
    }
    return t;
  }

  private lookup(id: string): { found: true; value: unknown } | { found: false } {
    if (this.rets.has(id)) return { found: true, value: this.rets.get(id) };
    return this.world.returnValue(id);
  }
}

const isReplyEvent = (e: ScenarioEventModel): boolean =>
  e.action?.className === AUI_APP && e.action.fn === SEND_MESSAGE_TO_USER;
