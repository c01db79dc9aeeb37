// Which of a scenario's apps are handed to app agents (ARE's Agent2Agent mode): the apps in
// scenario order minus the three that never are (the user interface, the system app and the
// internal contacts), then floor(count × app_prop) of them drawn with Python's
// random.Random(seed).sample — the scenario's own seed unless the run overrides it.
import { entryForAppName, scenarioApps } from '../apps/registry.js';
import { PyRandom } from './py-random.js';

/** Scenario apps ARE never turns into app agents. */
export const NEVER_APP_AGENTS: readonly string[] = ['InternalContacts', 'AgentUserInterface', 'SystemApp'];

export interface AppAgentChoice {
  /** Scenario app name (what ARE calls the app agent, and the `app` of its event lines). */
  name: string;
  /** Our CLI for it; null when this image has no such app (it is then not reachable at all). */
  cli: string | null;
}

/** ScenarioMetadata.definition.seed, or 0 like ARE when absent. */
export function scenarioSeed(scenario: unknown): number | bigint {
  const seed = (scenario as { metadata?: { definition?: { seed?: unknown } } } | null)?.metadata?.definition?.seed;
  if (typeof seed === 'number' && Number.isSafeInteger(seed)) return seed;
  if (typeof seed === 'bigint') return seed;
  return 0;
}

/** The apps that get app agents, in the order ARE samples them. */
export function chooseAppAgentApps(scenario: unknown, appProp: number, seed: number | bigint = scenarioSeed(scenario)): AppAgentChoice[] {
  if (!(appProp > 0)) return [];
  const names = scenarioApps(scenario)
    .map((a) => (typeof a.name === 'string' ? a.name : typeof a.class_name === 'string' ? a.class_name : ''))
    .filter((n) => n !== '' && !NEVER_APP_AGENTS.includes(n));
  if (names.length === 0) throw new Error('Agent2Agent: the scenario has no app that an app agent could operate');
  const count = Math.trunc(names.length * appProp);
  if (count === 0) return [];
  return new PyRandom(seed).sample(names, count).map((name) => ({ name, cli: cliFor(name) }));
}

function cliFor(name: string): string | null {
  return entryForAppName(name)?.cli ?? null;
}
