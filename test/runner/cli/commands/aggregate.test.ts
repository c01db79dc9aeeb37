// `gaia2-runner aggregate`: exit 0 merged, 3 merged with an incomplete shard named, 2 refused.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../config/in-process-cli.js';
import { shardWorkspace } from '../../shards/shard-runs.js';

describe('gaia2-runner aggregate', () => {
  it('merges complete shards: exit 0, the report printed, the files at the root', async () => {
    const w = shardWorkspace();
    await w.runShard(0, 2);
    await w.runShard(1, 2);
    const r = await runCliInProcess(['aggregate', '--output-dir', w.out], w.root);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Merged 5 result\(s\) of 2 shard\(s\)/);
    for (const f of ['results.jsonl', 'report.json', 'report.md', 'run_config.json', 'index.html']) expect(existsSync(join(w.out, f))).toBe(true);
  });

  it('an incomplete shard: merged, named on stderr, exit 3', async () => {
    const w = shardWorkspace();
    await w.runShard(0, 2);
    const b = await w.runShard(1, 2);
    const first = JSON.parse(readFileSync(join(b, 'results.jsonl'), 'utf8').split('\n')[0]!) as { split: string; scenario_id: string };
    rmSync(join(b, first.split, first.scenario_id), { recursive: true });
    const r = await runCliInProcess(['aggregate', '--output-dir', w.out], w.root);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/Incomplete shard\(s\): shards\/1-of-2 \(1\/2\)/);
    expect(existsSync(join(w.out, 'results.jsonl'))).toBe(true);
  });

  it('a missing shard: exit 2, nothing written', async () => {
    const w = shardWorkspace();
    await w.runShard(1, 2);
    const r = await runCliInProcess(['aggregate', '--output-dir', w.out], w.root);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/missing shard 0-of-2 of 2/);
    expect(existsSync(join(w.out, 'results.jsonl'))).toBe(false);
  });

  it('--help shows an example', async () => {
    const r = await runCliInProcess(['aggregate', '--help'], process.cwd());
    expect(r.out + r.err).toMatch(/\$ gaia2-runner aggregate --output-dir out\//);
  });
});
