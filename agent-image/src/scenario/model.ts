// The loaded, typed scenario every consumer (daemon, judge, runner) works from.

export type ScenarioEventType = 'AGENT' | 'ENV' | 'USER' | (string & {});

export interface ScenarioActionModel {
  /** Scenario app name (e.g. "Chats"); the daemon routes ENV actions by it. */
  app: string;
  /** Class name: action.class_name, else apps[].class_name of `app`, else `app`. */
  className: string;
  fn: string;
  /** `<className>__<fn>`. */
  toolName: string;
  /** Typed arguments (args.ts), placeholders still raw. */
  args: Record<string, unknown>;
  /** Lower-cased, default "read" (unused by the judge, kept for completeness). */
  operationType: string;
}

export interface ScenarioEventModel {
  id: string;
  type: ScenarioEventType;
  /** Position in the scenario's events[] (JSON order breaks every tie). */
  index: number;
  /** Absolute epoch seconds when the scenario gives one (usually null for AGENT/ENV). */
  eventTime: number | null;
  /** Delay after the event's dependencies, seconds. */
  relativeTime: number | null;
  /** Raw dependency ids, every type, as written. */
  dependencies: string[];
  /** Reverse of dependencies, in JSON order of the successors. */
  successors: string[];
  action: ScenarioActionModel | null;
  /** Turn index, or null when the turn walk never reached the event (dropped from judging). */
  turn: number | null;
}

export interface UserDetails {
  first_name: string;
  last_name: string;
  address: string;
}

/** What the daemon needs for turn boundary k (k = 1..nbTurns-1), container.md §3.4. */
export interface TurnBoundary {
  /** Turn that starts at this boundary; the condition judges turn `turn - 1`. */
  turn: number;
  /** The oracle reply ending turn `turn - 1` (null if the scenario has none: logged by the reference). */
  endOfTurnOracleId: string | null;
  /** Non-AGENT successors of that reply, released when the condition passes. */
  successorIds: string[];
}

export interface LoadedScenario {
  id: string;
  split: string | null;
  /** Epoch seconds; 0 when the scenario has none. */
  startTime: number;
  /** Seconds; default 86400. */
  duration: number;
  /** Seconds per daemon tick; a falsy value becomes 1. */
  timeIncrement: number;
  appNameToClass: Record<string, string>;
  /** Every event in JSON order. */
  events: ScenarioEventModel[];
  byId: ReadonlyMap<string, ScenarioEventModel>;
  nbTurns: number;
  /** Per turn, the AGENT (oracle) events in topological order, ties in JSON order. */
  oracleByTurn: ScenarioEventModel[][];
  /** Per turn, oracle id → its AGENT parents of the same turn, in dependency order. */
  oracleGraphByTurn: Array<Record<string, string[]>>;
  /** Per turn, every USER send_message_to_agent content of that turn + "\n", concatenated. */
  tasksByTurn: string[];
  /** The first user task (what the agent is sent at start), or null. */
  task: string | null;
  envEvents: ScenarioEventModel[];
  userEvents: ScenarioEventModel[];
  oracleEvents: ScenarioEventModel[];
  turnBoundaries: TurnBoundary[];
  /** Events whose type is not AGENT/ENV/USER: the reference queues and then ignores them. */
  unknownEventTypes: Array<{ id: string; type: string }>;
  /** From the scenario's contacts app (is_user), when present. */
  userDetails: UserDetails | null;
}
