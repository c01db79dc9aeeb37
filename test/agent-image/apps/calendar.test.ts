import { describe, expect, it } from 'vitest';
import { NOW, expectFailure, json, makeWorld } from './world.js';

const EVENTS = {
  events: {
    e1: { event_id: 'e1', title: 'Team sync', start_datetime: 1728982800.0, end_datetime: 1728986400.0, tag: 'work', description: 'Weekly', location: 'Room 1', attendees: ['Ana Sousa'], start_strftime: 'Tuesday, 2024-10-15 09:00:00', end_strftime: 'Tuesday, 2024-10-15 10:00:00' },
    e2: { event_id: 'e2', title: 'Dinner', start_datetime: 1729101600.0, end_datetime: 1729108800.0, tag: 'personal', description: null, location: null, attendees: [] },
  },
};
const world = () => makeWorld([['Calendar', 'CalendarApp', EVENTS]]);

describe('calendar', () => {
  it('adds an event with defaulted times and logs the defaulted strings', async () => {
    const w = await world();
    const r = await w.run('calendar', 'add-event', '--attendees', 'Bob');
    expect(json(r)).toEqual({ status: 'success', event_id: w.ids[0] });
    const line = JSON.parse(w.line(r));
    expect(line.args).toEqual({ title: 'Event', start_datetime: '2024-10-15 07:00:00', end_datetime: '2024-10-15 08:00:00', tag: null, description: null, location: null, attendees: [] });
    const stored = (w.state('calendar.json') as { events: Record<string, Record<string, unknown>> }).events[w.ids[0]!]!;
    expect(stored.start_datetime).toBe(NOW);
    expect(stored.start_strftime).toBe('Tuesday, 2024-10-15 07:00:00');
  });

  it('rejects bad datetimes and reversed ranges without saving', async () => {
    const w = await world();
    expectFailure(await w.run('calendar', 'add-event', '--start-datetime', '2024-13-01 00:00:00'), 1, 'Invalid datetime format. Please use YYYY-MM-DD HH:MM:SS\n');
    expectFailure(await w.run('calendar', 'add-event', '--start-datetime', '2024-02-30 00:00:00'), 1, 'Invalid datetime format. Please use YYYY-MM-DD HH:MM:SS\n');
    expectFailure(await w.run('calendar', 'add-event', '--start-datetime', '2024-10-16 10:00:00', '--end-datetime', '2024-10-16 09:00:00'), 1, 'Start time cannot be after end time.\n');
    expectFailure(await w.run('calendar', 'get-events', '--start-date', 'x', '--end-date', 'y'), 1, 'Invalid datetime format. Please use YYYY-MM-DD HH:MM:SS\n');
    expect(Object.keys((w.state('calendar.json') as { events: object }).events)).toEqual(['e1', 'e2']);
  });

  it('accepts one-digit fields like strptime', async () => {
    const w = await world();
    const r = await w.run('calendar', 'add-event', '--start-datetime', '2024-1-5 9:05:00', '--end-datetime', '2024-01-05 10:00:00');
    expect(r.exitCode).toBe(0);
  });

  it('gets, pages and deletes events; unknown ids fail', async () => {
    const w = await world();
    expect((json(await w.run('calendar', 'get-event', '--event-id', 'e2')) as Record<string, unknown>).start_strftime).toBe('');
    expectFailure(await w.run('calendar', 'get-event', '--event-id', 'nope'), 1, 'Calendar Event with id nope does not exist.\n');
    const page = json(await w.run('calendar', 'get-events', '--start-date', '2024-10-15 00:00:00', '--end-date', '2024-10-17 00:00:00', '--offset', '1', '--limit', '5'));
    expect(page).toMatchObject({ range: [1, 2], total: 2 });
    expect(json(await w.run('calendar', 'today-events'))).toMatchObject({ range: [0, 1], total: 1 });
    const del = await w.run('calendar', 'delete-event', '--event-id', 'e1');
    expect(json(del)).toEqual({ status: 'success', message: 'Event e1 successfully deleted.' });
    expect(JSON.parse(w.line(del))).toMatchObject({ fn: 'delete_calendar_event', w: true, ret: 'Event e1 successfully deleted.' });
    expectFailure(await w.run('calendar', 'delete-event', '--event-id', 'e1'), 1, 'Calendar Event with id e1 does not exist.\n');
  });

  it('filters by tag and searches case-insensitively', async () => {
    const w = await world();
    expectFailure(await w.run('calendar', 'get-events-by-tag', '--tag', ''), 1, 'Tag cannot be empty.\n');
    expect((json(await w.run('calendar', 'get-events-by-tag', '--tag', 'WORK')) as unknown[]).length).toBe(0);
    expect(json(await w.run('calendar', 'get-all-tags'))).toEqual(['work', 'personal']);
    expect((json(await w.run('calendar', 'search-events', '--query', 'ana sou')) as Array<{ event_id: string }>).map((e) => e.event_id)).toEqual(['e1']);
  });

  it('runs the ENV attendee commands with event ids', async () => {
    const w = await world();
    const add = await w.action('Calendar', 'add_calendar_event_by_attendee', { who_add: 'Ana Sousa', title: 'Lunch', start_datetime: '2024-10-16 12:00:00', end_datetime: '2024-10-16 13:00:00', attendees: '["Noor"]' }, 'Event-ENV-1');
    expect(add.exitCode).toBe(0);
    expect(JSON.parse(w.line(add))).toMatchObject({
      fn: 'add_calendar_event_by_attendee',
      args: { who_add: 'Ana Sousa', title: 'Event created by Ana Sousa: Lunch', description: 'Event created by Ana Sousa', attendees: ['Noor', 'Ana Sousa'] },
      event_id: 'Event-ENV-1',
    });
    expectFailure(await w.action('Calendar', 'delete_calendar_event_by_attendee', { event_id: 'e2', who_delete: 'Ana Sousa' }), 1, 'Ana Sousa is not an attendee of the event.\n');
    const del = await w.action('CalendarApp', 'delete_calendar_event_by_attendee', { event_id: 'e1', who_delete: 'Ana Sousa' });
    expect(json(del)).toEqual({ status: 'success', message: 'Event e1 successfully deleted by Ana Sousa.' });
  });

  it('starts from an empty calendar when the state file is missing', async () => {
    const w = await makeWorld([['Contacts', 'ContactsApp', {}]]);
    expect(json(await w.run('calendar', 'today-events'))).toEqual({ events: [], range: [0, 0], total: 0 });
  });
});

describe('calendar with bad state', () => {
  it('names the broken entry instead of crashing', async () => {
    const w = await makeWorld([['Calendar', 'CalendarApp', { events: { e1: 'oops' } }]]);
    expectFailure(await w.run('calendar', 'today-events'), 1, 'calendar.json: events.e1 must be a JSON object\n');
  });
});
