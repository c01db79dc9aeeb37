// The Click emulation as the agent meets it: parsing forms, usage errors with suggestions,
// help pages, hidden ENV commands and the schema subcommand.
import { describe, expect, it } from 'vitest';
import { CLOCK, expectFailure, json, makeWorld, usage } from './world.js';

const world = () => makeWorld([['Calendar', 'CalendarApp', { events: {} }]]);

describe('Click-like parsing', () => {
  it('accepts --opt=value, values starting with "-" and last-wins repeats', async () => {
    const w = await world();
    const r = await w.run('calendar', 'add-event', '--title=first', '--title', '-second', '--start-datetime', '2024-10-16 10:00:00', '--end-datetime=2024-10-16 11:00:00');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(w.line(r)).args.title).toBe('-second');
  });

  it('reports unknown options with Click 8.4 suggestions', async () => {
    const w = await world();
    expectFailure(await w.run('calendar', 'get-events', '--start-dat', 'x'), 2, usage('calendar', 'get-events', "No such option '--start-dat'. Did you mean '--start-date'?"));
    expectFailure(await w.run('calendar', 'add-event', '--colour', 'red'), 2, usage('calendar', 'add-event', "No such option '--colour'."));
    expectFailure(await w.run('calendar', 'add-event', '-t', 'x'), 2, usage('calendar', 'add-event', "No such option '-t'."));
  });

  it('reports unknown commands with suggestions (hidden ones included, as Click does)', async () => {
    const w = await world();
    const r = await w.run('calendar', 'get-event-by-tag');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Usage: calendar [OPTIONS] COMMAND [ARGS]...\nTry 'calendar --help' for help.\n\nError: No such command 'get-event-by-tag'. (Did you mean one of: 'get-event', 'get-events', 'get-events-by-tag'?)\n",
    );
    expectFailure(await w.run('calendar', 'zzz'), 2, "Usage: calendar [OPTIONS] COMMAND [ARGS]...\nTry 'calendar --help' for help.\n\nError: No such command 'zzz'.\n");
  });

  it('reports missing options, missing values, bad integers and extra arguments', async () => {
    const w = await world();
    expectFailure(await w.run('calendar', 'get-event'), 2, usage('calendar', 'get-event', "Missing option '--event-id'."));
    // Click raises this one without a context: no usage header.
    expectFailure(await w.run('calendar', 'add-event', '--title'), 2, "Error: Option '--title' requires an argument.\n");
    expectFailure(await w.run('calendar', 'today-events', '--help=yes'), 2, "Error: Option '--help' does not take a value.\n");
    expectFailure(
      await w.run('calendar', 'get-events', '--start-date', CLOCK, '--end-date', CLOCK, '--offset', '1.5'),
      2,
      usage('calendar', 'get-events', "Invalid value for '--offset': '1.5' is not a valid integer."),
    );
    expectFailure(await w.run('calendar', 'today-events', 'extra', 'args'), 2, usage('calendar', 'today-events', 'Got unexpected extra arguments (extra args)'));
    expectFailure(await w.run('calendar', 'today-events', '--', '--x'), 2, usage('calendar', 'today-events', 'Got unexpected extra argument (--x)'));
  });

  it('processes given options before missing ones, like Click', async () => {
    const w = await world();
    // --offset is bad and --end-date is missing: the invalid value is reported first.
    expectFailure(await w.run('calendar', 'get-events', '--offset', 'x'), 2, usage('calendar', 'get-events', "Invalid value for '--offset': 'x' is not a valid integer."));
  });

  it('prints help pages that hide ENV commands, and help for a command', async () => {
    const w = await world();
    const group = await w.run('calendar', '--help');
    expect(group.exitCode).toBe(0);
    expect(group.stdout).toContain('add-event');
    expect(group.stdout).not.toContain('add-calendar-event-by-attendee');
    const none = await w.run('calendar');
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('Commands:');
    const cmd = await w.run('calendar', 'get-events', '--help');
    expect(cmd.exitCode).toBe(0);
    expect(cmd.stdout).toMatch(/^Usage: calendar get-events \[OPTIONS\]\n/);
    expect(cmd.stdout).toContain('--start-date TEXT');
    expect(cmd.stdout).toContain('[required]');
    expect(cmd.events).toEqual([]);
  });

  it('prints the schema of visible commands without logging', async () => {
    const w = await world();
    const r = await w.run('calendar', 'schema');
    expect(r.exitCode).toBe(0);
    expect(r.events).toEqual([]);
    const schema = json(r) as Array<{ command: string; function: string; oracle_function: string; parameters: Array<{ name: string; required: boolean }> }>;
    expect(schema.map((c) => c.command)).not.toContain('add-calendar-event-by-attendee');
    const get = schema.find((c) => c.command === 'get-events')!;
    expect(get.function).toBe('get_events');
    expect(get.oracle_function).toBe('get_calendar_events_from_to');
    expect(get.parameters.map((p) => p.name)).toEqual(['start_date', 'end_date', 'offset', 'limit']);
  });

  it('get-events rejects the ARE spelling --start-datetime with Click\'s suggestion, as the reference does', async () => {
    const w = await world();
    const r = await w.run('calendar', 'get-events', '--start-datetime', '2024-10-15 00:00:00', '--end-datetime', '2024-10-16 00:00:00');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Usage: calendar get-events [OPTIONS]\nTry 'calendar get-events --help' for help.\n\nError: No such option '--start-datetime'. Did you mean '--start-date'?\n",
    );
    expect(r.events).toEqual([]);
  });

  it('rejects an unknown binary and a state dir without the app cleanly', async () => {
    const w = await world();
    const r = await w.run('nope', 'x');
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toContain("unknown app command 'nope'");
  });
});
