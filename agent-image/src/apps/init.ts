// World initialisation from a scenario (reference gaia2-init): one state file per app, the
// cloud-drive tree, app_class_map.json and an empty events.jsonl.
import { copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parsePyJson } from '../contract/pyjson.js';
import { resolveDrivePath } from './framework/drive.js';
import { APP_CLASS_MAP_FILE, stateFilePath, writeStateFile } from './framework/state.js';
import type { MemoryStates } from './framework/state-store.js';
import { scenarioApps, stateNameFor } from './registry.js';

export interface InitResult {
  /** Scenario names of the apps written, in scenario order. */
  apps: string[];
  /** Reference warnings (e.g. "No apps found in scenario JSON"), for stderr. */
  warnings: string[];
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
  const classMap: Record<string, string> = {};
  const apps = scenarioApps(parsed);
  if (apps.length === 0) warnings.push('Warning: No apps found in scenario JSON');
  for (const app of apps) {
    if (typeof app.name !== 'string' || app.name === '') {
      warnings.push('Warning: Skipping app entry with no name');
      continue;
    }
    const className = typeof app.class_name === 'string' && app.class_name ? app.class_name : app.name;
    const state = app.app_state && typeof app.app_state === 'object' ? app.app_state : {};
    const canonical = stateNameFor(app.name);
    if (canonical !== className) classMap[canonical] = className;
    if (canonical === FILES_STATE) buildDriveTree(join(stateDir, 'filesystem'), state, opts.fsBackingDir);
    const file = stateFilePath(stateDir, canonical);
    if (opts.states) opts.states.seed(file, state as Record<string, unknown>);
    else writeStateFile(file, state);
    names.push(app.name);
  }
  if (Object.keys(classMap).length > 0) writeStateFile(join(stateDir, APP_CLASS_MAP_FILE), classMap);
  const events = join(stateDir, 'events.jsonl');
  if (!existsSync(events)) writeFileSync(events, '');
  return { apps: names, warnings };
}

function parseScenarioText(text: string): unknown {
  try {
    return parsePyJson(text);
  } catch (e) {
    throw new Error(`Scenario is not valid JSON: ${(e as Error).message}`);
  }
}

interface DriveNode {
  name?: unknown;
  type?: unknown;
  children?: unknown;
  real_path?: unknown;
}

/** Materialises app_state.files (root name ignored) under `root`; files copied from the backing dir when present. */
function buildDriveTree(root: string, state: object, backingDir: string | undefined): void {
  mkdirSync(root, { recursive: true });
  const walk = (node: DriveNode, dir: string): void => {
    if (!Array.isArray(node.children)) return;
    for (const child of node.children as DriveNode[]) {
      if (!child || typeof child !== 'object' || typeof child.name !== 'string' || child.name === '') continue;
      const target = resolveDrivePath(dir, child.name);
      if (!target) continue; // a name with ".." would leave the drive
      if (child.type === 'directory') {
        mkdirSync(target.abs, { recursive: true });
        walk(child, target.abs);
        continue;
      }
      // The walk created this file's folder already, unless its name leads elsewhere ("~/x", "a/b").
      if (dirname(target.abs) !== resolve(dir)) mkdirSync(dirname(target.abs), { recursive: true });
      const src = backingDir && typeof child.real_path === 'string' ? join(backingDir, child.real_path) : undefined;
      if (src && existsSync(src) && statSync(src).isFile()) copyFileSync(src, target.abs);
      else writeFileSync(target.abs, '');
    }
  };
  const files = (state as { files?: unknown }).files;
  if (files && typeof files === 'object') walk(files as DriveNode, root);
}
