// Small scenario and agent-event builders for judge unit tests (the shapes of the reference's test fixtures).
import { loadScenario, type LoadedScenario } from '../../../agent-image/src/scenario/index.js';
import type { CompletedEvent } from '../../../agent-image/src/judge/index.js';

type Args = Record<string, unknown>;

/** A scenario arg entry typed the way the dataset stores it. */
function arg(name: string, value: unknown) {
  if (value === null) return { name, value: null, value_type: 'Optional[str]' };
  if (typeof value === 'number') return { name, value: String(value), value_type: Number.isInteger(value) ? 'int' : 'float' };
  if (typeof value === 'boolean') return { name, value: value ? 'True' : 'False', value_type: 'bool' };
  if (typeof value === 'object') return { name, value: JSON.stringify(value), value_type: Array.isArray(value) ? 'list' : 'dict' };
  return { name, value, value_type: 'str' };
}

export interface Ev {
  id: string;
  type?: 'AGENT' | 'ENV' | 'USER';
  app?: string;
  fn?: string;
  args?: Args;
  deps?: string[];
  rt?: number | null;
  noAction?: boolean;
}

const APPS = [
  { name: 'Contacts', class_name: 'ContactsApp' },
  { name: 'Calendar', class_name: 'CalendarApp' },
  { name: 'Emails', class_name: 'EmailClientV2' },
  { name: 'AgentUserInterface', class_name: 'AgentUserInterface' },
];

export function scenarioOf(events: Ev[], opts: { start?: number; apps?: object[] } = {}): LoadedScenario {
  return loadScenario({
    metadata: { definition: { scenario_id: 't', start_time: opts.start ?? 0 } },
    apps: opts.apps ?? APPS,
    events: events.map((e) => ({
      event_id: e.id,
      event_type: e.type ?? 'AGENT',
      event_time: null,
      event_relative_time: e.rt ?? null,
      dependencies: e.deps ?? [],
      action: e.noAction
        ? null
        : { app: e.app ?? 'Contacts', function: e.fn ?? 'add_new_contact', args: Object.entries(e.args ?? {}).map(([k, v]) => arg(k, v)) },
    })),
  });
}

export const userTask = (id: string, content: string, deps: string[] = []): Ev => ({
  id,
  type: 'USER',
  app: 'AgentUserInterface',
  fn: 'send_message_to_agent',
  args: { content },
  deps,
});
export const oracleReply = (id: string, content: string, deps: string[] = []): Ev => ({
  id,
  app: 'AgentUserInterface',
  fn: 'send_message_to_user',
  args: { content },
  deps,
});

export function agent(id: string, app: string, fn: string, args: Args = {}, time = 100, extra: Partial<CompletedEvent> = {}): CompletedEvent {
  return { id, type: 'AGENT', time, app, fn, args, write: true, ret: null, ...extra };
}
export const reply = (id: string, content: string, time = 100): CompletedEvent => agent(id, 'AgentUserInterface', 'send_message_to_user', { content }, time);
