// What one scenario of a universe chain leaves for the next, carried through the runner and the
// engine interface (so every backend that can read and write a unit's files carries it alike):
// the apps' states as the world persisted them at the end of the run, less the run's own logs,
// the cloud drive's files (the Files app's tree under the state dir: its state names the entries,
// only the files hold what the agent wrote into them), and the agent's home, less its credentials
// and the runtimes' per-run plumbing. The next run gets the states as its scenario's initial app
// states (the world seeds from the scenario, as always), and the drive and the home as files
// written before its unit starts (the world's drive build keeps a file it finds there). A backend
// that cannot read or write a unit's files (a Pod) carries through the image instead: GET /carry
// out, the adapter's /files in (the home through the entrypoint, ENV.carryHome).
import { posix } from 'node:path';
import { AGENT_USER, CONTAINER_PATHS } from '@gaia2/contract/paths';
import { CARRIED_DRIVE_DIR, isCarriedHomePath, isCarriedStateFile } from '@gaia2/contract/carry';
import { parsePyJson, pyDumps } from '@gaia2/contract/pyjson';
import { scenarioApps, stateNameFor } from '@gaia2/contract/lib/apps/registry';
import { stateFilePath } from '@gaia2/contract/lib/apps/state';
import { packFiles, type ContainerFile, type ContainerHandle, type TreeEntry } from '../engine/index.js';

export interface CarriedState {
  /** App state file name (`<state name>.json`) → its text as the world wrote it. */
  states: Map<string, Buffer>;
  /** The agent's home, relative to it. */
  home: TreeEntry[];
  /** The cloud drive's tree, relative to its root (the root itself is ''), owners as found. */
  drive: TreeEntry[];
}

/** The carry could not be taken or given: recorded as the next result's carry_error. */
export class CarryError extends Error {}

/**
 * The image's own reader of the carry (its adapter's GET /carry): the state dir's and the home's
 * carried entries, for a backend that cannot read a unit's files (a cluster's Pod).
 */
export interface CarrySource {
  carry(): Promise<{ state: TreeEntry[]; home: TreeEntry[] }>;
}

/** Reads what a finished unit leaves for the next scenario of its chain: by the engine, else by the image. */
export async function takeCarry(unit: ContainerHandle, image?: CarrySource | null): Promise<CarriedState> {
  const readTree = unit.readTree?.bind(unit);
  if (!readTree && !image) throw new CarryError("neither this backend nor the image can read a unit's files, so the state cannot be carried");
  const [stateTree, homeTree] = readTree
    ? await Promise.all([readTree(CONTAINER_PATHS.stateDir), readTree(CONTAINER_PATHS.agentHome)])
    : await image!.carry().then((c) => [c.state, c.home] as const);
  const states = new Map<string, Buffer>();
  const drive: TreeEntry[] = [];
  for (const e of stateTree) {
    if (e.path === CARRIED_DRIVE_DIR || e.path.startsWith(`${CARRIED_DRIVE_DIR}/`)) drive.push({ ...e, path: e.path.slice(CARRIED_DRIVE_DIR.length + 1) });
    else if (e.type === 'file' && isCarriedStateFile(e.path)) states.set(e.path, e.content!);
  }
  if (states.size === 0) throw new CarryError(`the unit left no app state in ${CONTAINER_PATHS.stateDir}`);
  return { states, home: homeTree.filter((e) => isCarriedHomePath(e.path)), drive };
}

/**
 * The next scenario with the carried states as its apps' initial states (an app the carry has
 * no state for keeps the scenario's own); its text is Python-style JSON like the dataset's.
 */
export function carryIntoScenario(scenario: Buffer | string, carried: CarriedState, file: string): Buffer {
  let value: unknown;
  try {
    value = parsePyJson(typeof scenario === 'string' ? scenario : scenario.toString('utf8'));
  } catch (e) {
    throw new CarryError(`${file}: cannot read the scenario to carry the state into it: ${(e as Error).message}`);
  }
  for (const app of scenarioApps(value)) {
    if (typeof app.name !== 'string' || !app.name) continue;
    const name = posix.basename(stateFilePath('/', stateNameFor(app.name)));
    const text = carried.states.get(name);
    if (!text) continue;
    try {
      app.app_state = parsePyJson(text.toString('utf8'));
    } catch (e) {
      throw new CarryError(`the carried state ${name} is not valid JSON: ${(e as Error).message}`);
    }
  }
  return Buffer.from(pyDumps(value));
}

/**
 * The carried home (the agent's own) and drive (the world user's, as the image made it) as files
 * written into the next unit before it starts. A backend that cannot write files at create
 * (`late`) hands them to the adapter, which writes only plain files under its own tree: the home
 * then goes whole as one tar (its folders, links and modes kept) to the image's upload path,
 * unpacked into place by the entrypoint (ENV.carryHome).
 */
export async function homeFiles(carried: CarriedState, late = false): Promise<ContainerFile[]> {
  const drive = parentsFirst(carried.drive).map((e) => ({ path: posix.join(CONTAINER_PATHS.stateDir, CARRIED_DRIVE_DIR, e.path), ...asWritten(e) }));
  const home = parentsFirst(carried.home).map((e) => ({ path: e.path, ...asWritten({ ...e, ...AGENT_USER }) }));
  if (!late) return [...home.map((f) => ({ ...f, path: posix.join(CONTAINER_PATHS.agentHome, f.path) })), ...drive];
  if (home.length === 0) return drive;
  const tar = await packFiles(home.map(({ path, ...f }) => ({ name: path, ...f })));
  return [{ path: CONTAINER_PATHS.carriedHomeTar, content: tar, mode: 0o600 }, ...drive];
}

// Parents before children (a directory's owner and mode are set as it is made).
const parentsFirst = (tree: readonly TreeEntry[]): TreeEntry[] =>
  [...tree].sort((a, b) => (a.path === '' ? 0 : a.path.split('/').length) - (b.path === '' ? 0 : b.path.split('/').length) || (a.path < b.path ? -1 : 1));

/** A tree entry as a file, directory or symlink to write (a unit's files, a checkpoint's tar). */
export function asWritten(e: TreeEntry): { content: Buffer | string; mode: number; uid: number; gid: number; dir?: boolean; linkname?: string } {
  return {
    content: e.content ?? '',
    mode: e.mode,
    uid: e.uid,
    gid: e.gid,
    ...(e.type === 'dir' ? { dir: true } : {}),
    ...(e.type === 'symlink' ? { linkname: e.linkname ?? '' } : {}),
  };
}
