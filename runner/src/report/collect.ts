// Reads every result.json under an output directory (hidden dirs skipped), sorted by path; an
// aggregated root's shard folders (shards/<I>-of-<N>/) read as one run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ScenarioResult, RunStatus } from '@gaia2/contract/result';
import { comparePaths } from '../dataset/local.js';
import { parseShardDirName, SHARDS_DIR } from '../plan/shard.js';

export interface RunRecord {
  path: string;
  /** Scenario identity across runs: mirrored dir + id, without the run_k part. */
  key: string;
  runIndex: number;
  split: string | null;
  status: RunStatus;
  result: ScenarioResult;
}

/** pass | fail | error from our status field, else from `success` like the reference. */
export function classify(r: Partial<ScenarioResult>): RunStatus {
  if (r.status === 'pass' || r.status === 'fail' || r.status === 'error') return r.status;
  return r.success === true ? 'pass' : r.success === false ? 'fail' : 'error';
}

function walk(dir: string, out: string[]): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.name.startsWith('.')) continue;
    const p = join(dir, d.name);
    if (d.isDirectory()) walk(p, out);
    else if (d.name === 'result.json') out.push(p);
  }
}

export function loadRunRecords(root: string, warn: (l: string) => void = () => {}): RunRecord[] {
  if (!existsSync(root)) return [];
  const files: string[] = [];
  walk(root, files);
  files.sort((a, b) => comparePaths(relative(root, a), relative(root, b)));
  const out: RunRecord[] = [];
  for (const f of files) {
    let result: ScenarioResult;
    try {
      result = JSON.parse(readFileSync(f, 'utf8')) as ScenarioResult;
      if (!result || typeof result !== 'object') throw new Error('not an object');
    } catch {
      warn(`Skipping unreadable result file: ${f}`);
      continue;
    }
    const parts = relative(root, f).split(sep).slice(0, -1);
    // An aggregated root (docs/runner.md, Shards): a shard's folder is not part of the scenario's identity.
    if (parts[0] === SHARDS_DIR && parseShardDirName(parts[1] ?? '')) parts.splice(0, 2);
    let runIndex = typeof result.run_index === 'number' ? result.run_index : 1;
    const m = /^run_(\d+)$/.exec(parts[0] ?? '');
    if (m) {
      runIndex = Number(m[1]);
      parts.shift();
    }
    const split = typeof result.split === 'string' ? result.split : parts.length >= 2 ? parts[0]! : null;
    out.push({ path: f, key: parts.join('/'), runIndex, split, status: classify(result), result });
  }
  return out;
}
