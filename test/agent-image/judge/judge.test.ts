// The Judge on the upstream test fixtures (the reference's own test cases, and the
// suggested extra tests).
import { describe, expect, it } from 'vitest';
import { Judge } from '../../../agent-image/src/judge/index.js';
import { agent, reply, scenarioOf, userTask, oracleReply } from './fixtures.js';

const ALICE = { first_name: 'Alice', last_name: 'Smith', email: 'alice@example.com', phone: '5551234567' };

describe('preliminary count check', () => {
  const s = scenarioOf([{ id: 'o1', args: ALICE }, oracleReply('o2', 'Done!')]);
  it('matching counts pass', async () => {
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'ContactsApp', 'add_new_contact', ALICE), reply('a2', 'Done!')]);
    expect(v.success).toBe(true);
    expect(v.agent_event_id_to_oracle_event_id).toEqual({ a1: 'o1', a2: 'o2' });
    expect(v.record!.match_details!.map((m) => m.matched)).toEqual([true, true]);
  });
  it('one extra reply is allowed, two are not; extra=0 allows none', async () => {
    const only = scenarioOf([oracleReply('o1', 'x')]);
    expect((await new Judge(only).judgeTurn(0, [reply('a1', 'x'), reply('a2', 'x')])).success).toBe(true);
    const tooMany = await new Judge(only, { extraSmuAllowed: 0 }).judgeTurn(0, [reply('a1', 'x'), reply('a2', 'x')]);
    expect(tooMany.failure_reason).toBe('SMU count mismatch: agent=2, oracle=1, allowed_extra=0');
    expect(tooMany.record!.match_details).toBeNull();
    expect(tooMany.agent_event_id_to_oracle_event_id).toEqual({});
  });
  it('a duplicated write fails before matching, with Python dict reprs', async () => {
    const v = await new Judge(s).judgeTurn(0, [
      agent('a1', 'ContactsApp', 'add_new_contact', ALICE),
      agent('a2', 'ContactsApp', 'add_new_contact', ALICE),
      reply('a3', 'Done!'),
    ]);
    expect(v.failure_reason).toBe("Tool count mismatch: agent={'ContactsApp__add_new_contact': 2}, oracle={'ContactsApp__add_new_contact': 1}");
  });
  it('reads, ENV and USER events never count', async () => {
    const v = await new Judge(s).judgeTurn(0, [
      agent('r', 'ContactsApp', 'get_contacts', {}, 50, { write: false }),
      agent('Event-ENV-x', 'EmailClientV2', 'create_and_add_email', {}, 60, { type: 'ENV' }),
      agent('a1', 'ContactsApp', 'add_new_contact', ALICE),
      reply('a2', 'Done!'),
    ]);
    expect(v.success).toBe(true);
  });
});

