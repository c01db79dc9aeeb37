// The cloud drive's directory tree (app_state.files of the Files app) made real under the
// drive root, as the reference's gaia2-init does. A universe of real size holds tens of
// thousands of entries, one file-system call each: seconds on a slow disk. So the world
// daemon does not build it before it answers: DriveBuild does the work in small slices
// between other work, and whoever needs the tree complete (a command that reads or writes
// the drive, the end of the run) calls finish(), which does the rest at once.
import { constants, copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { resolveDrivePath } from './framework/drive.js';
import { undeferred } from '../contract/pyjson.js';

interface DriveNode {
  name?: unknown;
  type?: unknown;
  children?: unknown;
  real_path?: unknown;
}

/**
 * One file-system call per step; root name ignored; files copied from the backing dir when
 * present. A state still deferred is parsed at the first step (after boot).
 */
function* driveSteps(root: string, state: object, backingDir: string | undefined): Generator<void> {
  mkdirSync(root, { recursive: true });
  const files = (undeferred(state) as { files?: unknown } | null)?.files;
  if (files && typeof files === 'object') yield* walk(files as DriveNode, root, backingDir);
}

function* walk(node: DriveNode, dir: string, backingDir: string | undefined): Generator<void> {
  if (!Array.isArray(node.children)) return;
  for (const child of node.children as DriveNode[]) {
    if (!child || typeof child !== 'object' || typeof child.name !== 'string' || child.name === '') continue;
    const target = resolveDrivePath(dir, child.name);
    if (!target) continue; // a name with ".." would leave the drive
    if (child.type === 'directory') {
      mkdirSync(target.abs, { recursive: true });
      yield;
      yield* walk(child, target.abs, backingDir);
      continue;
    }
    // The walk created this file's folder already, unless its name leads elsewhere ("~/x", "a/b").
    if (dirname(target.abs) !== resolve(dir)) mkdirSync(dirname(target.abs), { recursive: true });
    const src = backingDir && typeof child.real_path === 'string' ? join(backingDir, child.real_path) : undefined;
    // A file already there is kept: a universe chain's runner wrote it before the unit started,
    // with what the scenario before left in it (docs/protocol.md, "Universe chains"). The
    // exclusive flags make that check part of the one call the file costs anyway.
    keepExisting(() => {
      if (src && existsSync(src) && statSync(src).isFile()) copyFileSync(src, target.abs, constants.COPYFILE_EXCL);
      else writeFileSync(target.abs, '', { flag: 'wx' });
    });
    yield;
  }
}

function keepExisting(make: () => void): void {
  try {
    make();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** Wall milliseconds of one background slice: short enough that a command waiting behind it does not notice. */
const SLICE_MS = 4;

export class DriveBuild {
  private steps: Generator<void> | null;
  private timer: NodeJS.Immediate | null = null;
  /** What stopped a background slice; finish() throws it to whoever needs the tree. */
  private failure: Error | null = null;

  constructor(root: string, state: object, backingDir: string | undefined) {
    this.steps = driveSteps(root, state, backingDir);
  }

  get done(): boolean {
    return this.steps === null;
  }

  /** Builds the tree in slices between other work (the event loop stays free). */
  background(): this {
    const slice = (): void => {
      this.timer = null;
      const until = performance.now() + SLICE_MS;
      try {
        while (this.steps && performance.now() < until) this.step();
      } catch (e) {
        this.failure = e as Error;
      }
      if (this.steps) this.timer = setImmediate(slice);
    };
    if (this.steps && !this.timer) this.timer = setImmediate(slice);
    return this;
  }

  /** The rest of the tree, now. */
  finish(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = null;
    if (this.failure) throw new Error(`cannot build the cloud drive's tree: ${this.failure.message}`);
    while (this.steps) this.step();
  }

  private step(): void {
    try {
      if (this.steps!.next().done) this.steps = null;
    } catch (e) {
      this.steps = null; // the error is the caller's (as a synchronous build's would be); no retry
      throw e;
    }
  }
}
