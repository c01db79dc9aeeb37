// Dataset shards: one evaluation split across machines. Shard I of N runs the scenarios whose
// place in the sorted selection is I modulo N (dataset/shard.ts) and writes a complete run into
// <output-dir>/shards/<I>-of-<N>/; `gaia2-runner aggregate` merges the folders (shards/).
// The names here are the layout both sides agree on.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './errors.js';

export interface ShardSpec {
  /** 0-based: 0 ≤ index < count. */
  index: number;
  count: number;
}

/** The folder under the output directory that holds one folder per shard. */
export const SHARDS_DIR = 'shards';

const SHARD_NAME = /^(\d+)-of-(\d+)$/;

/** `2-of-4`: the folder name of shard 2 of 4. */
export const shardDirName = (s: ShardSpec): string => `${s.index}-of-${s.count}`;

/** <output-dir>/shards/<I>-of-<N>: where a shard's run goes. */
export const shardOutputDir = (outputDir: string, s: ShardSpec): string => join(outputDir, SHARDS_DIR, shardDirName(s));

/** The shard a folder name stands for, or null when it is not `<I>-of-<N>` with I < N. */
export function parseShardDirName(name: string): ShardSpec | null {
  const m = SHARD_NAME.exec(name);
  if (!m) return null;
  const s = { index: Number(m[1]), count: Number(m[2]) };
  return s.count >= 1 && s.index < s.count ? s : null;
}

/**
 * The shard asked for, checked: both values or neither, count ≥ 1, 0 ≤ index < count. `names`
 * are the flag or key names the messages use (--shard-id / [run].shard_id).
 */
export function checkShard(index: number | undefined, count: number | undefined, names: { index: string; count: string }): ShardSpec | null {
  if (index === undefined && count === undefined) return null;
  if (index === undefined) throw new ConfigError(`${names.count} needs ${names.index} (give both, or neither for an unsharded run)`);
  if (count === undefined) throw new ConfigError(`${names.index} needs ${names.count} (give both, or neither for an unsharded run)`);
  if (!Number.isInteger(count) || count < 1) throw new ConfigError(`${names.count} must be an integer >= 1 (got ${count})`);
  if (!Number.isInteger(index) || index < 0 || index >= count)
    throw new ConfigError(`${names.index} must be an integer from 0 to ${count - 1} (${names.count} is ${count}; got ${index})`);
  return { index, count };
}

export interface ShardFolderName {
  spec: ShardSpec;
  /** `shards/2-of-4`: relative to the root, with forward slashes (messages and links). */
  rel: string;
  dir: string;
}

/**
 * The `<I>-of-<N>` folders under <root>/shards, ordered by N then I; anything else there (and
 * hidden entries) is not a shard and is left out. None: not an aggregate root.
 */
export function listShardFolders(root: string): ShardFolderName[] {
  const base = join(root, SHARDS_DIR);
  let names: string[];
  try {
    names = readdirSync(base, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, spec: parseShardDirName(name) }))
    .filter((x): x is { name: string; spec: ShardSpec } => x.spec !== null)
    .sort((a, b) => a.spec.count - b.spec.count || a.spec.index - b.spec.index)
    .map((x) => ({ spec: x.spec, rel: `${SHARDS_DIR}/${x.name}`, dir: join(base, x.name) }));
}
