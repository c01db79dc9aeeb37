// An agent runtime that plays a recorded agent event log into a live WorldDaemon: per turn,
// each recorded agent line runs as an agent action once the ENV events recorded before it have
// fired in this world and the sim clock has reached the line's sim_t; a recorded reply ends
// the turn. Ids the recording got back (from ENV events and the agent's own writes) are
// swapped for the ones this world produced, so later arguments refer to live objects.
// The action really runs (the world's state moves on as it did for the recording), but the
// line the daemon logs and judges is the recorded one (ids swapped, time of this world): a
// mutated log carries arguments our apps would normalise (a lower-case folder) or refuse (a
// code that does not exist), and it is the log that is under judgment.
import { isEnvLine, isReplyLine, SEND_MESSAGE_TO_AGENT, type EventLine } from '../../../agent-image/src/contract/events.js';
import { InProcessRuntime } from '../../../agent-image/src/agents/in-process-runtime.js';
import type { WorldDaemon } from '../../../agent-image/src/world/daemon.js';
import { parseSimTime } from '../../../agent-image/src/world/clock.js';
import { pyJsonValue } from '../../../agent-image/src/contract/pyjson.js';

interface Step {
  line: EventLine;
  /** ENV event ids recorded before this line. */
  envBefore: string[];
}

export class LogReplayAgent extends InProcessRuntime {
  readonly name = 'log-replay';
  private readonly turns: Step[][] = [[]];
  /** Recorded ENV event id → its recorded ret. */
  private readonly envRets = new Map<string, unknown>();
  /** Recorded id → live id. */
  private readonly ids = new Map<string, string>();
  /** The recorded line the next agent action logs instead of its own. */
  private pending: EventLine | null = null;
  readonly failures: string[] = [];

  constructor(
    world: WorldDaemon,
    log: readonly EventLine[],
    /** Ids the scenario itself holds: never swapped (a mutated log may return one where this world returns another). */
    private readonly scenarioIds: ReadonlySet<string> = new Set(),
  ) {
    super(world);
    const env: string[] = [];
    for (const line of log) {
      if (isEnvLine(line)) {
        env.push(line.event_id!);
        this.envRets.set(line.event_id!, line.ret);
        continue;
      }
      if (line.event_id || line.fn === SEND_MESSAGE_TO_AGENT) continue; // USER deliveries: the daemon's
      this.turns[this.turns.length - 1]!.push({ line, envBefore: [...env] });
      if (isReplyLine(line)) this.turns.push([]);
    }
    if (this.turns[this.turns.length - 1]!.length === 0) this.turns.pop();
    const apps = world.apps;
    const run = apps.action.bind(apps);
    apps.action = async (app, fn, args, ctx) => {
      const r = await run(app, fn, args, ctx);
      const rec = this.pending;
      if (!rec || ctx().eventId || rec.fn !== fn) return r; // ENV actions are the world's own
      this.pending = null;
      const own = r.events.find((l) => l.fn === fn);
      if (r.exitCode !== 0) this.failures.push(`${app}.${fn}: exit ${r.exitCode}: ${r.stderr.trim()}`);
      else if (own) this.learn(rec.ret, pyJsonValue(own.ret));
      const line = this.swap(rec) as EventLine;
      return { ...r, exitCode: 0, events: [{ ...line, t: own?.t ?? line.t, sim_t: this.world.clock.text() }] };
    };
  }

  protected async run(): Promise<void> {
    for (let k = 0; k < this.turns.length && !this.stopped; k++) {
      await this.until(() => this.startedTurns.includes(k));
      this.busy = true;
      for (const step of this.turns[k]!) {
        if (this.stopped) return;
        await this.play(step);
      }
      this.busy = false;
    }
  }

  private async play({ line, envBefore }: Step): Promise<void> {
    await this.until(() => envBefore.every((id) => this.world.completedAt(id) !== undefined));
    for (const id of envBefore) this.learn(this.envRets.get(id), this.liveEnvRet(id));
    if (line.sim_t) await this.waitForSimTime(parseSimTime(line.sim_t));
    const args = this.swap(line.args) as Record<string, unknown>;
    if (isReplyLine(line)) {
      this.busy = false;
      this.world.agentReply(String(args.content ?? ''));
      return;
    }
    this.pending = line;
    await this.world.agentAction(line.app, line.fn, args);
  }

  /** `text` with the live ids of this world written back as the recording's ids. */
  toRecorded(text: string): string {
    let out = text;
    for (const [from, to] of this.ids) out = out.split(to).join(from);
    return out;
  }

  private liveEnvRet(id: string): unknown {
    const v = this.world.returnValue(id);
    return v.found ? v.value : undefined;
  }

  /** Records recorded → live when both returns are ids created in the run (32 hex digits).
   *  Nested values are left alone: listings may come back in another order. */
  private learn(recorded: unknown, live: unknown): void {
    const id = /^[0-9a-f]{32}$/;
    if (typeof recorded !== 'string' || typeof live !== 'string' || !id.test(recorded) || !id.test(live) || recorded === live) return;
    // A new object on both sides, seen for the first time (a mutated log may repeat a return).
    if (!this.scenarioIds.has(recorded) && !this.scenarioIds.has(live) && !this.ids.has(recorded)) {
      this.ids.set(recorded, live);
    }
  }

  private swap(v: unknown): unknown {
    if (typeof v === 'string') {
      let out = v;
      for (const [from, to] of this.ids) out = out.split(from).join(to);
      return out;
    }
    if (Array.isArray(v)) return v.map((x) => this.swap(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.swap(x)]));
    return v;
  }
}
