// Local datasets (docs/runner.md, "Datasets"): a directory (recursive or not, hidden parts skipped,
// non-scenario JSON skipped), a .jsonl file (one scenario per line), or a single file.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { DatasetError } from './errors.js';
import { parseScenarioBytes, readScenarioEntry, readScenarioFile, toEntry } from './read-scenario.js';
import type { ScenarioEntry } from './entry.js';

/** Component-wise path order, like Python's sorted() on Path objects. */
export function comparePaths(a: string, b: string): number {
  const pa = a.split(sep);
  const pb = b.split(sep);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}

function walk(dir: string, recursive: boolean, out: string[]): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.name.startsWith('.')) continue;
    const p = join(dir, d.name);
    if (d.isDirectory()) {
      if (recursive) walk(p, recursive, out);
    } else if (d.name.endsWith('.json')) out.push(p);
  }
}

/** Scenario files of a directory, sorted; JSON that is not a scenario (manifests) is skipped. */
export function loadDirectory(root: string, recursive: boolean): ScenarioEntry[] {
  const files: string[] = [];
  walk(root, recursive, files);
  files.sort((a, b) => comparePaths(relative(root, a), relative(root, b)));
  const out: ScenarioEntry[] = [];
  for (const f of files) {
    const read = readScenarioFile(f, root, true); // null: JSON that is not a scenario
    if (read) out.push(read.entry);
  }
  return out;
}

/** Expands a JSONL file into one scenario file per line in a fresh temp directory. */
export function loadJsonl(file: string, workDir?: string): ScenarioEntry[] {
  const dir = workDir ?? mkdtempSync(join(tmpdir(), 'gaia2-scenarios-'));
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: ScenarioEntry[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    const scenario = parseScenarioBytes(line, where)!;
    const target = join(dir, `scenario_${i}.json`);
    writeFileSync(target, line);
    out.push(toEntry(target, scenario, null, line));
  });
  return out;
}

export function loadLocal(path: string, recursive: boolean): { entries: ScenarioEntry[]; root: string | null } {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new DatasetError(`Dataset path does not exist: ${path}`);
  }
  if (st.isDirectory()) return { entries: loadDirectory(path, recursive), root: path };
  if (path.endsWith('.jsonl')) return { entries: loadJsonl(path), root: null };
  return { entries: [readScenarioEntry(path, null)], root: null };
}
