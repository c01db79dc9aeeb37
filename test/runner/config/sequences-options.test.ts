// --sequences and [target].sequences: a path (relative to the config), only on dataset targets,
// never with a subset or shards, and only with an output directory.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planFromDatasetFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';

let dir: string;
let flags: DatasetFlags;
let seq: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seq-cfg-'));
  writeScenario(join(dir, 'data/search/s1.json'), 's1');
  seq = join(dir, 'chains.jsonl');
  writeFileSync(seq, '{"universe_id": "u", "scenarios": [{"scenario_id": "s1"}]}\n');
  writeFileSync(join(dir, 'subset.json'), '{"splits": {"search": ["s1"]}}');
  const { scenario: _s, ...agent } = defaultRunFlags('');
  flags = { ...agent, agent: 'oracle', dataset: join(dir, 'data'), concurrency: '1', passAt: '1', revision: 'main' };
});

describe('run-dataset --sequences', () => {
  it('puts the file on the target', () => {
    const p = planFromDatasetFlags({ ...flags, sequences: seq, outputDir: join(dir, 'out') }, {});
    expect(p.target.kind === 'local' && p.target.sequences).toBe(seq);
  });
  it('needs --output-dir, refuses --subset and shards, and a missing file', () => {
    expect(() => planFromDatasetFlags({ ...flags, sequences: seq }, {})).toThrow(/--sequences requires --output-dir/);
    expect(() => planFromDatasetFlags({ ...flags, sequences: seq, outputDir: join(dir, 'out'), subset: join(dir, 'subset.json') }, {})).toThrow(/--sequences cannot be used with --subset/);
    expect(() => planFromDatasetFlags({ ...flags, sequences: seq, outputDir: join(dir, 'out'), shardId: '0', numShards: '2' }, {})).toThrow(/--sequences cannot be used with --num-shards/);
    expect(() => planFromDatasetFlags({ ...flags, sequences: join(dir, 'none.jsonl'), outputDir: join(dir, 'out') }, {})).toThrow(/--sequences/);
  });
});

describe('[target].sequences', () => {
  const toml = (target: string, run = `output_dir = "out"`) => {
    const f = join(dir, 'run.toml');
    writeFileSync(f, `[target]\n${target}\n[agent]\nname = "oracle"\n[run]\n${run}\n`);
    return f;
  };
  it('is relative to the config', () => {
    const p = loadRunConfig(toml(`dataset_root = "data"\nsequences = "chains.jsonl"`), {});
    expect(p.target.kind === 'local' && p.target.sequences).toBe(seq);
  });
  it('names the keys it conflicts with', () => {
    expect(() => loadRunConfig(toml(`dataset_root = "data"\nsequences = "chains.jsonl"`, ''), {})).toThrow(/\[target\]\.sequences requires \[run\]\.output_dir/);
    expect(() => loadRunConfig(toml(`dataset_root = "data"\nsequences = "chains.jsonl"\nsubset_manifest = "subset.json"`), {})).toThrow(/\[target\]\.sequences cannot be used with \[target\]\.subset_manifest/);
    expect(() => loadRunConfig(toml(`scenario = "data/search/s1.json"\nsequences = "chains.jsonl"`, ''), {})).toThrow(/\[target\]\.sequences chains the scenarios of a dataset target/);
  });
});
