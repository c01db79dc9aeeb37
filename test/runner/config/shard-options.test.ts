// --shard-id/--num-shards and [run].shard_id/num_shards: checked with the flag or key named, the
// shard on the target, the output in <output-dir>/shards/<I>-of-<N>/, kept by a rerun.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planFromDatasetFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { planFromRunRecord } from '../../../runner/src/config/from-run-record.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { parseRunRecord, toRecord } from '../../../runner/src/record/index.js';
import { checkShard, parseShardDirName, shardDirName } from '../../../runner/src/plan/shard.js';
import { phasePlan } from '../../../runner/src/phases/phase-plans.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';
import { runCliInProcess } from './in-process-cli.js';

let dir: string;
let flags: DatasetFlags;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shard-cfg-'));
  writeScenario(join(dir, 'data/search/s1.json'), 's1');
  writeScenario(join(dir, 'one.json'), 'one');
  const { scenario: _s, ...agent } = defaultRunFlags('');
  flags = { ...agent, agent: 'oracle', dataset: join(dir, 'data'), concurrency: '1', passAt: '1', revision: 'main' };
});

describe('checkShard and the folder name', () => {
  const names = { index: '--shard-id', count: '--num-shards' };
  it('takes both values or neither', () => {
    expect(checkShard(undefined, undefined, names)).toBeNull();
    expect(checkShard(2, 4, names)).toEqual({ index: 2, count: 4 });
    expect(() => checkShard(1, undefined, names)).toThrow(/--shard-id needs --num-shards/);
    expect(() => checkShard(undefined, 3, names)).toThrow(/--num-shards needs --shard-id/);
  });
  it('wants N >= 1 and 0 <= I < N, whole numbers', () => {
    expect(() => checkShard(0, 0, names)).toThrow(/--num-shards must be an integer >= 1 \(got 0\)/);
    expect(() => checkShard(0, 1.5, names)).toThrow(/--num-shards must be an integer >= 1/);
    expect(() => checkShard(4, 4, names)).toThrow(/--shard-id must be an integer from 0 to 3 \(--num-shards is 4; got 4\)/);
    expect(() => checkShard(-1, 4, names)).toThrow(/--shard-id must be an integer from 0 to 3/);
  });
  it('names a shard folder <I>-of-<N> and reads it back', () => {
    expect(shardDirName({ index: 3, count: 8 })).toBe('3-of-8');
    expect(parseShardDirName('3-of-8')).toEqual({ index: 3, count: 8 });
    for (const bad of ['8-of-8', 'x-of-2', '1of2', '1-of-0', 'run_1']) expect(parseShardDirName(bad)).toBeNull();
  });
});

describe('run-dataset flags', () => {
  it('put the shard on the target and the output in <output-dir>/shards/<I>-of-<N>', () => {
    const p = planFromDatasetFlags({ ...flags, shardId: '1', numShards: '3', outputDir: join(dir, 'out') }, {});
    expect(p.target).toMatchObject({ kind: 'local', shard: { index: 1, count: 3 } });
    expect(p.run.outputDir).toBe(join(dir, 'out', 'shards', '1-of-3'));
    expect(formatSummary(p, 1).join('\n')).toMatch(/Shard: 1 of 3/);
  });
  it('without them nothing changes', () => {
    const p = planFromDatasetFlags({ ...flags, outputDir: join(dir, 'out') }, {});
    expect(p.target).not.toHaveProperty('shard');
    expect(p.run.outputDir).toBe(join(dir, 'out'));
  });
  it('are refused with the flag named', () => {
    const out = { outputDir: join(dir, 'out') };
    expect(() => planFromDatasetFlags({ ...flags, ...out, shardId: '0' }, {})).toThrow(/--shard-id needs --num-shards/);
    expect(() => planFromDatasetFlags({ ...flags, ...out, numShards: '2' }, {})).toThrow(/--num-shards needs --shard-id/);
    expect(() => planFromDatasetFlags({ ...flags, ...out, shardId: '0', numShards: '0' }, {})).toThrow(/--num-shards must be >= 1/);
    expect(() => planFromDatasetFlags({ ...flags, ...out, shardId: '0', numShards: 'two' }, {})).toThrow(/--num-shards must be an integer/);
    expect(() => planFromDatasetFlags({ ...flags, ...out, shardId: '2', numShards: '2' }, {})).toThrow(/--shard-id must be an integer from 0 to 1/);
    expect(() => planFromDatasetFlags({ ...flags, ...out, shardId: '-1', numShards: '2' }, {})).toThrow(/--shard-id must be >= 0/);
    expect(() => planFromDatasetFlags({ ...flags, shardId: '0', numShards: '2' }, {})).toThrow(/--num-shards requires --output-dir/);
  });
  it('gaia2-run refuses them (its phases write fixed folders)', () => {
    const src = { kind: 'flags' as const, flags: { ...flags, shardId: '0', numShards: '2', outputDir: join(dir, 'out') }, env: {} };
    expect(() => phasePlan('standard', src, { root: join(dir, 'out'), runs: 1, miniSubset: null, retry: false })).toThrow(/gaia2-run does not run shards/);
  });
});