describe('single turn', () => {
  it('simple match: phone digits, equal reply without LLM', async () => {
    const s = scenarioOf([userTask('u', 'Add Alice Smith as a contact'), { id: 'o1', args: ALICE, deps: ['u'] }, oracleReply('o2', 'Done!', ['u'])]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'ContactsApp', 'add_new_contact', { ...ALICE, phone: '(555) 123-4567' }), reply('a2', 'Done!')]);
    expect(v.success).toBe(true);
  });
  it('hard-check failure names the arg', async () => {
    const s = scenarioOf([{ id: 'o1', fn: 'delete_contact', args: { contact_id: 'c123' } }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'ContactsApp', 'delete_contact', { contact_id: 'c999' })]);
    expect(v.success).toBe(false);
    expect(v.failure_reason).toBe('Cannot match ContactsApp__delete_contact (o1): a1: eq_checker:contact_id (agent=c999, oracle=c123)');
  });
  it('a failing oracle event reports its same-tool candidates; the mapping stays partial', async () => {
    const s2 = scenarioOf([{ id: 'o1', fn: 'delete_contact', args: { contact_id: 'c1' } }, { id: 'o2', fn: 'delete_contact', args: { contact_id: 'c1' } }]);
    const v2 = await new Judge(s2).judgeTurn(0, [agent('a1', 'ContactsApp', 'delete_contact', { contact_id: 'c1' }), agent('a2', 'ContactsApp', 'delete_contact', { contact_id: 'c2' })]);
    expect(v2.failure_reason).toBe('Cannot match ContactsApp__delete_contact (o2): a2: eq_checker:contact_id (agent=c2, oracle=c1)');
    expect(v2.agent_event_id_to_oracle_event_id).toEqual({ a1: 'o1' });
  });
  it('causality: a parent must be matched to an earlier write', async () => {
    const B = { first_name: 'C', last_name: 'D', email: 'c@d.com', phone: '456' };
    const A = { first_name: 'A', last_name: 'B', email: 'a@b.com', phone: '123' };
    const s = scenarioOf([{ id: 'o1', args: A }, { id: 'o2', args: B, deps: ['o1'] }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'ContactsApp', 'add_new_contact', B), agent('a2', 'ContactsApp', 'add_new_contact', A)]);
    expect(v.success).toBe(false);
    expect(v.failure_reason).toContain('a1: causality violation (parent o1 not matched before idx 0)');
  });
  it('without an LLM, llm-judged args pass when hard args match (calendar)', async () => {
    const s = scenarioOf([{ id: 'o1', app: 'Calendar', fn: 'add_calendar_event', args: { title: 'Meeting', description: 'Team sync', start_datetime: '2024-01-15 10:00:00', end_datetime: '2024-01-15 11:00:00', attendees: ['alice'] } }]);
    const j = new Judge(s);
    expect(j.mode).toBe('hard-only');
    const v = await j.judgeTurn(0, [agent('a1', 'CalendarApp', 'add_calendar_event', { title: 'Different Title', description: 'Different desc', start_datetime: '2024-01-15 10:00:00', end_datetime: '2024-01-15 11:00:00', attendees: ['alice'] })]);
    expect(v.success).toBe(true);
  });
  it('without an LLM the placeholder scan is skipped too', async () => {
    const s = scenarioOf([{ id: 'o1', app: 'Emails', fn: 'send_email', args: { recipients: ['b@x.com'], content: 'Hi Bob, see you. Ines' } }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', { recipients: ['b@x.com'], content: 'Hello [Your Name]' })]);
    expect(v.success).toBe(true);
  });
  it('recipients are case-sensitive', async () => {
    const s = scenarioOf([{ id: 'o1', app: 'Emails', fn: 'send_email', args: { recipients: ['Bob@x.com'] } }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', { recipients: ['bob@x.com'] })]);
    expect(v.failure_reason).toBe("Cannot match EmailClientV2__send_email (o1): a1: unordered_list_checker:recipients (agent=['bob@x.com'], oracle=['Bob@x.com'])");
  });
  it('a tool in no registry matches on its name alone', async () => {
    const s = scenarioOf([{ id: 'o1', app: 'Files', fn: 'makedirs', args: { path: '/a' } }], { apps: [{ name: 'Files', class_name: 'SandboxLocalFileSystem' }] });
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'SandboxLocalFileSystem', 'makedirs', { path: '/b' })]);
    expect(v.success).toBe(true);
  });
  it('scenario app names map to class names on the agent side', async () => {
    const s = scenarioOf([{ id: 'o1', fn: 'delete_contact', args: { contact_id: 'c1' } }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'Contacts', 'delete_contact', { contact_id: 'c1' })]);
    expect(v.record!.agent_events[0]!.tool).toBe('ContactsApp__delete_contact');
    expect(v.success).toBe(true);
  });
  it('greedy first fit in topological order, no backtracking', async () => {
    const ev = (attendees: string[]) => ({ start_datetime: '2024-01-15 10:00:00', end_datetime: '2024-01-15 11:00:00', attendees });
    const o = (id: string, att: string[]) => ({ id, app: 'Calendar', fn: 'add_calendar_event', args: ev(att) });
    const agents = [agent('a1', 'CalendarApp', 'add_calendar_event', ev(['Bob'])), agent('a2', 'CalendarApp', 'add_calendar_event', ev(['Carl']))];
    expect((await new Judge(scenarioOf([o('o1', []), o('o2', ['Bob'])])).judgeTurn(0, agents)).success).toBe(false);
    expect((await new Judge(scenarioOf([o('o2', ['Bob']), o('o1', [])])).judgeTurn(0, agents)).success).toBe(true);
  });
  it('records: the oracle tool name of an event without action is NoApp__NoFunction; args stringified', async () => {
    const s = scenarioOf([{ id: 'o1', noAction: true }, { id: 'o2', app: 'Emails', fn: 'send_email', args: { recipients: ['x'], content: 'y'.repeat(100) } }]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', { recipients: ['x'], content: 'y'.repeat(100) })]);
    expect(v.record!.oracle_events.map((e) => e.tool)).toEqual(['NoApp__NoFunction', 'EmailClientV2__send_email']);
    expect(v.record!.agent_events[0]!.args).toEqual({ recipients: "['x']", content: 'y'.repeat(100) });
    expect(v.record!.agent_events[0]!.args_summary).toEqual({ recipients: ['x'], content: 'y'.repeat(80) });
  });
});

