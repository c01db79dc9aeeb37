// Completed events as the judge sees them, built from events.jsonl lines, and the turn
// slicing the reference daemon applies before judging (docs/judge.md, "Inputs"; docs/daemon.md, "Turns").
import { isEnvEventId, SEND_MESSAGE_TO_USER, USER_EVENT_PREFIX, type EventLine } from '../contract/events.js';
import { parsePyDatetime } from './normalize.js';
import { pyJsonValue } from '../contract/pyjson.js';

export interface CompletedEvent {
  /** The line's event_id, or a generated `AGENT-<app>.<fn>-<8 hex>`. */
  id: string;
  /** ENV for `Event-ENV-` ids, USER for `Event-USER-`, AGENT otherwise. */
  type: 'AGENT' | 'ENV' | 'USER';
  /** Simulated UTC epoch seconds (sim_t), the wall clock `t` when sim_t is missing or bad. */
  time: number;
  /** As logged (the scenario class name); the judge maps scenario app names to classes. */
  app: string;
  fn: string;
  args: Record<string, unknown>;
  write: boolean;
  ret: unknown;
}

export function eventTypeOf(id: string | undefined): CompletedEvent['type'] {
  if (isEnvEventId(id)) return 'ENV';
  if (id?.startsWith(USER_EVENT_PREFIX)) return 'USER';
  return 'AGENT';
}

/** sim_t ("YYYY-MM-DD HH:MM:SS", UTC) → epoch seconds, or null when absent or unparseable. */
export function simTimeSeconds(simT: unknown): number | null {
  if (typeof simT !== 'string') return null;
  try {
    return parsePyDatetime(simT);
  } catch {
    return null;
  }
}

/** Deterministic stand-in for the reference's random 8-hex id suffix. */
export const agentEventId = (app: string, fn: string, seq: number): string =>
  `AGENT-${app}.${fn}-${(seq >>> 0).toString(16).padStart(8, '0')}`;

/** One events.jsonl line → completed event; `seq` makes generated ids unique. */
export function completedEventFromLine(line: EventLine, seq: number): CompletedEvent {
  const time = simTimeSeconds(line.sim_t) ?? (typeof line.t === 'number' ? line.t : Number(line.t) || 0);
  const id = typeof line.event_id === 'string' && line.event_id ? line.event_id : agentEventId(line.app, line.fn, seq);
  return {
    id,
    type: eventTypeOf(line.event_id),
    time,
    app: line.app,
    fn: line.fn,
    args: line.args && typeof line.args === 'object' ? line.args : {},
    write: !!line.w,
    // A command's line holds its return value as text: parsed only if the judge reads it
    // (placeholders of oracle actions), and then once.
    get ret() {
      return pyJsonValue(line.ret) ?? null;
    },
  };
}

/**
 * The reference's turn split: AGENT and ENV events (USER excluded), stably sorted by time
 * (ties keep arrival order), cut after every event whose function is send_message_to_user.
 * Slice k is turn k; events after the last reply form a final slice that is never judged.
 * Callers pass events in arrival order and leave out shadow copies registered for id remapping.
 */
export function sliceTurns<T extends { type: string; time: number; fn: string }>(events: readonly T[]): T[][] {
  const sorted = events
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.type === 'AGENT' || e.type === 'ENV')
    .sort((x, y) => x.e.time - y.e.time || x.i - y.i)
    .map(({ e }) => e);
  const turns: T[][] = [[]];
  for (const e of sorted) {
    turns[turns.length - 1]!.push(e);
    if (e.fn === SEND_MESSAGE_TO_USER) turns.push([]);
  }
  return turns;
}

/** Slice `turn` of sliceTurns, or [] past the end. */
export const turnSlice = <T extends { type: string; time: number; fn: string }>(events: readonly T[], turn: number): T[] =>
  sliceTurns(events)[turn] ?? [];
