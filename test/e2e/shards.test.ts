// Shards through the CLI on a real engine: two `run-dataset --shard-id I --num-shards 2`
// invocations (the oracle, the first 4 sample scenarios), then `aggregate`: one merged
// results.jsonl with every scenario once and the shards' verdicts, and a viewer page at the root.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataset, shardSortKey } from '../../runner/src/dataset/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { eachEngine } from './helpers/engines.js';
import { runCli as cli } from './helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { scenario_id: string; split?: string; success: boolean | null; status: string });

describe.each(eachEngine())('dataset shards and aggregate (real containers, %s)', (_kind, e2e) => {
  it('two shard runs and aggregate give every scenario exactly once with the shards’ verdicts', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-shards-')), 'out');
    const run = (i: number) => cli(e2e, ['run-dataset', '-d', 'examples/scenarios', '--limit', '4', '--agent', 'oracle', '--image', image, '-j', '2', '--shard-id', String(i), '--num-shards', '2', '--output-dir', out]);
    const shards = [await run(0), await run(1)];
    for (const s of shards) expect(s.code, s.err).toBe(0);

    const perShard = [0, 1].map((i) => lines(join(out, 'shards', `${i}-of-2`, 'results.jsonl')));
    expect(perShard.map((l) => l.length)).toEqual([2, 2]);
    const expected = (await resolveDataset({ kind: 'local', path: join(root, 'examples/scenarios'), recursive: true, splits: null, subset: null, limit: 4 }, { env: {} })).entries;

    const agg = await cli(e2e, ['aggregate', '--output-dir', out]);
    expect(agg.code, agg.err).toBe(0);
    const merged = lines(join(out, 'results.jsonl'));
    const key = (r: { split?: string; scenario_id: string }) => `${r.split}/${r.scenario_id}`;
    expect(merged.map(key).sort()).toEqual(expected.map(shardSortKey).sort());
    expect(new Set(merged.map(key)).size).toBe(merged.length);
    const shardVerdicts = new Map(perShard.flat().map((r) => [key(r), [r.status, r.success]]));
    for (const r of merged) expect([r.status, r.success]).toEqual(shardVerdicts.get(key(r)));
    expect(merged.every((r) => r.status === 'pass')).toBe(true); // the oracle passes every sample

    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ overall: { runs: 4, passed: 4 } });
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const hrefs = [...html.matchAll(/"href":"([^"]+trace\.html)"/g)].map((m) => m[1]!);
    expect(hrefs).toHaveLength(4);
    for (const h of hrefs) expect(existsSync(join(out, h)), h).toBe(true);
  });
});