describe('turns, auto-passes and placeholders', () => {
  it('empty oracle turn and turns beyond the oracle auto-pass without a record', async () => {
    const s = scenarioOf([{ id: 'o1', fn: 'delete_contact', args: { contact_id: 'c1' } }]);
    const j = new Judge(s);
    const beyond = await j.judgeTurn(5, [agent('a1', 'ContactsApp', 'delete_contact', {})]);
    expect([beyond.success, beyond.record]).toEqual([true, null]);
    const empty = await new Judge(scenarioOf([])).judgeTurn(0, []);
    expect([empty.success, empty.record]).toEqual([true, null]);
  });
  it('multi-turn id remapping: {{o1}} resolves to the matched agent return value', async () => {
    const s = scenarioOf([
      userTask('u1', 'Add Bob'),
      { id: 'o1', args: { first_name: 'Bob', last_name: 'Jones', email: 'bob@test.com', phone: '1234567890' }, deps: ['u1'] },
      oracleReply('o2', 'Added', ['o1']),
      userTask('u2', 'Update Bob', ['o2']),
      { id: 'o3', fn: 'edit_contact', args: { contact_id: '{{o1}}', updates: 'new email' }, deps: ['u2'] },
      oracleReply('o4', 'Updated', ['o3']),
    ]);
    expect(s.nbTurns).toBe(2);
    const j = new Judge(s);
    const t0 = await j.judgeTurn(0, [
      agent('a1', 'ContactsApp', 'add_new_contact', { first_name: 'Bob', last_name: 'Jones', email: 'bob@test.com', phone: '1234567890' }, 100, { ret: 'contact_abc' }),
      reply('a2', 'Added'),
    ]);
    expect(t0.success).toBe(true);
    const t1 = await j.judgeTurn(1, [agent('a3', 'ContactsApp', 'edit_contact', { contact_id: 'contact_abc', updates: 'x' }), reply('a4', 'Updated')]);
    expect(t1.success).toBe(true);
    expect(t1.agent_event_id_to_oracle_event_id).toEqual({ a1: 'o1', a2: 'o2', a3: 'o3', a4: 'o4' });
    expect(t1.record!.oracle_events[0]!.args).toEqual({ contact_id: 'contact_abc', updates: 'new email' });
  });
  it('{{id.key}} from an ENV return value; unknown ids stay literal and fail eq', async () => {
    const s = scenarioOf([
      { id: 'Event-ENV-1', type: 'ENV', app: 'Contacts', fn: 'x' },
      { id: 'o1', fn: 'delete_contact', args: { contact_id: '{{Event-ENV-1.id}}' }, deps: ['Event-ENV-1'] },
      { id: 'o2', fn: 'delete_contact', args: { contact_id: '{{unknown_id}}' } },
    ]);
    const j = new Judge(s);
    j.envReturnValues.set('Event-ENV-1', { id: 'nested_val' });
    const v = await j.judgeTurn(0, [agent('a1', 'ContactsApp', 'delete_contact', { contact_id: 'nested_val' }), agent('a2', 'ContactsApp', 'delete_contact', { contact_id: 'x' })]);
    expect(v.record!.match_details!.map((m) => m.matched)).toEqual([true, false]);
    expect(v.failure_reason).toBe('Cannot match ContactsApp__delete_contact (o2): a2: eq_checker:contact_id (agent=x, oracle={{unknown_id}})');
  });
});

