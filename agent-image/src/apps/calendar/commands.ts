// calendar commands (docs/apps.md).
import { pySetOrder } from '../framework/py-set.js';
import { parsePyJson } from '../../contract/pyjson.js';
import { pyContains, pySlice, pyTypeName } from '../framework/py-builtins.js';
import { fail } from '../framework/errors.js';
import { intOpt, opt } from '../framework/options.js';
import type { AppContext, AppDef, CommandDef, OptionDef } from '../framework/types.js';
import {
  eventView,
  getEvent,
  loadCalendar,
  newEvent,
  overlaps,
  parseAttendees,
  timeRange,
  type CalendarEvent,
} from './state.js';

const text = opt;
const int = (name: string, dflt: number, help: string): OptionDef => intOpt(name, dflt, help);

const EVENT_OPTIONS: OptionDef[] = [
  text('title', 'Title of the event.', { default: 'Event' }),
  text('start_datetime', 'Start, YYYY-MM-DD HH:MM:SS (default: now).'),
  text('end_datetime', 'End, YYYY-MM-DD HH:MM:SS (default: one hour from now).'),
  text('tag', 'Tag of the event.'),
  text('description', 'Description of the event.'),
  text('location', 'Location of the event.'),
  text('attendees', 'JSON list of attendee full names.'),
];

/** Shared by add-event and the ENV add-calendar-event-by-attendee. */
function addEvent(o: Record<string, unknown>, ctx: AppContext, who?: string) {
  const state = loadCalendar(ctx);
  let attendees = parseAttendees(o.attendees, parsePyJson);
  let { title, description } = o;
  const r = timeRange(ctx, o.start_datetime, o.end_datetime);
  if (who !== undefined) {
    if (!pyContains(attendees, who)) {
      if (!Array.isArray(attendees)) fail(`'${pyTypeName(attendees)}' object has no attribute 'append'`);
      attendees = [...(attendees as unknown[]), who];
    }
    title = `Event created by ${who}: ${String(title)}`;
    description = description ? `Event created by ${who}: ${String(description)}` : `Event created by ${who}`;
  }
  const id = ctx.newId();
  const fields = { title, tag: o.tag, description, location: o.location, attendees };
  state.events[id] = newEvent(id, fields, r.s, r.e);
  ctx.saveState(state);
  const args = { title, start_datetime: r.start, end_datetime: r.end, tag: o.tag, description, location: o.location, attendees };
  return { output: { status: 'success', event_id: id }, args: who === undefined ? args : { who_add: who, ...args }, ret: id };
}

const page = (events: CalendarEvent[], offset: number, limit: number) => ({
  events: pySlice(events, offset, offset + limit),
  range: [offset, Math.min(offset + limit, events.length)],
  total: events.length,
});

const EVENT_ID = text('event_id', 'Id of the event.', { required: true });

