// The split of a selection into shards: round-robin over the scenarios sorted by their place in
// the dataset (relative directory, then id), so every machine computes the same split wherever
// its copy of the dataset lives and whatever order its file system lists it in.
import type { ShardSpec } from '../plan/shard.js';
import type { ScenarioEntry } from './entry.js';

/** Code-unit order, not the locale's: the same on every machine. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The stable identity a shard is chosen by: `<relDir>/<id>` with forward slashes. */
export const shardSortKey = (e: Pick<ScenarioEntry, 'relDir' | 'id'>): string => [...e.relDir.split(/[\\/]/).filter(Boolean), e.id].join('/');

/**
 * Shard `s` of `entries`: those whose position in the sorted list is `s.index` modulo
 * `s.count`, kept in the selection's own order (the order they run in).
 */
export function shardEntries(entries: readonly ScenarioEntry[], s: ShardSpec): ScenarioEntry[] {
  const sorted = [...entries].sort((a, b) => byCodeUnits(shardSortKey(a), shardSortKey(b)) || byCodeUnits(a.file, b.file));
  const mine = new Set(sorted.filter((_, i) => i % s.count === s.index));
  return entries.filter((e) => mine.has(e));
}
