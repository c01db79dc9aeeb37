// calendar.json: {"events": {<id>: CalendarEvent}}. Stored events are returned as stored,
// reshaped to the reference's ten keys in a fixed order.
import { num, pyFloat } from '../../contract/pyjson.js';
import { AppError, fail } from '../framework/errors.js';
import { formatDateTime, formatWeekdayDateTime, parseDateTime } from '../framework/time.js';
import type { AppContext } from '../framework/types.js';
import { viewOf } from '../framework/state-views.js';

export type CalendarEvent = Record<string, unknown>;
export interface CalendarState extends Record<string, unknown> {
  events: Record<string, CalendarEvent>;
}

export function loadCalendar(ctx: AppContext): CalendarState {
  const state = ctx.loadState() ?? {};
  if (!state.events || typeof state.events !== 'object' || Array.isArray(state.events)) state.events = {};
  // Checked once per stored events object (commands only ever store objects in it).
  viewOf(state.events as object, 'checked', () => {
    for (const [id, e] of Object.entries(state.events as object)) {
      if (!e || typeof e !== 'object' || Array.isArray(e)) throw new AppError(`calendar.json: events.${id} must be a JSON object`);
    }
    return true;
  });
  return state as CalendarState;
}

const orDefault = (e: CalendarEvent, k: string, d: unknown): unknown => (k in e ? e[k] : d);

/** The event as the reference prints it: ten keys, defaults for missing ones. */
export function eventView(e: CalendarEvent): CalendarEvent {
  return {
    event_id: orDefault(e, 'event_id', ''),
    title: orDefault(e, 'title', ''),
    start_datetime: orDefault(e, 'start_datetime', pyFloat(0)),
    end_datetime: orDefault(e, 'end_datetime', pyFloat(0)),
    tag: orDefault(e, 'tag', null),
    description: orDefault(e, 'description', null),
    location: orDefault(e, 'location', null),
    attendees: orDefault(e, 'attendees', []),
    start_strftime: orDefault(e, 'start_strftime', ''),
    end_strftime: orDefault(e, 'end_strftime', ''),
  };
}

export function getEvent(state: CalendarState, id: string): CalendarEvent {
  const e = Object.prototype.hasOwnProperty.call(state.events, id) ? state.events[id] : undefined;
  if (!e || typeof e !== 'object') return fail(`Calendar Event with id ${id} does not exist.`);
  return e;
}

export function parseWhen(s: string): number {
  const p = parseDateTime(s);
  if (!p.ok) return fail('Invalid datetime format. Please use YYYY-MM-DD HH:MM:SS');
  return p.epoch;
}

/** Start/end strings (defaulted from now) parsed and checked like the reference. */
export function timeRange(ctx: AppContext, start: unknown, end: unknown): { start: string; end: string; s: number; e: number } {
  const startStr = typeof start === 'string' ? start : formatDateTime(ctx.now);
  const endStr = typeof end === 'string' ? end : formatDateTime(ctx.now + 3600);
  const s = parseWhen(startStr);
  const e = parseWhen(endStr);
  if (s > e) fail('Start time cannot be after end time.');
  return { start: startStr, end: endStr, s, e };
}

/** Half-open overlap: events merely touching the range are excluded. */
export const overlaps = (e: CalendarEvent, from: number, to: number): boolean =>
  num(e.start_datetime) < to && num(e.end_datetime) > from;

export function newEvent(id: string, fields: Omit<CalendarEvent, 'event_id'>, s: number, e: number): CalendarEvent {
  return {
    event_id: id,
    title: fields.title,
    start_datetime: pyFloat(s),
    end_datetime: pyFloat(e),
    tag: fields.tag,
    description: fields.description,
    location: fields.location,
    attendees: fields.attendees,
    start_strftime: formatWeekdayDateTime(s),
    end_strftime: formatWeekdayDateTime(e),
  };
}

/** --attendees: JSON text; anything unparsable silently becomes [] (reference behaviour). */
export function parseAttendees(raw: unknown, parse: (t: string) => unknown): unknown {
  if (typeof raw !== 'string') return [];
  try {
    return parse(raw);
  } catch {
    return [];
  }
}