const commands: CommandDef[] = [
  {
    name: 'add-event',
    fn: 'add_calendar_event',
    write: true,
    help: 'Add a calendar event.',
    options: EVENT_OPTIONS,
    run: (o, ctx) => addEvent(o, ctx),
  },
  {
    name: 'get-event',
    fn: 'get_calendar_event',
    write: false,
    help: 'Get a calendar event by its id.',
    options: [EVENT_ID],
    run: (o, ctx) => {
      const e = eventView(getEvent(loadCalendar(ctx), String(o.event_id)));
      return { output: e, args: { event_id: o.event_id }, ret: e };
    },
  },
  {
    name: 'delete-event',
    fn: 'delete_calendar_event',
    write: true,
    help: 'Delete a calendar event by its id.',
    options: [EVENT_ID],
    run: (o, ctx) => {
      const state = loadCalendar(ctx);
      const id = String(o.event_id);
      getEvent(state, id);
      delete state.events[id];
      ctx.saveState(state);
      const message = `Event ${id} successfully deleted.`;
      return { output: { status: 'success', message }, args: { event_id: id }, ret: message };
    },
  },
  {
    name: 'get-events',
    fn: 'get_calendar_events_from_to',
    write: false,
    help: 'Get the calendar events that overlap a time range, paginated.',
    options: [
      text('start_datetime', 'Range start, YYYY-MM-DD HH:MM:SS.', { flags: ['--start-date'], dest: 'start_date', required: true }),
      text('end_datetime', 'Range end, YYYY-MM-DD HH:MM:SS.', { flags: ['--end-date'], dest: 'end_date', required: true }),
      int('offset', 0, 'Index of the first event to return.'),
      int('limit', 10, 'Maximum number of events to return.'),
    ],
    run: (o, ctx) => {
      const state = loadCalendar(ctx);
      const r = timeRange(ctx, o.start_datetime, o.end_datetime);
      const hits = Object.values(state.events).filter((e) => overlaps(e, r.s, r.e)).map(eventView);
      const out = page(hits, o.offset as number, o.limit as number);
      const args = { start_datetime: o.start_datetime, end_datetime: o.end_datetime, offset: o.offset, limit: o.limit };
      return { output: out, args, ret: out };
    },
  },
  {
    name: 'today-events',
    fn: 'read_today_calendar_events',
    write: false,
    help: "Get today's calendar events.",
    options: [],
    run: (_o, ctx) => {
      const from = Math.floor(ctx.now / 86400) * 86400;
      const hits = Object.values(loadCalendar(ctx).events).filter((e) => overlaps(e, from, from + 86400)).map(eventView);
      const out = { events: hits, range: [0, hits.length], total: hits.length };
      return { output: out, args: {}, ret: out };
    },
  },
  {
    name: 'get-all-tags',
    fn: 'get_all_tags',
    write: false,
    help: 'Get all tags used by calendar events.',
    options: [],
    run: (_o, ctx) => {
      // The reference lists a Python set of the truthy tags: its order, not first use.
      const tags = pySetOrder(Object.values(loadCalendar(ctx).events).map((e) => e.tag).filter((t): t is string => typeof t === 'string' && t !== ''));
      return { output: tags, args: {}, ret: tags };
    },
  },
  {
    name: 'get-events-by-tag',
    fn: 'get_calendar_events_by_tag',
    write: false,
    help: 'Get the calendar events with a given tag.',
    options: [text('tag', 'Tag to look for (exact, case-sensitive).', { required: true })],
    run: (o, ctx) => {
      if (o.tag === '') fail('Tag cannot be empty.');
      const hits = Object.values(loadCalendar(ctx).events).filter((e) => e.tag === o.tag).map(eventView);
      return { output: hits, args: { tag: o.tag }, ret: hits };
    },
  },
  {
    name: 'search-events',
    fn: 'search_events',
    write: false,
    help: 'Search calendar events by title, description, location or attendee (case-insensitive).',
    options: [text('query', 'Text to search for.', { required: true })],
    run: (o, ctx) => {
      const q = String(o.query).toLowerCase();
      const has = (v: unknown): boolean => typeof v === 'string' && v.toLowerCase().includes(q);
      const hits = Object.values(loadCalendar(ctx).events)
        .filter((e) => has(e.title) || has(e.description) || has(e.location) || (Array.isArray(e.attendees) && e.attendees.some(has)))
        .map(eventView);
      return { output: hits, args: { query: o.query }, ret: hits };
    },
  },
  {
    name: 'add-calendar-event-by-attendee',
    fn: 'add_calendar_event_by_attendee',
    write: true,
    hidden: true,
    help: 'ENV: an attendee adds an event to the user calendar.',
    options: [text('who_add', 'Name of the attendee adding the event.', { required: true }), ...EVENT_OPTIONS],
    run: (o, ctx) => addEvent(o, ctx, String(o.who_add)),
  },
  {
    name: 'delete-calendar-event-by-attendee',
    fn: 'delete_calendar_event_by_attendee',
    write: true,
    hidden: true,
    help: 'ENV: an attendee deletes an event from the user calendar.',
    options: [EVENT_ID, text('who_delete', 'Name of the attendee deleting the event.', { required: true })],
    run: (o, ctx) => {
      const state = loadCalendar(ctx);
      const id = String(o.event_id);
      const who = String(o.who_delete);
      const e = getEvent(state, id);
      if (!Array.isArray(e.attendees) || !e.attendees.includes(who)) fail(`${who} is not an attendee of the event.`);
      delete state.events[id];
      ctx.saveState(state);
      const message = `Event ${id} successfully deleted by ${who}.`;
      return { output: { status: 'success', message }, args: { event_id: id, who_delete: who }, ret: message };
    },
  },
];

export const calendarApp: AppDef = {
  cli: 'calendar',
  stateName: 'Calendar',
  help: 'Calendar: add, find and delete calendar events.',
  commands,
};
