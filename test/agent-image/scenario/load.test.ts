import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, loadScenarioText } from '../../../agent-image/src/scenario/index.js';
import { ScenarioError } from '../../../agent-image/src/contract/scenario.js';

const GOLDEN = join(import.meta.dirname, '../../fixtures/golden/scenarios');

function golden(split: string, id: string) {
  return loadScenarioText(readFileSync(join(GOLDEN, split, `${id}.json`), 'utf8'), `${id}.json`);
}

const ev = (id: string, type: string, deps: string[] = [], action?: object, rel: number | null = null) => ({
  event_id: id,
  event_type: type,
  event_time: null,
  event_relative_time: rel,
  dependencies: deps,
  action: action ?? null,
});
const reply = (content = 'ok') => ({
  app: 'AgentUserInterface',
  function: 'send_message_to_user',
  args: [{ name: 'content', value: content, value_type: 'str' }],
});
const ask = (content: string) => ({
  app: 'AgentUserInterface',
  function: 'send_message_to_agent',
  args: [{ name: 'content', value: content, value_type: 'str' }],
});
const act = (app: string, fn: string, args: object[] = []) => ({ app, function: fn, args });

describe('loadScenario on the golden scenarios', () => {
  it('loads every golden scenario with its turn count and first task', () => {
    let n = 0;
    for (const split of readdirSync(GOLDEN)) {
      for (const f of readdirSync(join(GOLDEN, split))) {
        const s = golden(split, f.replace(/\.json$/, ''));
        expect(s.id).toBe(f.replace(/\.json$/, ''));
        expect(s.startTime).toBe(1760000400);
        expect(typeof s.task).toBe('string');
        expect(s.oracleByTurn).toHaveLength(s.nbTurns);
        expect(s.unknownEventTypes).toEqual([]);
        n++;
      }
    }
    expect(n).toBe(12);
  });

  it('two-turn scenario: oracle per turn, boundary releasing the next user message', () => {
    const s = golden('execution', 'exec_messages_hike_group');
    expect(s.nbTurns).toBe(2);
    expect(s.oracleByTurn.map((t) => t.map((e) => e.action!.toolName))).toEqual([
      ['MessagingAppV2__create_group_conversation', 'MessagingAppV2__send_message_to_group_conversation', 'AgentUserInterface__send_message_to_user'],
      ['MessagingAppV2__add_participant_to_conversation', 'AgentUserInterface__send_message_to_user'],
    ]);
    expect(s.turnBoundaries).toHaveLength(1);
    const b = s.turnBoundaries[0]!;
    expect(b.endOfTurnOracleId).toBe(s.oracleByTurn[0]![2]!.id);
    expect(b.successorIds.map((id) => s.byId.get(id)!.type)).toEqual(['USER']);
    expect(s.tasksByTurn[1]!.endsWith('\n')).toBe(true);
    expect(s.tasksByTurn[0]!.startsWith(s.task!)).toBe(true);
  });

  it('types arguments: int, float, Optional[str] null, and keeps placeholders raw', () => {
    const s = golden('time', 'time_shopping_price_drop');
    const [add, checkout] = s.oracleByTurn[0]!;
    expect(add!.action!.args).toEqual({ item_id: '{{Event-ENV-f3803a4d-cbaf-5107-bada-dc694c4bdd8f}}', quantity: 1 });
    expect(checkout!.action!.args).toEqual({ discount_code: null });
    expect(s.envEvents[0]!.action!.args['new_price']).toBe(89);
    expect(add!.relativeTime).toBe(3);
    expect(s.userDetails).toBeNull();
  });

  it('reads the user contact from the contacts app state', () => {
    const s = golden('time', 'time_calendar_boat_trip');
    expect(s.userDetails).toEqual({ first_name: 'Ines', last_name: 'Varga', address: 'Kertesz utca 14, 1073 Budapest' });
    expect(s.appNameToClass['Emails']).toBe('EmailClientV2');
  });
});

