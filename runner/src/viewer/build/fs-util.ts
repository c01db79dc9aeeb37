// Directory walking and atomic, write-if-changed output for the generator.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../fsutil/atomic.js';
import { join, relative, sep } from 'node:path';
import { SCENARIO_MARKERS } from '../model/artifacts.js';

const naturalCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const naturalCompare = (a: string, b: string): number => naturalCollator.compare(a, b);

export function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort(naturalCompare);
  } catch {
    return [];
  }
}

/** Run dirs of a pass@N root: children named run_<n>. */
export const runDirsOf = (root: string): string[] => subdirs(root).filter((n) => /^run_\d+$/.test(n));

/**
 * Scenario run dirs below `root` (not root itself), as POSIX relative ids in natural order,
 * each with the names of the files it holds. A scenario dir is a leaf: its subfolders are
 * not searched.
 */
export function discoverScenarios(root: string): Map<string, string[]> {
  const found: Array<[string, string[]]> = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const files = entries.filter((e) => e.isFile()).map((e) => e.name);
    if (dir !== root && SCENARIO_MARKERS.some((m) => files.includes(m))) {
      found.push([relative(root, dir).split(sep).join('/'), files]);
      return;
    }
    if (depth > 6) return;
    for (const e of entries) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') walk(join(dir, e.name), depth + 1);
    }
  };
  walk(root, 0);
  return new Map(found.sort((a, b) => naturalCompare(a[0], b[0])));
}

/** Writes through a temp file and rename so a served page is never half-written. The folder must exist. */
export function writeAtomic(path: string, content: string | Buffer): void {
  writeFileAtomicSync(path, content);
}

/** Atomic write, skipped when the file already holds exactly this content. */
export function writeIfChanged(path: string, content: string): boolean {
  try {
    if (readFileSync(path, 'utf8') === content) return false;
  } catch {
    // new file
  }
  writeAtomic(path, content);
  return true;
}
