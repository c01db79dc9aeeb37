// Stuck loops ([run].stuck_loop_min_tool_calls; docs/runner.md, "Stuck loops"): an agent that
// makes the same tool call N times in a row and gets the same answer each time is making no
// progress, and its run ends as a judged failure. The rule reads the world's action log
// (events.jsonl), the one place where every agent kind's tool calls arrive: our runtimes'
// function and shell tools and a third-party program's shell commands all reach the apps through
// the world daemon, which writes one line per call with its arguments and its result.
import { AUI_APP, isEnvLine, SEND_MESSAGE_TO_AGENT, type EventLine } from '@gaia2/contract';

/** result.json `stuck_loop`: the repeated call and how often it was made in a row. */
export interface StuckLoopRecord {
  /** The ARE tool name, `<App>__<function>` (as the judge's reasons name tools). */
  tool: string;
  args: Record<string, unknown>;
  /** Calls in the streak, as far as the collected log goes (≥ min_tool_calls). */
  count: number;
  /** The threshold that was reached. */
  min_tool_calls: number;
  /** 1-based line of events.jsonl where the streak reached the threshold. */
  line: number;
  /** Simulated time of that line, when the log has it. */
  sim_time?: string;
}

/** JSON with object keys sorted at every depth: two calls are the same whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Feeds on events.jsonl lines in order and reports the first streak of `minToolCalls` identical
 * calls with identical results. ENV lines (the scenario's own events) are skipped: the world may
 * change around the agent, and if the repeated call still answers the same the agent learned
 * nothing. A message delivered to the agent (a user turn, a notification) breaks the streak: it
 * is new input, and asking again after it is not a loop.
 */
export class StuckLoopDetector {
  private key = '';
  private streak = 0;
  private lineNo = 0;
  /** The line where the current streak began, and where the reported one began. */
  private streakStart = 0;
  private foundStart = 0;
  private found: StuckLoopRecord | null = null;

  constructor(readonly minToolCalls: number) {
    if (!Number.isInteger(minToolCalls) || minToolCalls < 2) throw new Error(`stuck loop threshold must be an integer >= 2 (got ${minToolCalls})`);
  }

  /** The loop found so far (its count keeps growing while that streak goes on). */
  get loop(): StuckLoopRecord | null {
    return this.found;
  }

  /** One line of the log: parsed, or null for a line that is not JSON (it still counts as a line). */
  feed(e: EventLine | null): StuckLoopRecord | null {
    this.lineNo++;
    if (!e || typeof e !== 'object' || isEnvLine(e)) return this.found;
    if (e.app === AUI_APP && e.fn === SEND_MESSAGE_TO_AGENT) {
      this.key = '';
      this.streak = 0;
      return this.found;
    }
    const key = `${e.app}__${e.fn}\u0000${canonicalJson(e.args ?? {})}\u0000${canonicalJson(e.ret ?? null)}`;
    if (key === this.key) this.streak++;
    else {
      this.key = key;
      this.streak = 1;
      this.streakStart = this.lineNo;
    }
    if (this.found) {
      if (this.streakStart === this.foundStart) this.found.count = this.streak;
    } else if (this.streak >= this.minToolCalls) {
      this.foundStart = this.streakStart;
      this.found = {
        tool: `${e.app}__${e.fn}`,
        args: (e.args ?? {}) as Record<string, unknown>,
        count: this.streak,
        min_tool_calls: this.minToolCalls,
        line: this.lineNo,
        ...(typeof e.sim_t === 'string' ? { sim_time: e.sim_t } : {}),
      };
    }
    return this.found;
  }
}

/**
 * Reads a chunk of events.jsonl into the detector: only complete lines (a torn last line is left
 * for the next chunk). Returns how many bytes were consumed.
 */
export function feedEventsChunk(d: StuckLoopDetector, chunk: Buffer): number {
  const end = chunk.lastIndexOf(0x0a);
  if (end < 0) return 0;
  for (const raw of chunk.subarray(0, end).toString('utf8').split('\n')) {
    let e: EventLine | null = null;
    try {
      if (raw.trim()) e = JSON.parse(raw) as EventLine;
    } catch {
      // not JSON: a line that breaks no streak and makes none (still counted, for `line`)
    }
    d.feed(e);
  }
  return end + 1;
}

/** The first stuck loop of a whole events.jsonl, or null (also when the rule is off: 0). */
export function findStuckLoop(events: Buffer | undefined, minToolCalls: number): StuckLoopRecord | null {
  if (!events || minToolCalls < 2) return null;
  const d = new StuckLoopDetector(minToolCalls);
  feedEventsChunk(d, events);
  return d.loop;
}

/** The sentence result.json's failure_reasons and the viewer give. */
export function stuckLoopReason(l: StuckLoopRecord): string {
  const args = canonicalJson(l.args);
  return `Stuck loop: the agent called ${l.tool} ${l.count} times in a row with the same arguments (${args.length > 300 ? `${args.slice(0, 300)}…` : args}) and got the same result each time (stuck_loop_min_tool_calls = ${l.min_tool_calls})`;
}