describe('loadScenario turn model', () => {
  it('a dependency on an oracle reply starts a new turn; graphs keep same-turn AGENT parents only', () => {
    const s = loadScenario({
      apps: [{ name: 'Contacts', class_name: 'ContactsApp' }],
      events: [
        ev('u1', 'USER', [], ask('first')),
        ev('a1', 'AGENT', ['u1'], act('Contacts', 'add_new_contact')),
        ev('r1', 'AGENT', ['a1'], reply()),
        ev('u2', 'USER', ['r1'], ask('second')),
        ev('e1', 'ENV', ['r1'], act('Contacts', 'x'), 5),
        ev('a2', 'AGENT', ['u2', 'a1'], act('Contacts', 'delete_contact')),
        ev('r2', 'AGENT', ['a2'], reply()),
      ],
    });
    expect(s.nbTurns).toBe(2);
    expect(s.events.map((e) => e.turn)).toEqual([0, 0, 0, 1, 1, 1, 1]);
    expect(s.oracleGraphByTurn[0]).toEqual({ a1: [], r1: ['a1'] });
    expect(s.oracleGraphByTurn[1]).toEqual({ a2: [], r2: ['a2'] });
    expect(s.oracleByTurn[0]![0]!.action!.toolName).toBe('ContactsApp__add_new_contact');
    expect(s.tasksByTurn).toEqual(['first\n', 'second\n']);
    expect(s.turnBoundaries).toEqual([{ turn: 1, endOfTurnOracleId: 'r1', successorIds: ['u2', 'e1'] }]);
    expect(s.oracleByTurn[1]![0]!.dependencies).toEqual(['u2', 'a1']);
  });

  it('topological order puts independent events in JSON order and parents first', () => {
    const s = loadScenario({
      events: [
        ev('c', 'AGENT', ['b'], act('X', 'c')),
        ev('a', 'AGENT', [], act('X', 'a')),
        ev('b', 'AGENT', [], act('X', 'b')),
        ev('d', 'AGENT', [], act('X', 'd')),
      ],
    });
    expect(s.oracleByTurn[0]!.map((e) => e.id)).toEqual(['a', 'b', 'd', 'c']);
    expect(s.oracleByTurn[0]!.map((e) => e.action!.toolName)).toEqual(['X__a', 'X__b', 'X__d', 'X__c']);
  });

  it('unreached events get no turn; unknown event types are reported; empty scenario has one turn', () => {
    const s = loadScenario({
      events: [ev('a', 'AGENT', ['missing'], act('X', 'a')), ev('v', 'VALIDATION', [])],
    });
    expect(s.byId.get('a')!.turn).toBeNull();
    expect(s.oracleByTurn).toEqual([[]]);
    expect(s.unknownEventTypes).toEqual([{ id: 'v', type: 'VALIDATION' }]);
    expect(loadScenario({}).nbTurns).toBe(1);
  });

  it('an event without action has a null action', () => {
    const s = loadScenario({ events: [ev('a', 'AGENT', [])] });
    expect(s.byId.get('a')!.action).toBeNull();
  });

  it('mutually dependent events are never reached; bad JSON and duplicate ids name the file', () => {
    const bad = {
      events: [ev('r', 'AGENT', []), ev('a', 'AGENT', ['r', 'b'], act('X', 'a')), ev('b', 'AGENT', ['r', 'a'], act('X', 'b'))],
    };
    expect(loadScenario(bad).byId.get('a')!.turn).toBeNull();
    expect(() => loadScenarioText('{', 'x.json')).toThrow(/x\.json/);
    expect(() => loadScenario({ events: [ev('a', 'AGENT'), ev('a', 'AGENT')] }, 'dup.json')).toThrow(ScenarioError);
  });

  it('uses top-level start_time and defaults', () => {
    const s = loadScenario({ start_time: 100, events: [] });
    expect([s.startTime, s.duration, s.timeIncrement]).toEqual([100, 86400, 1]);
    const z = loadScenario({ metadata: { definition: { time_increment_in_seconds: 0, duration: 60 } } });
    expect([z.startTime, z.duration, z.timeIncrement]).toEqual([0, 60, 1]);
  });
});
