// Adds the planned noise events to a scenario (raw JSON) as ordinary ENV events, so the
// daemon's own schedule, ENV execution and notifications deliver them, as the reference adds
// them to the scenario's event list. Offsets are rounded to the millisecond so the expanded
// scenario prints the same on every run.
import type { EnvEventsSettings } from '../contract/noise.js';
import { pyDumps } from '../contract/pyjson.js';
import { planNoiseEvents, type PlannedNoiseEvent } from './env-events.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function argEntry(name: string, value: unknown): { name: string; value: unknown; value_type: string } {
  if (value === null || value === undefined) return { name, value: null, value_type: 'NoneType' };
  if (typeof value === 'boolean') return { name, value: value ? 'True' : 'False', value_type: 'bool' };
  if (typeof value === 'number') return { name, value: String(value), value_type: Number.isInteger(value) ? 'int' : 'float' };
  if (typeof value === 'string') return { name, value, value_type: 'str' };
  return { name, value: pyDumps(value), value_type: Array.isArray(value) ? 'list' : 'dict' };
}

/**
 * The reference's start event: the first event, when it waits on nothing. An oracle (AGENT)
 * event completes only once judged, so noise never waits on one: it then starts with the
 * scenario's clock instead.
 */
function startEventId(events: unknown[]): string | null {
  const first = events[0];
  if (!isObj(first) || typeof first.event_id !== 'string' || first.event_type === 'AGENT') return null;
  return Array.isArray(first.dependencies) && first.dependencies.length > 0 ? null : first.event_id;
}

function durationOf(scenario: Obj): number | null {
  const meta = isObj(scenario.metadata) ? scenario.metadata : {};
  const def = isObj(meta.definition) ? meta.definition : {};
  const d = Number(def.duration ?? scenario.duration);
  return Number.isFinite(d) && d > 0 ? d : null;
}

export interface ExpandedScenario {
  scenario: Obj;
  planned: PlannedNoiseEvent[];
}

/** Returns a copy of `scenario` with the noise events appended (the input is not changed). */
export function expandWithNoiseEvents(scenario: unknown, s: EnvEventsSettings): ExpandedScenario {
  if (!isObj(scenario)) return { scenario: {}, planned: [] };
  const events = Array.isArray(scenario.events) ? scenario.events : [];
  const planned = planNoiseEvents(scenario, s, durationOf(scenario)).map((p) => ({ ...p, offset: Math.round(p.offset * 1000) / 1000 }));
  const start = startEventId(events);
  const added = planned.map((p) => ({
    class_name: 'Event',
    event_type: 'ENV',
    event_id: p.id,
    event_time: null,
    event_relative_time: p.offset,
    dependencies: start ? [start] : [],
    action: {
      action_id: p.id,
      app: p.app,
      class_name: p.className,
      function: p.fn,
      operation_type: 'WRITE',
      args: Object.entries(p.args).map(([k, v]) => argEntry(k, v)),
    },
  }));
  return { scenario: { ...scenario, events: [...events, ...added] }, planned };
}
