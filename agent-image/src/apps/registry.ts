// The ten app CLIs and the scenario names that resolve to them (reference app_registry).
// Static metadata only; the command implementations are listed in ./catalog.ts.

export interface RegistryEntry {
  /** Binary name the agent calls. */
  cli: string;
  /** Canonical class name. */
  canonical: string;
  /** Other scenario names/classes that resolve here. */
  aliases: readonly string[];
  /** Reference APP_NAME: decides the state file (normalizeAppName(stateName).json). */
  stateName: string;
  /** One-line description shown to the agent. */
  description: string;
}

export const REGISTRY: readonly RegistryEntry[] = [
  { cli: 'calendar', canonical: 'CalendarApp', aliases: ['Calendar'], stateName: 'Calendar', description: 'Calendar events' },
  { cli: 'contacts', canonical: 'ContactsApp', aliases: ['Contacts'], stateName: 'Contacts', description: 'Contacts' },
  {
    cli: 'emails',
    canonical: 'EmailClientV2',
    aliases: ['EmailClientApp', 'Mail', 'Emails'],
    stateName: 'EmailClientV2',
    description: 'Emails',
  },
  { cli: 'messages', canonical: 'MessagingAppV2', aliases: ['Messages'], stateName: 'Messages', description: 'Messages' },
  { cli: 'chats', canonical: 'Chats', aliases: [], stateName: 'Chats', description: 'Chat conversations' },
  {
    cli: 'rent-a-flat',
    canonical: 'ApartmentListingApp',
    aliases: ['RentAFlat'],
    stateName: 'RentAFlat',
    description: 'Apartment listings',
  },
  { cli: 'shopping', canonical: 'ShoppingApp', aliases: ['Shopping'], stateName: 'Shopping', description: 'Shopping' },
  { cli: 'cabs', canonical: 'CabApp', aliases: ['Cabs'], stateName: 'CabApp', description: 'Cab rides' },
  { cli: 'city', canonical: 'CityApp', aliases: ['City'], stateName: 'CityApp', description: 'City information and services' },
  {
    cli: 'cloud-drive',
    canonical: 'CloudDriveApp',
    aliases: ['CloudDrive', 'Files', 'SandboxLocalFileSystem', 'VirtualFileSystem'],
    stateName: 'Files',
    description: 'Cloud storage (like Google Drive), separate from the local filesystem',
  },
];

export const CLI_NAMES: readonly string[] = REGISTRY.map((e) => e.cli);

const byName = new Map<string, RegistryEntry>();
for (const e of REGISTRY) for (const n of [e.canonical, ...e.aliases]) byName.set(n, e);

/** Registry entry for a scenario app name or class name (canonical or alias). */
export const entryForAppName = (name: string): RegistryEntry | undefined => byName.get(name);

export const entryForCli = (cli: string): RegistryEntry | undefined => REGISTRY.find((e) => e.cli === cli);

/** Reference alias_map: a scenario app name → the state name its file is written under. */
export const stateNameFor = (name: string): string => byName.get(name)?.stateName ?? name;

/** Reference resolve_scenario_tools: binaries for the scenario's apps, and the others to remove. */
export function resolveScenarioTools(scenario: unknown): { tools: Record<string, string>; remove: string[] } {
  const tools: Record<string, string> = {};
  for (const app of scenarioApps(scenario)) {
    for (const n of [app.name, app.class_name]) {
      const e = typeof n === 'string' ? byName.get(n) : undefined;
      if (e) {
        tools[e.cli] = e.description;
        break;
      }
    }
  }
  return { tools, remove: CLI_NAMES.filter((c) => !(c in tools)).sort() };
}

export interface ScenarioAppEntry {
  name?: unknown;
  class_name?: unknown;
  app_state?: unknown;
}

/** The apps list of a scenario object (or a bare list of app entries). */
export function scenarioApps(scenario: unknown): ScenarioAppEntry[] {
  const list = Array.isArray(scenario) ? scenario : (scenario as { apps?: unknown } | null)?.apps;
  return Array.isArray(list) ? list.filter((a): a is ScenarioAppEntry => !!a && typeof a === 'object') : [];
}
