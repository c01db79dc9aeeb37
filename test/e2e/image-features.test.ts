// Our image's additions to the contract, through real containers: the scenario sent after
// start over POST /files (the daemon waits for the marker; a CA bundle still goes in at create), every artifact in one GET /artifacts answer, and
// POST /shutdown ending the container. An image without the gaia2.features label (as the
// reference images) is driven the reference way and passes the same.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_PATHS, ENV, IMAGE_FEATURES, IMAGE_FEATURES_LABEL } from '@gaia2/contract';
import { connectEngine, type UnitBackend, type ContainerHandle, type ContainerSpec } from '../../runner/src/engine/index.js';
import { CA_BUNDLE_PATH } from '../../runner/src/env/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { createLateScenarioUnit } from './helpers/late-scenario-unit.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../runner/src/run/index.js';
import { AdapterClient } from '../../runner/src/run/adapter-client.js';
import { collectArtifacts } from '../../runner/src/run/artifacts.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const plainImage = 'localhost/gaia2-agent-e2e:no-features';
const label = { 'gaia2.test': `features-${process.pid}` };
const scenarioFile = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
let engine: UnitBackend;

beforeAll(async () => {
  engine = await connectEngine();
  // The same image with the feature label emptied: what the runner sees of a reference image.
  const ctx = mkdtempSync(join(tmpdir(), 'gaia2-plain-image-'));
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${image}\nLABEL ${IMAGE_FEATURES_LABEL}=""\n`);
  await engine.images!.build({ contextDir: ctx, tag: plainImage });
}, 120_000);

afterAll(async () => {
  for (const c of await engine.listByLabels(label)) await engine.remove(c.id);
  await engine.close();
});

async function untilComplete(client: AdapterClient): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const s = await client.status().catch(() => null);
    if (s && ['complete', 'error', 'stopped'].includes(s.status)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('scenario did not finish');
}

describe("our image's contract additions (real containers)", () => {
  it('labels the image with its features', async () => {
    const labels = await engine.images!.labels(image);
    expect(labels?.[IMAGE_FEATURES_LABEL]?.split(',').sort()).toEqual(Object.values(IMAGE_FEATURES).sort());
  });

  it('scenario after start through POST /files, artifacts over HTTP (no archive), shutdown ends the container with code 0', async () => {
    const token = 'e2e-token-0123456789';
    const c = await createLateScenarioUnit(engine, image, token, label);
    try {
      await c.start();
      // Late on purpose: the daemon must wait for the marker, not fail on a missing scenario.
      await new Promise((r) => setTimeout(r, 500));
      const client = new AdapterClient(await c.adapter(8090), token);
      // The adapter listens a moment after the container starts (longer on a busy machine): the
      // files go in at its first answer, still before the daemon has a scenario.
      for (const until = Date.now() + 60_000; ; ) {
        try {
          await client.putFiles([
            { path: CONTAINER_PATHS.scenario, content: readFileSync(scenarioFile), mode: 0o644 },
            { path: CONTAINER_PATHS.scenarioReady, content: '' },
          ]);
          break;
        } catch (e) {
          const why = `${(e as { code?: string }).code ?? ''} ${(e as Error).message}`;
          if (Date.now() > until || !/ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|other side closed|socket hang up/.test(why)) throw e;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      await untilComplete(client);
      expect((await client.status()).judgment?.success).toBe(true);

      // A handle whose archive reads fail: the artifacts can only have come over HTTP.
      const noArchive: ContainerHandle = Object.assign(Object.create(c) as ContainerHandle, {
        readFiles: () => Promise.reject(new Error('archive used')),
      });
      const files = await collectArtifacts(noArchive, client);
      expect(files.get('events.jsonl')?.toString()).toContain('"fn": "checkout"');
      expect(JSON.parse(files.get('daemon_status.json')!.toString())).toMatchObject({ status: 'complete' });
      expect(files.get('eventd.log')?.toString()).toContain('world ready');
      // Same bytes as the engine's archive copy.
      expect(files.get('events.jsonl')).toEqual(await c.readFile(CONTAINER_PATHS.events));

      await client.shutdown();
      let state = await c.state();
      for (let i = 0; i < 100 && state.running; i++) {
        await new Promise((r) => setTimeout(r, 50));
        state = await c.state();
      }
      expect(state).toMatchObject({ running: false, exitCode: 0 });
    } finally {
      await c.remove();
    }
  }, 120_000);

  it('an image without the label gets the reference path (files before start, archives, forced removal) and passes', async () => {
    const results = [];
    for (const img of [plainImage, image]) {
      const dir = mkdtempSync(join(tmpdir(), 'gaia2-features-run-'));
      const r = await runScenario({
        engine, image: img, scenarioFile, outputDir: dir, env: {}, agent: 'oracle', network: 'bridge',
        timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 120 }, labels: label,
      });
      results.push({ r, events: readFileSync(join(dir, 'events.jsonl'), 'utf8'), status: readFileSync(join(dir, 'daemon_status.json'), 'utf8') });
    }
    for (const { r, events, status } of results) {
      expect(r.status).toBe('pass');
      expect(events.trim().split('\n').length).toBeGreaterThan(0);
      expect(JSON.parse(status)).toMatchObject({ status: 'complete' });
    }
    expect(results[0]!.r.num_agent_events).toBe(results[1]!.r.num_agent_events);
    expect(await engine.listByLabels(label)).toEqual([]);
  }, 180_000);

  it("a file outside the adapter's reach (a CA bundle) goes in at create; the scenario still comes over the adapter", async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
    const specs: ContainerSpec[] = [];
    let unit: ContainerHandle | null = null;
    // The engine as the run sees it, keeping what was asked of it and the unit it made.
    const watched: UnitBackend = Object.assign(Object.create(engine) as UnitBackend, {
      create: async (spec: ContainerSpec) => {
        specs.push(spec);
        return (unit = await engine.create(spec));
      },
    });
    let cleanup: (() => Promise<void>) | null = null;
    const r = await runScenario({
      engine: watched, image, scenarioFile, outputDir: mkdtempSync(join(tmpdir(), 'gaia2-features-ca-')), env: {}, agent: 'oracle', network: 'bridge',
      timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 120 }, labels: label,
      files: [{ path: CA_BUNDLE_PATH, content: pem, mode: 0o644 }],
      onCleanup: (c) => {
        cleanup = c;
      },
    });
    try {
      expect(r.status).toBe('pass');
      expect(specs.map((s) => s.files?.map((f) => f.path))).toEqual([[CA_BUNDLE_PATH]]);
      expect(specs[0]!.env[ENV.scenarioReady]).toBe(CONTAINER_PATHS.scenarioReady);
      // still running (its removal was handed over): the bundle is where the agent's TLS looks
      expect((await unit!.readFile(CA_BUNDLE_PATH))?.toString()).toBe(pem);
      expect((await unit!.readFile(CONTAINER_PATHS.scenario))?.toString()).toBe(readFileSync(scenarioFile, 'utf8'));
    } finally {
      await (cleanup as (() => Promise<void>) | null)?.();
    }
    expect(await engine.listByLabels(label)).toEqual([]);
  }, 120_000);
});
