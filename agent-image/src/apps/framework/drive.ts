// Cloud-drive path resolution shared by cloud-drive and the attachment options of emails and
// messaging: "~" is the user's home, a leading "/" is dropped, the result must stay inside
// the drive root (so relative and absolute paths are the same file).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError } from './errors.js';

export interface DrivePath {
  /** Absolute host path. */
  abs: string;
  /** The path after the ~ and leading-slash rewrites (used in error texts). */
  rewritten: string;
}

/** The reference's rewrites before joining to the root: "/" → root, "~" and "~/" → home/userhome/, no leading "/". */
export function rewriteDrivePath(p: string): string {
  if (p === '/') return '';
  // The reference applies `^~/?` first, so "~bob/x" also lands in home/userhome/ (bob/x).
  return p.replace(/^~\/?/, 'home/userhome/').replace(/^\/+/, '');
}

/** Resolves `p` under `root`; null when it escapes the root. */
export function resolveDrivePath(root: string, p: string): DrivePath | null {
  const absRoot = resolve(root);
  const rel = rewriteDrivePath(p);
  const abs = rel === '' ? absRoot : resolve(absRoot, rel);
  const r = relative(absRoot, abs);
  if (r === '..' || r.startsWith('..' + sep) || isAbsolute(r)) return null;
  return { abs, rewritten: rel };
}

/** Writes a downloaded file into drive folder `dir` (created as needed); returns its absolute path. */
export function saveToDrive(root: string, dir: string, name: string, bytes: Buffer): string {
  const target = resolveDrivePath(root, dir);
  if (!target) throw new AppError(`Path escapes sandbox: ${dir}`);
  mkdirSync(target.abs, { recursive: true });
  const file = join(target.abs, name);
  writeFileSync(file, bytes);
  return file;
}

/** Reads an attachment given as a drive path: [basename, base64]. Reference error texts. */
export function readAttachment(root: string, p: string, missing: (p: string) => string): [string, string] {
  const r = resolveDrivePath(root, p);
  if (!r) throw new AppError(`Path escapes sandbox: ${p}`);
  if (!existsSync(r.abs) || !statSync(r.abs).isFile()) throw new AppError(missing(p));
  return [basename(r.abs), readFileSync(r.abs).toString('base64')];
}
