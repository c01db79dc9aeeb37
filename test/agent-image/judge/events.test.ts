// Event lines → completed events, the reference's turn slicing, and the daemon replay's edges.
import { describe, expect, it } from 'vitest';
import { completedEventFromLine, judgeEventLog, sliceTurns, turnSlice } from '../../../agent-image/src/judge/index.js';
import type { EventLine } from '../../../agent-image/src/contract/events.js';
import { PyFloat, PyJsonText } from '../../../agent-image/src/contract/pyjson.js';
import { scenarioOf, oracleReply, userTask } from './fixtures.js';

const line = (fn: string, simT: string | undefined, extra: Partial<EventLine> = {}): EventLine => ({
  t: 1_700_000_000.5,
  app: fn === 'send_message_to_user' ? 'AgentUserInterface' : 'ContactsApp',
  fn,
  args: {},
  w: true,
  ret: null,
  ...(simT ? { sim_t: simT } : {}),
  ...extra,
});

describe('completedEventFromLine', () => {
  it('types by id prefix, times from sim_t (UTC), wall clock as fallback, generated ids', () => {
    const env = completedEventFromLine(line('update_item', '2024-10-15 07:01:00', { event_id: 'Event-ENV-1' }), 0);
    expect([env.id, env.type, env.time, env.write]).toEqual(['Event-ENV-1', 'ENV', 1728975660, true]);
    const agent = completedEventFromLine(line('delete_contact', 'bad', { w: false }), 42);
    expect([agent.id, agent.type, agent.time, agent.write]).toEqual(['AGENT-ContactsApp.delete_contact-0000002a', 'AGENT', 1_700_000_000.5, false]);
    expect(completedEventFromLine(line('x', undefined, { event_id: 'Event-USER-9' }), 1).type).toBe('USER');
  });

  it("reads a command's return value from the line's text (PyJsonText), as the file holds it", () => {
    const ev = completedEventFromLine(line('search_contacts', '2024-10-15 07:01:00', { ret: new PyJsonText('[{"id": "c1", "age": 31.0}]') }), 0);
    expect(ev.ret).toEqual([{ id: 'c1', age: new PyFloat(31) }]);
    expect(ev.ret).toBe(ev.ret);
    expect(completedEventFromLine(line('x', undefined, { ret: undefined }), 0).ret).toBeNull();
  });
});

describe('sliceTurns', () => {
  const ev = (id: string, time: number, fn = 'w', type = 'AGENT') => ({ id, time, fn, type });
  it('sorts stably by time, cuts after each reply, drops USER events', () => {
    const events = [ev('a', 5), ev('r1', 3, 'send_message_to_user'), ev('b', 3), ev('u', 1, 'x', 'USER'), ev('e', 4, 'y', 'ENV'), ev('r2', 9, 'send_message_to_user'), ev('c', 10)];
    expect(sliceTurns(events).map((t) => t.map((e) => e.id))).toEqual([['r1'], ['b', 'e', 'a', 'r2'], ['c']]);
    expect(turnSlice(events, 5)).toEqual([]);
  });
});

describe('judgeEventLog edges', () => {
  it('a log that ends before the last reply reaches no verdict', async () => {
    const s = scenarioOf([userTask('u1', 'a'), oracleReply('o1', 'x', ['u1']), userTask('u2', 'b', ['o1']), oracleReply('o2', 'y', ['u2'])]);
    const v = await judgeEventLog(s, [line('send_message_to_user', '2025-01-01 00:00:01', { args: { content: 'x' } })]);
    expect(v.turns.map((t) => t.success)).toEqual([true]);
    expect([v.success, v.status, v.error_kind]).toEqual([null, 'error', 'no_judgment']);
  });
  it('a failed intermediate turn stops: later lines are never read', async () => {
    const s = scenarioOf([
      userTask('u1', 'a'),
      { id: 'o0', fn: 'delete_contact', args: { contact_id: 'c1' }, deps: ['u1'] },
      oracleReply('o1', 'x', ['o0']),
      userTask('u2', 'b', ['o1']),
      oracleReply('o2', 'y', ['u2']),
    ]);
    const v = await judgeEventLog(s, [
      line('send_message_to_user', '2025-01-01 00:00:01', { args: { content: 'x' } }),
      line('send_message_to_user', '2025-01-01 00:00:02', { args: { content: 'y' } }),
    ]);
    expect([v.success, v.status, v.turns.length]).toEqual([false, 'stopped', 1]);
    expect(v.failure_reason).toBe("Tool count mismatch: agent={}, oracle={'ContactsApp__delete_contact': 1}");
  });
  it('a scenario without oracle actions completes without a judgment', async () => {
    const v = await judgeEventLog(scenarioOf([userTask('u1', 'a')]), [line('send_message_to_user', '2025-01-01 00:00:01')]);
    expect([v.success, v.status, v.turns]).toEqual([true, 'complete', []]);
  });
});
