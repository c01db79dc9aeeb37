import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveDataset, DatasetError, hfDatasetDir } from '../../../runner/src/dataset/index.js';
import { startFakeHub, scenarioParquet, type FakeHub } from '../../helpers/fake-hub/index.js';
import { scenarioJson } from './make-scenario.js';

const REPO = 'meta-agents-research-environments/gaia2-cli';
const rows = (split: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ scenario_id: `${split}_${i}`, scenario: JSON.stringify(scenarioJson(`${split}_${i}`)) }));

describe('Hugging Face datasets through the Hub API', () => {
  let hub: FakeHub;
  let env: Record<string, string>;
  beforeEach(async () => {
    hub = await startFakeHub();
    env = { GAIA2_HF_CACHE: mkdtempSync(join(tmpdir(), 'hf-cache-')), HF_ENDPOINT: hub.url };
    hub.setFile(REPO, 'search/test-00000-of-00001.parquet', scenarioParquet(rows('search', 3)));
    hub.setFile(REPO, 'time/test-00000-of-00001.parquet', scenarioParquet(rows('time', 2)));
    hub.setFile(REPO, 'execution/test-00000-of-00002.parquet', scenarioParquet(rows('execution', 1)));
    hub.setFile(REPO, 'execution/test-00001-of-00002.parquet', scenarioParquet(rows('execution', 2).slice(1)));
    hub.setFile(REPO, 'README.md', 'readme');
  });
  afterEach(async () => {
    await hub.stop();
  });

  const target = (splits: string[] | null, extra = {}) => ({ kind: 'hf' as const, repo: REPO, revision: 'main', splits, subset: null, limit: null, ...extra });

  it('records the commit a branch resolved to; a cached copy keeps it until --refresh-dataset', async () => {
    const first = await resolveDataset(target(['search']), { env });
    const sha1 = first.revisionShas!.search!;
    expect(sha1).toMatch(/^[0-9a-f]{40}$/);
    // The branch moves on the Hub.
    hub.setFile(REPO, 'search/test-00000-of-00001.parquet', scenarioParquet(rows('search', 4)));
    const cachedAgain = await resolveDataset(target(['search']), { env });
    expect(cachedAgain.revisionShas).toEqual({ search: sha1 });
    expect(cachedAgain.entries).toHaveLength(3);
    const refreshed = await resolveDataset(target(['search'], { refresh: true }), { env });
    expect(refreshed.revisionShas!.search).toMatch(/^[0-9a-f]{40}$/);
    expect(refreshed.revisionShas!.search).not.toBe(sha1);
    expect(refreshed.entries).toHaveLength(4);
    expect(hub.requests.filter((p) => p.includes('/revision/main'))).toHaveLength(2);
  });

  it('downloads the selected splits into the reference cache layout', async () => {
    const ds = await resolveDataset(target(['search', 'execution']), { env });
    const dir = hfDatasetDir(REPO, env);
    expect(ds.cacheDir).toBe(dir);
    expect(dir.endsWith('meta-agents-research-environments_gaia2-cli')).toBe(true);
    expect(readdirSync(join(dir, 'search')).sort()).toEqual(['search_0.json', 'search_1.json', 'search_2.json']);
    expect(readdirSync(join(dir, 'execution')).sort()).toEqual(['execution_0.json', 'execution_1.json']);
    expect(existsSync(join(dir, 'time'))).toBe(false);
    expect(ds.entries.map((e) => e.id)).toEqual(['execution_0', 'execution_1', 'search_0', 'search_1', 'search_2']);
    expect(ds.entries.every((e) => e.split === e.id.split('_')[0])).toBe(true);
    expect(ds.entries[0]!.relDir).toBe('execution');
    const manifest = JSON.parse(readFileSync(join(dir, '.gaia2-cache', 'search.json'), 'utf8'));
    expect(manifest).toMatchObject({ repo: REPO, revision: 'main', split: 'search', rows: 3 });
    // the row text is kept verbatim
    expect(JSON.parse(readFileSync(join(dir, 'search', 'search_1.json'), 'utf8')).metadata.definition.scenario_id).toBe('search_1');
  });

  it('reuses the cache offline: a second run works with the server stopped', async () => {
    await resolveDataset(target(['search']), { env });
    const before = hub.requests.length;
    expect(before).toBeGreaterThan(0);
    await hub.stop();
    const logs: string[] = [];
    const ds = await resolveDataset(target(['search']), { env, log: (l) => logs.push(l) });
    expect(ds.entries).toHaveLength(3);
    expect(logs.join('\n')).toContain('Using cached dataset');
    hub = await startFakeHub(); // afterEach stops it again
  });

  it('runs exactly the splits asked for even when the cache holds more', async () => {
    await resolveDataset(target(['search', 'time']), { env });
    const ds = await resolveDataset(target(['time']), { env });
    expect(ds.entries.map((e) => e.id)).toEqual(['time_0', 'time_1']);
    expect(ds.splits).toEqual(['time']);
  });

  it('applies subset and limit after the splits', async () => {
    const ds = await resolveDataset(target(['search'], { limit: 2 }), { env });
    expect(ds.entries.map((e) => e.id)).toEqual(['search_0', 'search_1']);
  });

  it('sends HF_TOKEN as a bearer token', async () => {
    await resolveDataset(target(['time']), { env: { ...env, HF_TOKEN: 'hf_secret_token_123' } });
    expect(hub.authHeaders).toContain('Bearer hf_secret_token_123');
  });

  it('pins a revision: files of another revision are fetched into a fresh cache entry', async () => {
    hub.setFile(REPO, 'time/test-00000-of-00001.parquet', scenarioParquet(rows('time', 1)), 'v2');
    await resolveDataset(target(['time']), { env });
    const ds = await resolveDataset(target(['time'], { revision: 'v2' }), { env });
    expect(ds.entries.map((e) => e.id)).toEqual(['time_0']);
    expect(JSON.parse(readFileSync(join(hfDatasetDir(REPO, env), '.gaia2-cache', 'time.json'), 'utf8')).revision).toBe('v2');
  });

  it('a bad parquet file is a clear error and leaves no half-written split', async () => {
    hub.setFile(REPO, 'ambiguity/test-00000-of-00001.parquet', 'this is not parquet at all, just text');
    await expect(resolveDataset(target(['ambiguity']), { env })).rejects.toThrow(/ambiguity\/test-00000-of-00001\.parquet: not a readable parquet file/);
    expect(existsSync(join(hfDatasetDir(REPO, env), 'ambiguity'))).toBe(false);
    // and the next run retries instead of trusting a partial cache
    hub.setFile(REPO, 'ambiguity/test-00000-of-00001.parquet', scenarioParquet(rows('ambiguity', 1)));
    expect((await resolveDataset(target(['ambiguity']), { env })).entries).toHaveLength(1);
  });

  it('a row whose scenario is not JSON names the file, the row and the column', async () => {
    hub.setFile(REPO, 'adaptability/test-00000-of-00001.parquet', scenarioParquet([...rows('adaptability', 1), { scenario_id: 'broken', scenario: '{not json' }]));
    const err = await resolveDataset(target(['adaptability']), { env }).catch((e) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect(err.message).toMatch(/adaptability\/test-00000-of-00001\.parquet row 1: column "scenario" is not valid JSON/);
  });

  it('a missing split on the Hub is a clear error', async () => {
    await expect(resolveDataset(target(['ambiguity']), { env })).rejects.toThrow(/split "ambiguity": not found/);
  });
});
