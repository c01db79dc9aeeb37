// File operations of the cloud drive on the real directory tree under the drive root. Paths
// are resolved with the shared drive rules (framework/drive.ts); error texts quote the path as
// the caller typed it, like the reference.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { pyFloat } from '../../contract/pyjson.js';
import { resolveDrivePath, rewriteDrivePath } from '../framework/drive.js';
import { fail } from '../framework/errors.js';
import { codepointCompare } from '../framework/py-builtins.js';

/** Absolute host path of a drive path; fails for paths that leave the drive. */
export function real(root: string, p: string): string {
  const r = resolveDrivePath(root, p);
  return r ? r.abs : fail(`Operation not allowed outside sandbox: ${rewriteDrivePath(p)}`);
}

/** "/" + path relative to the root ("/" for the root itself). */
export function driveName(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '/' : '/' + rel;
}

export const isDir = (abs: string): boolean => existsSync(abs) && statSync(abs).isDirectory();

/** Python os.path.dirname (keeps a lone leading "/", drops trailing slashes of the head). */
export function pyDirname(p: string): string {
  const head = p.slice(0, p.lastIndexOf('/') + 1);
  return head && !/^\/+$/.test(head) ? head.replace(/\/+$/, '') : head;
}

/** First `n` code points, as Python's s[:n]. */
export const headChars = (s: string, n: number): string => Array.from(s).slice(0, n).join('');
export const charCount = (s: string): number => Array.from(s).length;

export const sortedEntries = (dir: string): string[] => readdirSync(dir).sort(codepointCompare);

/** UTF-8 text with universal newlines (Python text mode); null for undecodable bytes. */
export function readText(abs: string): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(abs));
    return text.replace(/\r\n?/g, '\n');
  } catch {
    return null;
  }
}

export interface Entry {
  name: string;
  size: number;
  type: 'file' | 'directory';
}

export function entryInfo(root: string, abs: string): Entry {
  return { name: driveName(root, abs), size: statSync(abs).size, type: isDir(abs) ? 'directory' : 'file' };
}

/** stat times as Python floats (st_ctime / st_mtime). */
export function times(abs: string): { created: unknown; modified: unknown } {
  const st = statSync(abs, { bigint: true });
  return { created: pyFloat(Number(st.ctimeNs) / 1e9), modified: pyFloat(Number(st.mtimeNs) / 1e9) };
}

/** The reference tree text: root label, then "├── "/"└── " lines indented 4 spaces per level. */
export function treeText(abs: string): string {
  const lines: string[] = [];
  const walk = (dir: string, level: number): void => {
    const items = sortedEntries(dir);
    items.forEach((name, i) => {
      lines.push(`${'    '.repeat(level)}${i === items.length - 1 ? '└── ' : '├── '}${name}`);
      const child = `${dir}/${name}`;
      if (isDir(child)) walk(child, level + 1);
    });
  };
  walk(abs, 0);
  const label = basename(abs) || '/';
  return `${label}\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`;
}
