// Where app commands read and write their state. Two stores, one interface:
// - FileStates: every load parses the app's state file and every save rewrites it (a
//   one-shot process such as `gaia2-runner world exec`, which exits after the command).
// - MemoryStates: the world daemon's. Each app's file is parsed once, on its first load, and
//   every later command works on that object; a save only marks the app dirty. persist()
//   writes the dirty apps' files (the same bytes a save would have written), at the points
//   where someone reads them: the end of the run, whatever ends it (docs/daemon.md).
// Two rules follow for commands, since their objects outlive them: a command must not change
// state before it fails (the reference's failed command never saves, so its changes vanish),
// and a saved state must not hold one object in two places (the file holds two copies, which
// later commands change apart). MemoryStates checks both with `verify`, which the tests use.
// A command runs inside begin()/end().
import { DeferredJson, pyDumps } from '../../contract/pyjson.js';
import { readAppClassMap, readStateFile, writeStateFile } from './state.js';
import { forgetViews } from './state-views.js';

export type AppState = Record<string, unknown>;

export interface StateStore {
  load(file: string): AppState | null;
  /** app_class_map.json of a state dir (state name → scenario class). */
  classMap(stateDir: string): Record<string, string>;
  save(file: string, state: AppState): void;
  /** A command starts; loads and saves until end() belong to it. */
  begin(): void;
  /** The command ended; `ok` false when it failed (its saves, if any, are still kept). */
  end(ok: boolean): void;
}

export class FileStates implements StateStore {
  load(file: string): AppState | null {
    return readStateFile(file);
  }
  classMap(stateDir: string): Record<string, string> {
    return readAppClassMap(stateDir);
  }
  save(file: string, state: AppState): void {
    writeStateFile(file, state);
  }
  begin(): void {}
  end(): void {}
}

interface Entry {
  state: AppState | null;
  dirty: boolean;
  /** A seeded state not parsed yet (the scenario's text of it): parsed on its first load. */
  deferred?: DeferredJson;
}

export interface MemoryStatesOptions {
  /**
   * Check every command against the rules above. Costs a serialisation per load: tests only.
   */
  verify?: boolean;
}

export class StateRuleError extends Error {
  override name = 'StateRuleError';
}

export class MemoryStates implements StateStore {
  private readonly entries = new Map<string, Entry>();
  /** verify: the text of each state as the running command first loaded it. */
  private readonly before = new Map<string, string>();
  private readonly classMaps = new Map<string, Record<string, string>>();
  /** The state objects the running command loaded. */
  private readonly loaded = new Set<AppState>();
  /** verify: the rule a save of the running command broke. */
  private violation: Error | null = null;

  constructor(private readonly opts: MemoryStatesOptions = {}) {}

  /**
   * A state the world starts with (seeding): served from memory, written at the next persist.
   * A DeferredJson is parsed when the state is first loaded or persisted, or by parseDeferred.
   */
  seed(file: string, state: AppState | DeferredJson): void {
    if (state instanceof DeferredJson) this.entries.set(file, { state: null, dirty: true, deferred: state });
    else this.entries.set(file, { state, dirty: true });
  }

  /**
   * Parses one seeded state still deferred (the daemon calls it in idle moments after boot,
   * so that the scenario's text can go); false when none is left.
   */
  parseDeferred(): boolean {
    for (const [file, e] of this.entries) {
      if (!e.deferred) continue;
      undefer(e, file);
      return true;
    }
    return false;
  }

  /** Written once at seeding and never changed: read once. */
  classMap(stateDir: string): Record<string, string> {
    let m = this.classMaps.get(stateDir);
    if (!m) this.classMaps.set(stateDir, (m = readAppClassMap(stateDir)));
    return m;
  }

  load(file: string): AppState | null {
    let e = this.entries.get(file);
    if (!e) {
      e = { state: readStateFile(file), dirty: false };
      this.entries.set(file, e);
    }
    if (e.deferred) undefer(e, file);
    if (e.state) this.loaded.add(e.state);
    if (this.opts.verify && !this.before.has(file)) this.before.set(file, pyDumps(e.state));
    return e.state;
  }

  save(file: string, state: AppState): void {
    if (this.opts.verify) {
      try {
        assertNoSharing(file, state);
      } catch (e) {
        this.violation ??= e as Error;
        throw e;
      }
    }
    this.entries.set(file, { state, dirty: true });
    this.before.delete(file);
  }

  begin(): void {
    this.before.clear();
    this.loaded.clear();
    this.violation = null;
  }

  end(ok: boolean): void {
    if (!ok) for (const state of this.loaded) forgetViews(state);
    this.loaded.clear();
    const violation = this.violation;
    this.violation = null;
    if (violation) throw violation;
    if (this.opts.verify && !ok) {
      for (const [file, text] of this.before) {
        if (pyDumps(this.entries.get(file)?.state ?? null) !== text) {
          throw new StateRuleError(`a failed command changed the state of ${file} without saving it`);
        }
      }
    }
    this.before.clear();
  }

  /** Seeded states not parsed yet. */
  get deferredFiles(): string[] {
    return [...this.entries].filter(([, e]) => e.deferred).map(([f]) => f);
  }

  /** Apps whose state changed since the last persist. */
  get dirtyFiles(): string[] {
    return [...this.entries].filter(([, e]) => e.dirty).map(([f]) => f);
  }

  /** Writes every changed state to its file (atomically); returns the files written. */
  persist(): string[] {
    const written: string[] = [];
    for (const [file, e] of this.entries) {
      if (!e.dirty) continue;
      if (e.deferred) undefer(e, file);
      writeStateFile(file, e.state);
      e.dirty = false;
      written.push(file);
    }
    return written;
  }
}

/** Parses a seeded state (a DeferredJson is always an object or an array, as seeding takes it). */
function undefer(e: Entry, file: string): void {
  try {
    e.state = e.deferred!.value as AppState;
  } catch (err) {
    throw new Error(`the scenario's state for ${file} is not valid JSON: ${(err as Error).message}`);
  }
  delete e.deferred;
}

function assertNoSharing(file: string, state: unknown): void {
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): void => {
    // Only arrays and plain objects can change; PyFloats and the like are values.
    if (!isContainer(v)) return;
    if (seen.has(v)) throw new StateRuleError(`${file}: ${path} is the same object as another part of the state`);
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(state, '$');
}

const isContainer = (v: unknown): v is object =>
  Array.isArray(v) || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype);

/**
 * A copy of the arrays and plain objects in `v` (values such as PyFloat shared), for values
 * that must not change when a later command changes the state they came from (a command's
 * logged args; its logged return value is kept as text instead: dispatch.ts loggedReturn).
 * Costs what the value's size costs.
 */
export function detached<T>(v: T): T {
  if (Array.isArray(v)) return v.map(detached) as T;
  if (!isContainer(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: detached(x), enumerable: true, writable: true, configurable: true });
    else out[k] = detached(x);
  }
  return out as T;
}
