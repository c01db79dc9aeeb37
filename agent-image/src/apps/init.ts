// World initialisation from a scenario (reference gaia2-init): one state file per app, the
// cloud-drive tree, app_class_map.json and an empty events.jsonl.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARRIED_DRIVE_DIR } from '../contract/carry.js';
import { DeferredJson, parsePyJson, undeferred } from '../contract/pyjson.js';
import { DriveBuild } from './drive-tree.js';
import { APP_CLASS_MAP_FILE, stateFilePath, writeStateFile } from './framework/state.js';
import type { MemoryStates } from './framework/state-store.js';
import { scenarioApps, stateNameFor } from './registry.js';

export interface InitResult {
  /** Scenario names of the apps written, in scenario order. */
  apps: string[];
  /** Reference warnings (e.g. "No apps found in scenario JSON"), for stderr. */
  warnings: string[];
  /**
   * With `states` (the daemon): the cloud drive's tree, still being built in the background;
   * the daemon finishes it before a command that uses the drive and at the end of the run.
   */
  drive?: DriveBuild;
}

const FILES_STATE = 'Files';

/**
 * `scenario` is the scenario JSON text (preferred: float literals such as `1728974530.0` keep
 * their ".0" in state files and outputs) or an already parsed object.
 */
export interface InitOptions {
  fsBackingDir?: string;
  /**
   * The world daemon's states: each app's state object is handed over to them (commands change
   * it from then on; nothing else reads a scenario's app states after composeWorld) and its
   * file written when the daemon persists, not now.
   */
  states?: MemoryStates;
}

export async function initWorld(scenario: unknown, stateDir: string, opts: InitOptions = {}): Promise<InitResult> {
  const parsed = typeof scenario === 'string' ? parseScenarioText(scenario) : scenario;
  mkdirSync(stateDir, { recursive: true });
  const warnings: string[] = [];
  const names: string[] = [];
  let drive: DriveBuild | null = null;
  const classMap: Record<string, string> = {};
  const apps = scenarioApps(parsed);
  if (apps.length === 0) warnings.push('Warning: No apps found in scenario JSON');
  for (const app of apps) {
    if (typeof app.name !== 'string' || app.name === '') {
      warnings.push('Warning: Skipping app entry with no name');
      continue;
    }
    const className = typeof app.class_name === 'string' && app.class_name ? app.class_name : app.name;
    // A state the parse deferred (DeferredJson: always an object or array) is seeded as it is,
    // and parsed when first read (docs/daemon.md, "Boot").
    const state = app.app_state && typeof app.app_state === 'object' ? app.app_state : {};
    const canonical = stateNameFor(app.name);
    if (canonical !== className) classMap[canonical] = className;
    if (canonical === FILES_STATE) {
      drive?.finish(); // a second Files app (never in practice): the first one's tree first, as before
      drive = new DriveBuild(join(stateDir, CARRIED_DRIVE_DIR), state, opts.fsBackingDir);
      if (!opts.states) drive.finish();
    }
    const file = stateFilePath(stateDir, canonical);
    if (opts.states) opts.states.seed(file, state as Record<string, unknown> | DeferredJson);
    else writeStateFile(file, undeferred(state));
    names.push(app.name);
  }
  if (Object.keys(classMap).length > 0) writeStateFile(join(stateDir, APP_CLASS_MAP_FILE), classMap);
  const events = join(stateDir, 'events.jsonl');
  if (!existsSync(events)) writeFileSync(events, '');
  return { apps: names, warnings, ...(opts.states && drive ? { drive: drive.background() } : {}) };
}

function parseScenarioText(text: string): unknown {
  try {
    return parsePyJson(text);
  } catch (e) {
    throw new Error(`Scenario is not valid JSON: ${(e as Error).message}`);
  }
}
