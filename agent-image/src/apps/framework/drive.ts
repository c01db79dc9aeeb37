// Cloud-drive path resolution shared by cloud-drive and the attachment options of emails and
// messaging: "~" is the user's home, a leading "/" is dropped, the result must stay inside
// the drive root (so relative and absolute paths are the same file).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, normalize, relative, resolve, sep } from 'node:path';
import { AppError } from './errors.js';

export interface DrivePath {
  /** Absolute host path. */
  abs: string;
  /** The path after the ~ and leading-slash rewrites (used in error texts). */
  rewritten: string;
}

/** Resolves `p` under `root`; null when it escapes the root. */
export function resolveDrivePath(root: string, p: string): DrivePath | null {
  const absRoot = resolve(root);
  let rel = p;
  if (p === '/') rel = '';
  else if (/^~\/?/.test(p) && !/^~[^/]/.test(p)) rel = p.replace(/^~\/?/, 'home/userhome/');
  else if (/^~[^/]/.test(p)) rel = p.replace(/^~([^/]+)\/?/, 'home/$1/');
  rel = rel.replace(/^\/+/, '');
  const abs = normalize(join(absRoot, rel)).replace(/[/\\]+$/, '') || absRoot;
  const r = relative(absRoot, abs);
  if (r.startsWith('..') || r.split(sep)[0] === '..' || resolve(abs) !== abs) return null;
  return { abs: abs === absRoot + sep ? absRoot : abs, rewritten: rel };
}

/** Reads an attachment given as a drive path: [basename, base64]. Reference error texts. */
export function readAttachment(root: string, p: string, missing: (p: string) => string): [string, string] {
  const r = resolveDrivePath(root, p);
  if (!r) throw new AppError(`Path escapes sandbox: ${p}`);
  if (!existsSync(r.abs) || !statSync(r.abs).isFile()) throw new AppError(missing(p));
  return [basename(r.abs), readFileSync(r.abs).toString('base64')];
}