describe('[run].shard_id / num_shards', () => {
  const toml = (run: string, target = `dataset_root = "${join(dir, 'data')}"`) => {
    const f = join(dir, 'c.toml');
    writeFileSync(f, `[target]\n${target}\n[agent]\nname = "oracle"\n[run]\n${run}\n`);
    return f;
  };
  it('shard the dataset target into <output_dir>/shards/<I>-of-<N>, the default results copy with it', () => {
    const p = loadRunConfig(toml(`shard_id = 0\nnum_shards = 2\noutput_dir = "${join(dir, 'out')}"`), {});
    expect(p.target).toMatchObject({ shard: { index: 0, count: 2 } });
    expect(p.run.outputDir).toBe(join(dir, 'out', 'shards', '0-of-2'));
    expect(p.run.output).toBe(join(dir, 'out', 'shards', '0-of-2', 'results.jsonl'));
  });
  it('are refused with the key named', () => {
    const out = `output_dir = "${join(dir, 'out')}"`;
    expect(() => loadRunConfig(toml(`shard_id = 0\n${out}`), {})).toThrow(/\[run\]\.shard_id needs \[run\]\.num_shards/);
    expect(() => loadRunConfig(toml(`shard_id = 5\nnum_shards = 2\n${out}`), {})).toThrow(/\[run\]\.shard_id must be an integer from 0 to 1/);
    expect(() => loadRunConfig(toml(`shard_id = 0\nnum_shards = 2.0\n${out}`), {})).toThrow(/num_shards/);
    expect(() => loadRunConfig(toml('shard_id = 0\nnum_shards = 2'), {})).toThrow(/\[run\]\.num_shards requires \[run\]\.output_dir/);
    expect(() => loadRunConfig(toml(`shard_id = 0\nnum_shards = 2\n${out}`, `scenario = "${join(dir, 'one.json')}"`), {})).toThrow(/not \[target\]\.scenario/);
  });
});

describe('a shard run record', () => {
  it('reruns the same shard into <new output-dir>/shards/<I>-of-<N>', () => {
    const p = planFromDatasetFlags({ ...flags, shardId: '1', numShards: '2', outputDir: join(dir, 'out') }, {});
    const rec = parseRunRecord({ ...toRecord(p), schema_version: 2 }, 'x.json');
    const again = planFromRunRecord(rec, join(dir, 'out/shards/1-of-2/run_config.json'), {}, { outputDir: join(dir, 'again') });
    expect(again.target).toMatchObject({ shard: { index: 1, count: 2 } });
    expect(again.run.outputDir).toBe(join(dir, 'again', 'shards', '1-of-2'));
  });
  it('a record from before shards (no target.shard) still reads, unsharded', () => {
    const p = planFromDatasetFlags({ ...flags, outputDir: join(dir, 'out') }, {});
    const rec = toRecord(p) as unknown as Record<string, unknown>;
    delete (rec.target as Record<string, unknown>).shard;
    const again = planFromRunRecord(parseRunRecord({ ...rec, schema_version: 1 }, 'old/run_config.json'), 'old/run_config.json', {}, { outputDir: join(dir, 'again') });
    expect(again.target).not.toHaveProperty('shard');
    expect(again.run.outputDir).toBe(join(dir, 'again'));
  });
  it('a recorded shard outside its count is refused naming the file', () => {
    const p = planFromDatasetFlags({ ...flags, shardId: '1', numShards: '2', outputDir: join(dir, 'out') }, {});
    const rec = toRecord(p) as unknown as Record<string, unknown>;
    (rec.target as Record<string, unknown>).shard = { index: 2, count: 2 };
    expect(() => planFromRunRecord(parseRunRecord({ ...rec, schema_version: 2 }, 'x.json'), 'x/run_config.json', {}, { outputDir: join(dir, 'again') })).toThrow(/target\.shard\.index in x\/run_config\.json must be an integer from 0 to 1/);
  });
});

describe('run-config --shard-id / --num-shards (what a SLURM task runs)', () => {
  const cfg = (run: string) => {
    const f = join(dir, 'c.toml');
    writeFileSync(f, `[target]\ndataset_root = "${join(dir, 'data')}"\nsplits = ["search"]\n[agent]\nname = "oracle"\n[run]\noutput_dir = "out"\n${run}`);
    return f;
  };
  it('replace the file’s [run] values: the shard goes to <output_dir>/shards/<I>-of-<N>', async () => {
    const a = await runCliInProcess(['run-config', cfg(''), '--shard-id', '1', '--num-shards', '3', '--dry-run'], dir);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain(join(dir, 'out', 'shards', '1-of-3'));
    // a file's count with the task's shard id; the flags win over the file's pair
    const b = await runCliInProcess(['run-config', cfg('num_shards = 4\n'), '--shard-id', '2', '--dry-run'], dir);
    expect(b.out).toContain(join(dir, 'out', 'shards', '2-of-4'));
    const c = await runCliInProcess(['run-config', cfg('shard_id = 0\nnum_shards = 4\n'), '--shard-id', '3', '--num-shards', '5', '--dry-run'], dir);
    expect(c.out).toContain(join(dir, 'out', 'shards', '3-of-5'));
  });
  it('refuse what is no shard, naming the flag', async () => {
    const bad = await runCliInProcess(['run-config', cfg(''), '--shard-id', 'x', '--num-shards', '2', '--dry-run'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--shard-id must be an integer \(got "x"\)/);
    const over = await runCliInProcess(['run-config', cfg(''), '--shard-id', '3', '--num-shards', '2', '--dry-run'], dir);
    expect(over.err).toMatch(/\[run\]\.shard_id must be an integer from 0 to 1/);
  });
});
