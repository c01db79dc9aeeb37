// Scenario model: the scenario JSON loaded the way the reference loader reads it.
//
//   loadScenario(json, file?) → LoadedScenario          (throws ScenarioError naming file/field)
//   loadScenarioText(text, file?) → LoadedScenario
//
// LoadedScenario (see model.ts): id, split, startTime (0 if absent), duration (86400),
// timeIncrement (1), appNameToClass, events (JSON order, typed args, turn, successors), byId,
// nbTurns, oracleByTurn (AGENT events per turn, topological, ties in JSON order),
// oracleGraphByTurn (same-turn AGENT parents), tasksByTurn, task (first user message),
// envEvents, userEvents, oracleEvents, turnBoundaries (condition k: oracle reply ending
// turn k-1 and the non-AGENT successors it releases), unknownEventTypes, userDetails.
//
// Helpers: parseArgValue/flattenArgs (value_type conversion), parsePlaceholder /
// resolvePlaceholder / resolveArgs (`{{event_id[.key]}}`), isOracleReply, topologicalOrder.
export type {
  LoadedScenario,
  ScenarioEventModel,
  ScenarioActionModel,
  ScenarioEventType,
  TurnBoundary,
  UserDetails,
} from './model.js';
export { contactsStates, loadScenario, loadScenarioText, userDetailsFromScenario } from './load.js';
export { parseArgValue, flattenArgs, baseTypeName } from './args.js';
export { parsePlaceholder, resolvePlaceholder, resolveArgs, type PlaceholderRef, type ReturnLookup } from './placeholders.js';
export { isOracleReply, topologicalOrder, assignTurns, OracleCycleError } from './turns.js';