describe('time checks', () => {
  const chain = (t2: number, opts = {}) => {
    const s = scenarioOf([
      { id: 'o1', app: 'Emails', fn: 'send_email', rt: 1 },
      { id: 'o2', app: 'Calendar', fn: 'add_calendar_event', rt: 60, deps: ['o1'] },
    ]);
    return new Judge(s, opts).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', {}, 5), agent('a2', 'Calendar', 'add_calendar_event', {}, t2)]);
  };
  it('window [rt-10, rt+25] from the matched parent, both ends inclusive', async () => {
    expect((await chain(70)).success).toBe(true);
    expect((await chain(55)).success).toBe(true); // 50
    expect((await chain(90)).success).toBe(true); // 85
    expect((await chain(54)).success).toBe(false);
    const late = await chain(205);
    expect(late.failure_reason).toBe('Cannot match CalendarApp__add_calendar_event (o2): a2: time check failed (agent_relative=200s, oracle_relative=60s)');
  });
  it('warn-only accepts a late action', async () => {
    expect((await chain(500, { timeCheckWarnOnly: true })).success).toBe(true);
  });
  it('no relative time, rt = threshold, or no dependencies: never checked', async () => {
    const one = (rt: number | null, deps: string[] = ['u']) =>
      new Judge(scenarioOf([userTask('u', 't'), { id: 'o1', fn: 'delete_contact', rt, deps }], { start: 0 })).judgeTurn(0, [agent('a1', 'ContactsApp', 'delete_contact', {}, 999)]);
    expect((await one(null)).success).toBe(true);
    expect((await one(1)).success).toBe(true);
    expect((await one(60, [])).success).toBe(true);
    expect((await one(60)).success).toBe(false);
  });
  it('ENV parent seen in the slice is the reference', async () => {
    const s = scenarioOf([{ id: 'Event-ENV-abc', type: 'ENV', app: 'Emails', fn: 'create_and_add_email' }, { id: 'o1', app: 'Calendar', fn: 'add_calendar_event', rt: 30, deps: ['Event-ENV-abc'] }]);
    const env = agent('Event-ENV-abc', 'EmailClientV2', 'create_and_add_email', {}, 100, { type: 'ENV' });
    expect((await new Judge(s).judgeTurn(0, [env, agent('a1', 'Calendar', 'add_calendar_event', {}, 135)])).success).toBe(true);
    const late = await new Judge(s).judgeTurn(0, [env, agent('a1', 'Calendar', 'add_calendar_event', {}, 200)]);
    expect(late.failure_reason).toContain('time check failed (agent_relative=100s, oracle_relative=30s)');
  });
  it('USER parent → scenario start', async () => {
    const s = scenarioOf([userTask('Event-USER-abc', 't'), { id: 'o1', app: 'Calendar', fn: 'add_calendar_event', rt: 60, deps: ['Event-USER-abc'] }], { start: 1000 });
    expect((await new Judge(s).judgeTurn(0, [agent('a1', 'Calendar', 'add_calendar_event', {}, 1070)])).success).toBe(true);
    expect((await new Judge(s).judgeTurn(0, [agent('a1', 'Calendar', 'add_calendar_event', {}, 1200)])).success).toBe(false);
  });
  it('mixed AGENT + unobserved ENV parent: the AGENT parent time counts', async () => {
    const s = scenarioOf([
      { id: 'Event-ENV-abc', type: 'ENV', app: 'Emails', fn: 'create_and_add_email' },
      { id: 'o1', app: 'Emails', fn: 'send_email', rt: 1 },
      { id: 'o2', app: 'Calendar', fn: 'add_calendar_event', rt: 30, deps: ['Event-ENV-abc', 'o1'] },
    ]);
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', {}, 5), agent('a2', 'Calendar', 'add_calendar_event', {}, 40)]);
    expect(v.success).toBe(true);
  });
  it('the latest of AGENT and ENV parents is the reference', async () => {
    const s = scenarioOf([
      { id: 'Event-ENV-abc', type: 'ENV', app: 'Emails', fn: 'create_and_add_email' },
      { id: 'o1', app: 'Emails', fn: 'send_email', rt: 1 },
      { id: 'o2', app: 'Calendar', fn: 'add_calendar_event', rt: 30, deps: ['Event-ENV-abc', 'o1'] },
    ]);
    const env = agent('Event-ENV-abc', 'EmailClientV2', 'create_and_add_email', {}, 50, { type: 'ENV' });
    const v = await new Judge(s).judgeTurn(0, [agent('a1', 'EmailClientV2', 'send_email', {}, 5), env, agent('a2', 'Calendar', 'add_calendar_event', {}, 40)]);
    expect(v.failure_reason).toContain('agent_relative=-10s');
  });
  it('a timed event in a later turn with a USER parent is measured from the scenario start', async () => {
    const s = scenarioOf([
      userTask('u1', 'first'),
      oracleReply('o1', 'ok', ['u1']),
      userTask('u2', 'second', ['o1']),
      { id: 'o2', app: 'Calendar', fn: 'add_calendar_event', rt: 60, deps: ['u2'] },
    ]);
    const j = new Judge(s);
    expect((await j.judgeTurn(0, [reply('a1', 'ok', 10)])).success).toBe(true);
    const v = await j.judgeTurn(1, [agent('a2', 'Calendar', 'add_calendar_event', {}, 1000)]);
    expect(v.failure_reason).toContain('agent_relative=1000s');
  });
});
