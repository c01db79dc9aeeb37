// When scenario events fire: reference W2 timing vs the fix, condition successors, and
// events that can never fire reported instead of blocking the run (W8).
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../agent-image/src/scenario/index.js';
import { ScenarioSchedule, conditionId } from '../../../agent-image/src/world/schedule.js';

const T0 = 1_760_000_400;
const act = (app: string, fn: string, args: Array<[string, string]> = []) => ({
  app,
  function: fn,
  args: args.map(([name, value]) => ({ name, value, value_type: 'str' })),
});
const ev = (id: string, type: string, deps: string[], rel: number, action = act('Emails', 'create_and_add_email')) => ({
  event_id: id,
  event_type: type,
  event_time: type === 'USER' ? T0 : null,
  event_relative_time: rel,
  dependencies: deps,
  action,
});

const scenario = loadScenario({
  metadata: { definition: { scenario_id: 's', start_time: T0 } },
  apps: [{ name: 'Emails', class_name: 'EmailClientV2' }],
  events: [
    ev('Event-USER-1', 'USER', [], 0, act('AgentUserInterface', 'send_message_to_agent', [['content', 'hi']])),
    ev('Event-ENV-A', 'ENV', ['Event-USER-1'], 20),
    ev('Event-ENV-B', 'ENV', ['Event-ENV-A'], 30),
    ev('Event-AGENT-1', 'AGENT', ['Event-ENV-A'], 1, act('Emails', 'send_email')),
    ev('Event-AGENT-R', 'AGENT', ['Event-AGENT-1'], 1, act('AgentUserInterface', 'send_message_to_user', [['content', 'ok']])),
    ev('Event-ENV-C', 'ENV', ['Event-AGENT-R'], 5),
    ev('Event-USER-2', 'USER', ['Event-AGENT-R'], 0, act('AgentUserInterface', 'send_message_to_agent', [['content', 'more']])),
    ev('Event-AGENT-2', 'AGENT', ['Event-USER-2'], 1, act('Emails', 'send_email')),
    ev('Event-AGENT-R2', 'AGENT', ['Event-AGENT-2'], 1, act('AgentUserInterface', 'send_message_to_user', [['content', 'done']])),
    ev('Event-ENV-LATE', 'ENV', ['Event-AGENT-2'], 5),
    ev('Event-ENV-AFTER-LATE', 'ENV', ['Event-ENV-LATE'], 5),
    ev('Event-VAL-1', 'VALIDATION', [], 0),
  ],
}, 'synthetic.json');

const drain = (s: ScenarioSchedule, until: number) => {
  const fired: Array<[string, number]> = [];
  for (let t = T0; t <= until; t += 1) {
    for (const d of s.takeDue(t)) {
      fired.push([d.event.id, d.at - T0]);
      s.complete(d.event.id, d.at);
    }
  }
  return fired;
};

describe('ScenarioSchedule', () => {
  it('reference (W2): a chained ENV event fires at max(start + delay, parent done)', () => {
    const s = new ScenarioSchedule(scenario, { chainedEnvFix: false });
    expect(drain(s, T0 + 100)).toEqual([
      ['Event-USER-1', 0],
      ['Event-ENV-A', 20],
      ['Event-ENV-B', 30],
    ]);
  });

  it('fix: a chained ENV event fires its own delay after its parent', () => {
    const s = new ScenarioSchedule(scenario, { chainedEnvFix: true });
    expect(drain(s, T0 + 100).find(([id]) => id === 'Event-ENV-B')).toEqual(['Event-ENV-B', 50]);
  });

  it('condition successors wait for condition_turn_k and fire its time + delay', () => {
    const s = new ScenarioSchedule(scenario, { chainedEnvFix: false });
    drain(s, T0 + 100);
    expect(s.nextDue()).toBeNull();
    s.complete(conditionId(1), T0 + 200);
    expect(s.takeDue(T0 + 200).map((d) => d.event.id)).toEqual(['Event-USER-2']);
    expect(s.nextDue()).toBe(T0 + 205);
    expect(s.takeDue(T0 + 205).map((d) => d.event.id)).toEqual(['Event-ENV-C']);
  });

  it('never-firing events are reported, not pending: unknown types, final-turn oracle deps, and their dependents', () => {
    const s = new ScenarioSchedule(scenario, { chainedEnvFix: false });
    expect([...s.stuck.keys()].sort()).toEqual(['Event-ENV-AFTER-LATE', 'Event-ENV-LATE', 'Event-VAL-1']);
    expect(s.stuck.get('Event-VAL-1')).toMatch(/unknown event type VALIDATION/);
    expect(s.pendingIds()).not.toContain('Event-ENV-LATE');
  });
});
