// GET /carry: what a universe chain carries out of this unit (contract/carry.ts's one filter),
// opened here and streamed by the artifacts' tar sender: the state dir's app states and its
// cloud drive under `state/`, the agent's home under `home/`, each entry with its kind, mode
// and owner. The world daemon serves it: it owns the state dir, which the agent cannot read,
// and the agent's home is world-readable (0755); an entry it cannot read is named in the
// answer's unreadable header, never fatal (a runner without an archive API has no other way).
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { join, posix } from 'node:path';
import { CARRIED_DRIVE_DIR, isCarriedHomePath, isCarriedStateFile } from '../contract/carry.js';
import { CARRY_TAR_ROOTS } from '../contract/routes.js';
import type { OpenArtifact, OpenedArtifacts } from './artifacts-tar.js';

/** Opens the carried entries of the state dir and the home; the caller streams them (sendTar). */
export function openCarry(stateDir: string, home: string): OpenedArtifacts {
  const out: OpenedArtifacts = { files: [], missing: [], unreadable: [] };
  const state = (rel: string) => isCarriedStateFile(rel) || rel === CARRIED_DRIVE_DIR || rel.startsWith(`${CARRIED_DRIVE_DIR}/`);
  // Each folder walked by its real path, resolved once: openFile's check compares against it.
  walk(realPath(stateDir), '', CARRY_TAR_ROOTS.state, state, out);
  walk(realPath(home), '', CARRY_TAR_ROOTS.home, isCarriedHomePath, out);
  return out;
}

/** The folder's real path (itself when it is missing: the walk then finds nothing). */
function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** Adds `dir/rel`'s carried entries, parents before children; a folder left out is not entered. */
function walk(root: string, rel: string, top: string, carried: (rel: string) => boolean, out: OpenedArtifacts): void {
  let names: string[];
  try {
    names = readdirSync(join(root, rel)).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    out.unreadable.push(posix.join(top, rel));
    return;
  }
  for (const name of names) {
    const path = rel ? `${rel}/${name}` : name;
    if (!carried(path)) continue;
    const entryName = posix.join(top, path);
    let st: Stats;
    try {
      st = lstatSync(join(root, path));
    } catch {
      out.unreadable.push(entryName);
      continue;
    }
    const meta = { name: entryName, mtime: Math.floor(st.mtimeMs / 1000), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
    if (st.isDirectory()) {
      out.files.push({ ...meta, fd: -1, size: 0, kind: 'directory' });
      walk(root, path, top, carried, out);
    } else if (st.isSymbolicLink()) {
      out.files.push({ ...meta, fd: -1, size: 0, kind: 'symlink', linkname: readlinkSync(join(root, path)) });
    } else if (st.isFile()) {
      const opened = openFile(root, join(root, path), meta);
      if (opened) out.files.push(opened);
      else out.unreadable.push(entryName);
    }
  }
}

/**
 * Opens a regular file of the walk, and only if it is still one inside `root`: the agent owns its
 * home and may swap a file or a folder on the way for a link between the look and the open (the
 * daemon may read what the agent may not, its own state first of all). The last component is
 * opened without following a link, and the file opened must lie under `root` (a real path: the
 * open file's own, from /proc/self/fd, is compared with it) and be a regular file.
 */
export function openFile(root: string, path: string, meta: Omit<OpenArtifact, 'fd' | 'size'>): OpenArtifact | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    if (!st.isFile() || !real.startsWith(`${root.replace(/\/+$/, '')}/`)) throw new Error('left its folder');
    return { ...meta, fd, size: st.size };
  } catch {
    closeSync(fd);
    return null;
  }
}
