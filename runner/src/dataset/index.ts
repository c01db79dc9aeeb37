// Dataset resolution: a target → the ordered list of scenarios to run (subset, splits, limit).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CANONICAL_SPLITS, MULTILINGUAL_SPLITS, type Target } from '../plan/plan.js';
import { DatasetError } from './errors.js';
import { comparePaths, loadDirectory, loadLocal } from './local.js';
import { readSubsetManifest } from './manifest.js';
import { ensureHfSplits } from './hf.js';
import { readScenarioEntry } from './read-scenario.js';
import type { ScenarioEntry } from './entry.js';
import { shardEntries } from './shard.js';

export { DatasetError } from './errors.js';
export { artifactDir, inferSplit, type ScenarioEntry } from './entry.js';
export { loadDirectory, loadJsonl, loadLocal, comparePaths } from './local.js';
export { readSubsetManifest } from './manifest.js';
export { ensureHfSplits, hfCacheRoot, hfConfigName, hfDatasetDir } from './hf.js';
export { readScenarioEntry, scenarioContent, readScenarioFile, scenarioParses } from './read-scenario.js';
export { firstUserTask } from './first-task.js';
export { shardEntries, shardSortKey } from './shard.js';

export interface ResolvedDataset {
  entries: ScenarioEntry[];
  /** Root that artifact directories mirror (null = flat). */
  root: string | null;
  /** HF cache dir (HF targets only). */
  cacheDir: string | null;
  /** Splits actually selected (concrete list), null when no split filter applies. */
  splits: string[] | null;
  /** HF targets: the commit sha of each split's download (null: not resolved). */
  revisionShas?: Record<string, string | null>;
  /** A sharded target: which shard, and how many scenarios the whole selection has (all shards). */
  shard?: { index: number; count: number; selected: number };
}

/** `org/name` that is not an existing local path (spec §4.7, minus the relative-path trap). */
export function isHfId(s: string): boolean {
  if (/^[/~.]/.test(s) || existsSync(s)) return false;
  const parts = s.split('/');
  return parts.length === 2 && parts.every((p) => /^[\w.-]+$/.test(p));
}

function loadSplitDirs(root: string, splits: string[], recursive: boolean): ScenarioEntry[] {
  const missing = splits.map((s) => join(root, s)).filter((d) => !existsSync(d) || !statSync(d).isDirectory());
  if (missing.length) throw new DatasetError(`Missing split directories under dataset root: ${missing.join(', ')}`);
  const all = splits.flatMap((s) => loadDirectory(join(root, s), recursive).map((e) => ({ ...e, relDir: join(s, e.relDir), split: s })));
  return all.sort((a, b) => comparePaths(a.file, b.file));
}

export async function resolveDataset(target: Target, o: { env: Record<string, string | undefined>; log?: (l: string) => void }): Promise<ResolvedDataset> {
  if (target.kind === 'scenario') return { entries: [readScenarioEntry(target.scenario, null)], root: null, cacheDir: null, splits: null };
  let entries: ScenarioEntry[];
  let root: string | null;
  let cacheDir: string | null = null;
  let splits = target.splits;
  let revisionShas: Record<string, string | null> | undefined;
  if (target.kind === 'hf') {
    const wanted = splits ?? [...(target.language ? MULTILINGUAL_SPLITS : CANONICAL_SPLITS)];
    const hf = await ensureHfSplits({ repo: target.repo, revision: target.revision, splits: wanted, language: target.language ?? null, refresh: target.refresh, env: o.env, log: o.log });
    root = cacheDir = hf.dir;
    revisionShas = hf.shas;
    entries = loadSplitDirs(root, wanted, true); // exactly the splits asked for (spec §10.2)
    splits = wanted;
  } else if (splits) {
    root = target.path;
    entries = loadSplitDirs(root, splits, target.recursive);
  } else {
    ({ entries, root } = loadLocal(target.path, target.recursive));
  }
  if (target.subset) {
    const ids = readSubsetManifest(target.subset);
    const before = entries.length;
    entries = entries.filter((e) => ids.has(e.id));
    o.log?.(`Subset filter: ${entries.length}/${before} scenarios match ${target.subset}`);
  }
  if (target.limit !== null) entries = entries.slice(0, target.limit);
  const seen = new Map<string, string>();
  for (const e of entries) {
    const key = join(e.relDir, e.id);
    const prev = seen.get(key);
    if (prev) throw new DatasetError(`two scenarios share the id "${e.id}" in ${e.relDir || 'the dataset root'}: ${prev} and ${e.file}`);
    seen.set(key, e.file);
  }
  // After subset and limit, so every shard splits the same selection (docs/runner.md, Shards).
  const selected = entries.length;
  if (target.shard) entries = shardEntries(entries, target.shard);
  return { entries, root, cacheDir, splits, ...(revisionShas ? { revisionShas } : {}), ...(target.shard ? { shard: { ...target.shard, selected } } : {}) };
}
