// The streamed ways in and out of our image (features files-stream and artifacts-tar), through
// a real container: a scenario of megabytes put with PUT /files lands byte for byte as the
// same file put the old way (POST /files, base64 in JSON) and as the engine's archive copy
// reads it; a scenario changed after planning never lands; the artifacts of a finished run
// collected as a tar stream are byte-identical to the JSON answer's, and to the archive's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_PATHS, IMAGE_FEATURES } from '@gaia2/contract';
import { connectEngine, type ContainerHandle, type UnitBackend } from '../../runner/src/engine/index.js';
import { DatasetError, readScenarioEntry, scenarioContent } from '../../runner/src/dataset/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { createLateScenarioUnit } from './helpers/late-scenario-unit.js';
import { AdapterClient } from '../../runner/src/run/adapter-client.js';
import { universe } from '../../bench/lib/universe.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const label = { 'gaia2.test': `streamed-${process.pid}` };
const token = 'e2e-stream-token-0123456789';
const work = mkdtempSync(join(tmpdir(), 'gaia2-streamed-'));
// A universe of real size (≈4.5 MB): the oracle still passes on it.
const scenarioFile = join(work, 'scenario.json');
let engine: UnitBackend;
let c: ContainerHandle;
let client: AdapterClient;

beforeAll(async () => {
  writeFileSync(scenarioFile, universe(250));
  engine = await connectEngine();
  c = await createLateScenarioUnit(engine, image, token, label);
  await c.start();
  client = new AdapterClient(await c.adapter(8090), token);
  for (let i = 0; i < 200 && !(await client.health().then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
}, 120_000);

afterAll(async () => {
  await client?.close();
  for (const u of await engine.listByLabels(label)) await engine.remove(u.id);
  await engine.close();
  rmSync(work, { recursive: true, force: true });
});

describe('streamed transfer in and out of our image (real container)', () => {
  it('the image advertises both features', async () => {
    const features = (await engine.images!.labels(image))?.['gaia2.features']?.split(',') ?? [];
    expect(features).toEqual(expect.arrayContaining([IMAGE_FEATURES.filesStream, IMAGE_FEATURES.artifactsTar]));
  });

  it('a changed scenario is refused mid-stream and leaves nothing in the container', async () => {
    const copy = join(work, 'changed.json');
    writeFileSync(copy, readFileSync(scenarioFile));
    const content = scenarioContent(readScenarioEntry(copy, null));
    // Same size, other bytes: only the hash can tell.
    const bytes = readFileSync(copy);
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x20 ? 0x0a : 0x20;
    writeFileSync(copy, bytes);
    const err = await client.putFilesStreamed([{ path: '/var/gaia2/changed.json', content, mode: 0o644 }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toContain('changed after the run was planned');
    expect(await c.readFile('/var/gaia2/changed.json')).toBeNull();
  }, 60_000);

  it('a scenario streamed from disk lands byte for byte as the JSON upload and the archive read it; the run passes', async () => {
    const original = readFileSync(scenarioFile);
    expect(original.length).toBeGreaterThan(4e6);
    await client.putFiles([{ path: '/var/gaia2/old-way.json', content: original, mode: 0o644 }]);
    const content = scenarioContent(readScenarioEntry(scenarioFile, null));
    await client.putFilesStreamed([
      { path: CONTAINER_PATHS.scenario, content, mode: 0o644 },
      { path: CONTAINER_PATHS.scenarioReady, content: '', mode: 0o644 },
    ]);
    const [streamed, old] = [await c.readFile(CONTAINER_PATHS.scenario), await c.readFile('/var/gaia2/old-way.json')];
    expect(streamed!.equals(original)).toBe(true);
    expect(old!.equals(original)).toBe(true);
    for (let i = 0; i < 1200; i++) {
      const s = await client.status().catch(() => null);
      if (s && ['complete', 'error', 'stopped'].includes(s.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await client.status()).judgment?.success).toBe(true);
  }, 180_000);

  it('artifacts collected as a tar stream are byte-identical to the JSON answer and the archive copy', async () => {
    const tar = await client.artifactsTar();
    const json = await client.artifacts();
    expect([...tar.files.keys()].sort()).toEqual([...json.files.keys()].sort());
    expect(tar.files.size).toBeGreaterThan(4);
    for (const [name, bytes] of json.files) expect(tar.files.get(name)!.equals(bytes), name).toBe(true);
    expect(tar.unreadable).toEqual(json.unreadable);
    expect(tar.files.get('events.jsonl')!.equals((await c.readFile(CONTAINER_PATHS.events))!)).toBe(true);
    expect(tar.files.get('events.jsonl')!.length).toBeGreaterThan(100);
  }, 60_000);
});
