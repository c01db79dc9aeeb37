// The split into shards: round-robin over the selection sorted by relative dir + id, after
// subset and limit, the same wherever the dataset lives; every scenario in exactly one shard.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveDataset, shardEntries, shardSortKey, type ScenarioEntry } from '../../../runner/src/dataset/index.js';
import type { Target } from '../../../runner/src/plan/plan.js';
import { writeScenario } from './make-scenario.js';

let root: string;
let data: string;
// 7 scenarios over two splits; the file names sort differently from the ids on purpose.
const FILES: Array<[string, string]> = [
  ['search/z1.json', 'a_search'],
  ['search/y2.json', 'b_search'],
  ['search/x3.json', 'c_search'],
  ['time/w4.json', 'a_time'],
  ['time/v5.json', 'b_time'],
  ['execution/u6.json', 'a_exec'],
  ['execution/t7.json', 'b_exec'],
];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'shard-'));
  data = join(root, 'data');
  for (const [f, id] of FILES) writeScenario(join(data, f), id);
});

const target = (path: string, extra: Partial<Extract<Target, { kind: 'local' }>> = {}): Target => ({ kind: 'local', path, recursive: true, splits: null, subset: null, limit: null, ...extra });
const ids = (es: readonly ScenarioEntry[]) => es.map((e) => shardSortKey(e));

describe('shardEntries', () => {
  it('deals the sorted selection round-robin: shard I gets positions I, I+N, I+2N…', async () => {
    const all = (await resolveDataset(target(data), { env: {} })).entries;
    const sorted = ids(all).sort();
    expect(sorted).toEqual(['execution/a_exec', 'execution/b_exec', 'search/a_search', 'search/b_search', 'search/c_search', 'time/a_time', 'time/b_time']);
    expect(ids(shardEntries(all, { index: 0, count: 3 })).sort()).toEqual([sorted[0], sorted[3], sorted[6]]);
    expect(ids(shardEntries(all, { index: 1, count: 3 })).sort()).toEqual([sorted[1], sorted[4]]);
    expect(ids(shardEntries(all, { index: 2, count: 3 })).sort()).toEqual([sorted[2], sorted[5]]);
  });

  it('puts every scenario in exactly one shard, for any number of shards', async () => {
    const all = (await resolveDataset(target(data), { env: {} })).entries;
    for (const n of [1, 2, 3, 4, 7, 9]) {
      const parts = Array.from({ length: n }, (_, i) => ids(shardEntries(all, { index: i, count: n })));
      expect(parts.flat().sort()).toEqual(ids(all).sort());
      expect(new Set(parts.flat()).size).toBe(all.length);
      // round-robin: sizes differ by at most one
      const sizes = parts.map((p) => p.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('does not depend on the order it is given nor on where the dataset lives', async () => {
    const all = (await resolveDataset(target(data), { env: {} })).entries;
    const elsewhere = join(root, 'another', 'copy');
    cpSync(data, elsewhere, { recursive: true });
    const copy = (await resolveDataset(target(elsewhere), { env: {} })).entries;
    for (let i = 0; i < 3; i++) {
      const a = ids(shardEntries(all, { index: i, count: 3 }));
      expect(ids(shardEntries([...all].reverse(), { index: i, count: 3 })).sort()).toEqual([...a].sort());
      expect(ids(shardEntries(copy, { index: i, count: 3 }))).toEqual(a);
    }
  });

  it('keeps the selection order within a shard (the order the runs start in)', async () => {
    const all = (await resolveDataset(target(data), { env: {} })).entries;
    const mine = shardEntries(all, { index: 0, count: 2 });
    const positions = mine.map((e) => all.indexOf(e));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe('resolveDataset with a shard', () => {
  it('splits after --limit: the shards of a limited run cover exactly the limited selection', async () => {
    const limited = (await resolveDataset(target(data, { limit: 4 }), { env: {} })).entries;
    expect(limited).toHaveLength(4);
    const parts = await Promise.all([0, 1].map((i) => resolveDataset(target(data, { limit: 4, shard: { index: i, count: 2 } }), { env: {} })));
    expect(parts.map((p) => p.entries.length)).toEqual([2, 2]);
    expect(parts.flatMap((p) => ids(p.entries)).sort()).toEqual(ids(limited).sort());
    // what run_config.json records: this shard, and the whole selection's size
    expect(parts[1]!.shard).toEqual({ index: 1, count: 2, selected: 4 });
  });

  it('splits after --subset: only the manifest scenarios are dealt out', async () => {
    const manifest = join(root, 'subset.json');
    writeFileSync(manifest, JSON.stringify({ splits: { search: ['a_search', 'c_search'], time: ['b_time'] } }));
    const parts = await Promise.all([0, 1].map((i) => resolveDataset(target(data, { subset: manifest, shard: { index: i, count: 2 } }), { env: {} })));
    expect(parts.flatMap((p) => ids(p.entries)).sort()).toEqual(['search/a_search', 'search/c_search', 'time/b_time']);
    expect(parts.map((p) => p.entries.length)).toEqual([2, 1]);
    expect(parts[0]!.shard?.selected).toBe(3);
  });

  it('an unsharded target has no shard facts', async () => {
    expect((await resolveDataset(target(data), { env: {} })).shard).toBeUndefined();
  });
});
