// Scenario JSON → LoadedScenario, following the reference loader (docs/daemon.md, "Scenario as read").
import {
  parseScenario,
  parseScenarioText,
  scenarioId,
  scenarioSplit,
  ScenarioError,
  type Scenario,
} from '../contract/scenario.js';
import { AUI_APP, SEND_MESSAGE_TO_AGENT } from '../contract/events.js';
import { undeferred } from '../contract/pyjson.js';
import { flattenArgs } from './args.js';
import type { LoadedScenario, ScenarioEventModel, UserDetails } from './model.js';
import { assignTurns, buildOracleTurns, buildTurnBoundaries, OracleCycleError } from './turns.js';

const KNOWN_TYPES = new Set(['AGENT', 'ENV', 'USER']);
const CONTACTS_APPS = new Set(['ContactsApp', 'Contacts', 'InternalContacts']);

function definitionNumber(s: Scenario, key: 'start_time' | 'duration' | 'time_increment_in_seconds'): number | null {
  const def = s.metadata?.definition as Record<string, unknown> | undefined;
  const v = def?.[key] ?? (s as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function userTaskContent(e: ScenarioEventModel): string | null {
  if (e.type !== 'USER' || e.action?.app !== AUI_APP || e.action.fn !== SEND_MESSAGE_TO_AGENT) return null;
  const c = e.action.args['content'];
  return c == null ? '' : String(c);
}

/** The app states of a scenario's contacts apps (app entries), as it holds them (maybe DeferredJson). */
export const contactsStates = (apps: ReadonlyArray<{ name?: unknown; class_name?: unknown; app_state?: unknown }>): unknown[] =>
  apps.filter((app) => CONTACTS_APPS.has(String(app.name)) || CONTACTS_APPS.has(String(app.class_name ?? ''))).map((app) => app.app_state);

/** The user's own contact (is_user) from the scenario's contacts app state, if any. */
export function userDetailsFromScenario(s: Scenario): UserDetails | null {
  for (const state of contactsStates(s.apps)) {
    const contacts = (undeferred(state) as { contacts?: unknown } | undefined)?.contacts;
    const list = Array.isArray(contacts) ? contacts : contacts && typeof contacts === 'object' ? Object.values(contacts) : [];
    for (const c of list as Array<Record<string, unknown>>) {
      if (c && c['is_user'] === true) {
        return {
          first_name: String(c['first_name'] ?? ''),
          last_name: String(c['last_name'] ?? ''),
          address: String(c['address'] ?? ''),
        };
      }
    }
  }
  return null;
}

/**
 * Loads scenario JSON (already parsed, or a validated Scenario). `file` names the source
 * in error messages. Throws ScenarioError on schema errors or an oracle dependency cycle.
 */
export function loadScenario(data: unknown, file = '<scenario>'): LoadedScenario {
  const s = parseScenario(data, file);
  const appNameToClass: Record<string, string> = {};
  for (const app of s.apps) appNameToClass[app.name] = app.class_name || app.name;

  const events: ScenarioEventModel[] = s.events.map((e, index) => {
    const a = e.action;
    const className = a ? a.class_name || appNameToClass[a.app] || a.app : 'NoApp';
    return {
      id: e.event_id,
      type: e.event_type,
      index,
      eventTime: e.event_time ?? null,
      relativeTime: e.event_relative_time ?? null,
      dependencies: [...e.dependencies],
      successors: [],
      action: a
        ? {
            app: a.app,
            className,
            fn: a.function,
            toolName: `${className}__${a.function}`,
            args: flattenArgs(a.args),
            operationType: (a.operation_type ?? 'read').toLowerCase(),
          }
        : null,
      turn: null,
    };
  });
  const byId = new Map<string, ScenarioEventModel>();
  for (const e of events) {
    if (byId.has(e.id)) throw new ScenarioError(file, `events[${e.index}].event_id`, `duplicate event id ${e.id}`);
    byId.set(e.id, e);
  }
  for (const e of events) for (const d of e.dependencies) byId.get(d)?.successors.push(e.id);

  const { turnOf, nbTurns } = assignTurns(events, byId);
  for (const e of events) e.turn = turnOf.get(e.id) ?? null;

  let oracle;
  try {
    oracle = buildOracleTurns(events, byId, nbTurns);
  } catch (err) {
    if (err instanceof OracleCycleError) throw new ScenarioError(file, 'events', err.message);
    throw err;
  }

  const tasksByTurn = Array.from({ length: nbTurns }, () => '');
  for (const e of events) {
    const content = userTaskContent(e);
    if (content !== null && e.turn !== null) tasksByTurn[e.turn] += `${content}\n`;
  }
  const userMessages = events.filter((e) => userTaskContent(e) !== null);
  const first = userMessages.find((e) => e.dependencies.length === 0) ?? userMessages[0];

  const timeIncrement = definitionNumber(s, 'time_increment_in_seconds');
  let userDetails: { v: UserDetails | null } | null = null;
  return {
    id: scenarioId(s),
    split: scenarioSplit(s),
    startTime: definitionNumber(s, 'start_time') || 0,
    duration: definitionNumber(s, 'duration') ?? 86400,
    timeIncrement: timeIncrement || 1,
    appNameToClass,
    events,
    byId,
    nbTurns,
    oracleByTurn: oracle.oracleByTurn,
    oracleGraphByTurn: oracle.oracleGraphByTurn,
    tasksByTurn,
    task: first ? userTaskContent(first) : null,
    envEvents: events.filter((e) => e.type === 'ENV'),
    userEvents: events.filter((e) => e.type === 'USER'),
    oracleEvents: events.filter((e) => e.type === 'AGENT'),
    turnBoundaries: buildTurnBoundaries(events, byId, nbTurns),
    unknownEventTypes: events.filter((e) => !KNOWN_TYPES.has(e.type)).map((e) => ({ id: e.id, type: e.type })),
    // Read when first asked: the contacts state may still be unparsed (docs/daemon.md, "Boot").
    get userDetails(): UserDetails | null {
      userDetails ??= { v: userDetailsFromScenario(s) };
      return userDetails.v;
    },
  };
}

/** loadScenario from JSON text. */
export function loadScenarioText(text: string, file = '<scenario>'): LoadedScenario {
  return loadScenario(parseScenarioText(text, file), file);
}
