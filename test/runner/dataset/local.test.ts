// Pinned upstream behaviours (the reference's test_cli_recursive.py) and our fixes.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { artifactDir, comparePaths, inferSplit, loadLocal, readSubsetManifest, resolveDataset, isHfId } from '../../../runner/src/dataset/index.js';
import { writeScenario } from './make-scenario.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ds-'));
});

const local = (path: string, extra: Partial<{ recursive: boolean; splits: string[] | null; subset: string | null; limit: number | null }> = {}) => ({
  kind: 'local' as const,
  path,
  recursive: true,
  splits: null,
  subset: null,
  limit: null,
  ...extra,
});

describe('local datasets', () => {
  it('finds a flat directory and returns it as root', () => {
    writeScenario(join(root, 'a.json'), 'a');
    writeScenario(join(root, 'b.json'), 'b');
    for (const recursive of [true, false]) {
      const r = loadLocal(root, recursive);
      expect(r.root).toBe(root);
      expect(r.entries.map((e) => e.id)).toEqual(['a', 'b']);
    }
  });

  it('searches nested dirs recursively by default, only the top level when non-recursive', async () => {
    writeScenario(join(root, 'search/validation/s1.json'), 's1');
    writeScenario(join(root, 'time/validation/s2.json'), 's2');
    writeScenario(join(root, 'top.json'), 'top');
    expect((await resolveDataset(local(root), { env: {} })).entries.map((e) => e.id)).toEqual(['s1', 's2', 'top']);
    expect(loadLocal(root, false).entries.map((e) => e.id)).toEqual(['top']);
  });

  it('ignores hidden directories and JSON that is not a scenario', () => {
    writeScenario(join(root, 's.json'), 's');
    mkdirSync(join(root, '.cache/huggingface'), { recursive: true });
    writeScenario(join(root, '.cache/huggingface/download.json'), 'hidden');
    writeFileSync(join(root, 'manifest.json'), JSON.stringify({ name: 'x', splits: {} }));
    expect(loadLocal(root, true).entries.map((e) => e.id)).toEqual(['s']);
  });

  it('applies the limit after collection, and after the subset', async () => {
    for (let i = 0; i < 5; i++) writeScenario(join(root, `s${i}.json`), `s${i}`);
    expect((await resolveDataset(local(root, { limit: 3 }), { env: {} })).entries).toHaveLength(3);
    const m = join(root, '..', `m-${Date.now()}.manifest`);
    writeFileSync(m, JSON.stringify({ splits: { search: ['s4', 's1'], time: ['s3'] } }));
    expect((await resolveDataset(local(root, { subset: m, limit: 2 }), { env: {} })).entries.map((e) => e.id)).toEqual(['s1', 's3']);
  });

  it('subset manifest: union across splits; {} selects nothing; no match → empty', async () => {
    const m = join(root, 'x.manifest');
    writeFileSync(m, JSON.stringify({ splits: { search: ['a'], time: ['b', 'a'] } }));
    expect([...readSubsetManifest(m)].sort()).toEqual(['a', 'b']);
    writeFileSync(m, '{}');
    expect(readSubsetManifest(m).size).toBe(0);
    writeScenario(join(root, 'search/a.json'), 'a');
    writeScenario(join(root, 'time/b.json'), 'b');
    expect((await resolveDataset(local(root, { subset: m }), { env: {} })).entries).toHaveLength(0);
    writeFileSync(m, JSON.stringify({ splits: { search: ['a'], time: ['b'] } }));
    expect((await resolveDataset(local(root, { subset: m }), { env: {} })).entries.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('expands a JSONL file to one scenario file per line, with no dataset root', () => {
    const f = join(root, 'set.jsonl');
    writeFileSync(f, [JSON.stringify({ metadata: { definition: { scenario_id: 'x' } }, events: [] }), '', JSON.stringify({ metadata: { definition: { scenario_id: 'y' } }, events: [] })].join('\n'));
    const r = loadLocal(f, true);
    expect(r.root).toBeNull();
    expect(r.entries.map((e) => e.id)).toEqual(['x', 'y']);
    expect(r.entries[1]!.file).toMatch(/scenario_2\.json$/);
  });

  it('a single file is returned as is, with no root', () => {
    const f = writeScenario(join(root, 'one.json'), 'one');
    const r = loadLocal(f, true);
    expect(r.root).toBeNull();
    expect(r.entries.map((e) => e.file)).toEqual([f]);
  });

  it('selects exactly the split directories asked for, sorted by path', async () => {
    for (const s of ['execution', 'search', 'time']) writeScenario(join(root, s, `${s}_1.json`), `${s}_1`);
    const ds = await resolveDataset(local(root, { splits: ['search', 'execution'] }), { env: {} });
    expect(ds.entries.map((e) => e.id)).toEqual(['execution_1', 'search_1']);
    await expect(resolveDataset(local(root, { splits: ['ambiguity'] }), { env: {} })).rejects.toThrow(/Missing split directories under dataset root: .*ambiguity/);
  });

  it('scenario ids fall back to the file stem (one rule everywhere)', () => {
    const f = join(root, 'noid.json');
    writeFileSync(f, JSON.stringify({ events: [] }));
    expect(loadLocal(f, true).entries[0]!.id).toBe('noid');
  });

  it('two scenarios with the same id in one directory are rejected', async () => {
    writeScenario(join(root, 'a.json'), 'same');
    writeScenario(join(root, 'b.json'), 'same');
    await expect(resolveDataset(local(root), { env: {} })).rejects.toThrow(/share the id "same"/);
  });
});

describe('output mirroring and splits', () => {
  it('mirrors the scenario directory under the output dir', () => {
    const d = join(root, 'data');
    writeScenario(join(d, 'search/validation/s1.json'), 's1');
    writeScenario(join(d, 'a/b/c/s2.json'), 's2');
    writeScenario(join(d, 's3.json'), 's3');
    const entries = loadLocal(d, true).entries;
    const byId = Object.fromEntries(entries.map((e) => [e.id, e]));
    expect(artifactDir('/tmp/output', byId.s1!, null)).toBe('/tmp/output/search/validation/s1');
    expect(artifactDir('/tmp/output', byId.s2!, null)).toBe('/tmp/output/a/b/c/s2');
    expect(artifactDir('/tmp/output', byId.s3!, null)).toBe('/tmp/output/s3');
    expect(artifactDir('/tmp/output', byId.s1!, 2)).toBe('/tmp/output/run_2/search/validation/s1');
  });

  it('infers the split from the path under the root, the root name, or the metadata', () => {
    expect(inferSplit('/d/search/validation/s.json', '/d', null)).toBe('search');
    expect(inferSplit('/d/time/s.json', '/d/time', null)).toBe('time');
    expect(inferSplit('/d/time/validation/s.json', '/d/time/validation', null)).toBe('time');
    expect(inferSplit('/tmp/gaia2-scenarios-x/scenario_0.json', null, null)).toBeNull();
    expect(inferSplit('/tmp/x/scenario_0.json', null, 'execution')).toBe('execution');
  });

  it('orders paths component-wise like Python Path sorting', () => {
    expect(['a-c.json', 'a/b.json'].sort(comparePaths)).toEqual(['a/b.json', 'a-c.json']);
  });

  it('detects Hugging Face ids but never a path-looking or existing string', () => {
    expect(isHfId('meta-agents-research-environments/gaia2-cli')).toBe(true);
    expect(isHfId('./a/b')).toBe(false);
    expect(isHfId('/a/b')).toBe(false);
    expect(isHfId('a/b/c')).toBe(false);
    expect(isHfId(root)).toBe(false);
  });
});
