// aggregate: shard folders written by real (faked-engine) shard runs → one results.jsonl, report,
// run_config.json and viewer page at the root; missing shards, mismatched settings, duplicates
// refused with the shards named; an incomplete shard reported. Shard folders are never written.
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { aggregateShards } from '../../../runner/src/shards/index.js';
import { loadRunRecords } from '../../../runner/src/report/index.js';
import { datasetDigest } from '../../../runner/src/provenance/index.js';
import { IDS, keyOf, shardWorkspace } from './shard-runs.js';

let root: string;
let out: string;
let runShard: ReturnType<typeof shardWorkspace>['runShard'];
beforeEach(() => {
  ({ root, out, runShard } = shardWorkspace());
});

const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
const quiet = () => {
  const warnings: string[] = [];
  return { warnings, warn: (l: string) => void warnings.push(l) };
};

/** Every file under `dir` with its size and mtime: a shard folder must not change. */
function snapshot(dir: string): Record<string, string> {
  const acc: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else acc[relative(dir, p)] = `${statSync(p).size}:${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return acc;
}

describe('aggregate of complete shards', () => {
  it('merges results.jsonl (every scenario once, the shards’ verdicts), the report, run_config.json and a viewer linking into the shards', async () => {
    const dirs = [await runShard(0, 2), await runShard(1, 2)];
    const before = dirs.map(snapshot);
    const q = quiet();
    const r = await aggregateShards(out, q);

    expect(r.numShards).toBe(2);
    expect(r.incomplete).toEqual([]);
    const merged = lines(join(out, 'results.jsonl'));
    expect(merged.map((x) => x.scenario_id).sort()).toEqual(IDS);
    const shardVerdicts = new Map(dirs.flatMap((d) => lines(join(d, 'results.jsonl')).map((x) => [x.scenario_id, x.success] as const)));
    expect(shardVerdicts.size).toBe(IDS.length);
    for (const x of merged) expect(x.success).toBe(shardVerdicts.get(x.scenario_id as string));
    expect(merged.find((x) => x.scenario_id === 's_b')?.success).toBe(false);

    const report = readJson(join(out, 'report.json')) as { overall: { runs: number; passed: number; failed: number } };
    expect(report.overall).toMatchObject({ runs: 5, passed: 4, failed: 1 });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/oracle/);

    const rec = readJson(join(out, 'run_config.json')) as { num_scenarios: number; shard?: unknown; target: Record<string, unknown>; aggregate: { num_shards: number; complete: boolean; shards: Array<{ dir: string; results: number; num_scenarios: number }> } };
    expect(rec.num_scenarios).toBe(5);
    expect(rec.shard).toBeUndefined();
    expect(rec.target.shard).toBeUndefined();
    expect(rec.aggregate).toMatchObject({ num_shards: 2, complete: true });
    expect(rec.aggregate.shards.map((s) => [s.dir, s.num_scenarios, s.results])).toEqual([['shards/0-of-2', 3, 3], ['shards/1-of-2', 2, 2]]);

    // the merged page: one row per scenario, each link a trace page inside its shard
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const hrefs = [...html.matchAll(/"href":"([^"]+trace\.html)"/g)].map((m) => m[1]!);
    expect(hrefs).toHaveLength(5);
    for (const h of hrefs) {
      expect(h).toMatch(/^shards\/[01]-of-2\//);
      expect(existsSync(join(out, h))).toBe(true);
    }
    expect(q.warnings).toEqual([]);
    // the shard folders are exactly as their runs left them
    expect(dirs.map(snapshot)).toEqual(before);
    // `report` on the root reads the shards as one run (no shards/… in the scenario keys)
    expect(loadRunRecords(out).map((x) => x.key).sort()).toEqual(IDS.map(keyOf).sort());
    // the root is sealed over every shard's runs, its dataset digest the whole selection's
    const seal = readJson(join(out, 'digests.json')) as { dataset_sha256: string; runs: Record<string, unknown> };
    expect(Object.keys(seal.runs)).toHaveLength(5);
    for (const k of Object.keys(seal.runs)) expect(k).toMatch(/^shards\/[01]-of-2\//);
    expect(readJson(join(out, 'run_config.json')).dataset_sha256).toBe(datasetDigest(readJson(join(out, 'run_config.json')).scenario_hashes as Record<string, string>));
    expect(seal.dataset_sha256).toBe(readJson(join(out, 'run_config.json')).dataset_sha256);
  }, 30_000);

  it('merges pass@N shards by scenario and run', async () => {
    await runShard(0, 2, { passAt: '2' });
    await runShard(1, 2, { passAt: '2' });
    const r = await aggregateShards(out, quiet());
    expect(r.results).toBe(10);
    const merged = lines(join(out, 'results.jsonl'));
    expect(merged.map((x) => `${x.run_index}:${x.scenario_id}`).sort()).toEqual(IDS.flatMap((id) => [`1:${id}`, `2:${id}`]).sort());
    expect(readJson(join(out, 'report.json'))).toMatchObject({ overall: { runs: 10 } });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/shards\/1-of-2\/index\.html/);
  });
});

describe('aggregate refuses', () => {
  it('a missing shard, named, and writes nothing', async () => {
    await runShard(0, 3);
    await runShard(2, 3);
    await expect(aggregateShards(out, quiet())).rejects.toThrow(/missing shard 1-of-3 of 3/);
    expect(existsSync(join(out, 'results.jsonl'))).toBe(false);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  });

  it('shards that disagree on the number of shards', async () => {
    await runShard(0, 2);
    await runShard(1, 3);
    await expect(aggregateShards(out, quiet())).rejects.toThrow(/disagree on the number of shards: shards\/0-of-2 \(2 shards\); shards\/1-of-3 \(3 shards\)/);
  });

  it('shards of different runs: the shard and the field are named', async () => {
    await runShard(0, 2);
    const other = await runShard(1, 2);
    const file = join(other, 'run_config.json');
    const rec = readJson(file);
    writeFileSync(file, JSON.stringify({ ...rec, agent_options: { ...(rec.agent_options as object), model: 'another-model' } }));
    await expect(aggregateShards(out, quiet())).rejects.toThrow(new RegExp(`${file}: model is "another-model" but shards/0-of-2 has null`));
  });

  it('a scenario run in two shards, naming both folders', async () => {
    const a = await runShard(0, 2);
    const b = await runShard(1, 2);
    const [moved] = lines(join(a, 'results.jsonl'));
    const rel = join(moved!.split as string, moved!.scenario_id as string);
    cpSync(join(a, rel), join(b, rel), { recursive: true });
    await expect(aggregateShards(out, quiet())).rejects.toThrow(`${rel} is in both shards/0-of-2 and shards/1-of-2`);
  });

  it('a folder whose record is not a shard’s, naming the file', async () => {
    await runShard(0, 1);
    const file = join(out, 'shards', '0-of-1', 'run_config.json');
    const { shard: _s, ...rest } = readJson(file);
    writeFileSync(file, JSON.stringify(rest));
    await expect(aggregateShards(out, quiet())).rejects.toThrow(`${file}: field "shard" is missing`);
  });

  it('a directory without shards', async () => {
    await expect(aggregateShards(root, quiet())).rejects.toThrow(/no shards\/ folder/);
  });
});

describe('an incomplete shard', () => {
  it('is merged as far as it goes and reported by name (not an error)', async () => {
    await runShard(0, 2);
    const b = await runShard(1, 2);
    const [gone] = lines(join(b, 'results.jsonl'));
    rmSync(join(b, gone!.split as string, gone!.scenario_id as string), { recursive: true });
    const q = quiet();
    const r = await aggregateShards(out, q);
    expect(r.incomplete).toEqual([{ rel: 'shards/1-of-2', results: 1, planned: 2 }]);
    expect(q.warnings.join('\n')).toMatch(/shards\/1-of-2 is incomplete: 1 of 2 planned results/);
    expect(lines(join(out, 'results.jsonl'))).toHaveLength(4);
    expect(readJson(join(out, 'run_config.json'))).toMatchObject({ aggregate: { complete: false } });
  });
});

describe('a shard resumed with --retry', () => {
  it('reruns only its unjudged runs in its own folder, then aggregates complete', async () => {
    await runShard(0, 2);
    const b = await runShard(1, 2, {}, (id) => (id === 't_a' ? { status: 'error', kind: 'agent_unhealthy' } : 'pass'));
    expect(lines(join(b, 'results.jsonl')).map((x) => x.status).sort()).toEqual(['error', 'pass']);
    const again = await runShard(1, 2, { retry: true }, () => 'pass');
    expect(again).toBe(b);
    expect(lines(join(b, 'results.jsonl')).map((x) => x.status)).toEqual(['pass', 'pass']);
    expect(readJson(join(b, 'run_config.json'))).toMatchObject({ retry_num_scenarios: 1, shard: { shard_id: 1, num_shards: 2, num_scenarios: 2, dataset_num_scenarios: 5 } });
    const r = await aggregateShards(out, quiet());
    expect(r.incomplete).toEqual([]);
    // shard 1 holds s_b and t_a (positions 1 and 3 of the sorted five), both passed on retry
    expect(lines(join(out, 'results.jsonl')).map((x) => `${x.scenario_id}:${x.status}`)).toEqual(['s_a:pass', 's_b:pass', 's_c:pass', 't_a:pass', 't_b:pass']);
  });
});
