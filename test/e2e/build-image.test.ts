// The fresh-machine path, proven on every run: the global setup starts a Docker Engine with an
// EMPTY data root (no base image) on a machine without a registry, and builds the agent image
// there: the pull fails, the offline root filesystem is imported through the engine API as the
// base, the image is built on it. Here: that this is what happened, and what it left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE, OFFLINE_BASE, PUBLIC_BASE } from '../../runner/src/image/index.js';
import { connectE2eEngine, e2eEngines, eachEngine } from './helpers/engines.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

describe('build-image on a machine with no base image and no registry (Docker Engine, empty data root)', () => {
  const docker = e2eEngines().find((e) => e.kind === 'docker');
  let engine: UnitBackend;
  beforeAll(async () => {
    if (docker) engine = await connectE2eEngine(docker);
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('runs on a Docker Engine that held no image before the suite', () => {
    expect(docker, 'the global setup starts a Docker Engine (scripts/setup-docker.sh)').toBeDefined();
    expect(docker!.imagesAtStart).toBe(0);
  });

  it('tried the registry, saw the pull fail, and imported the offline base through the engine', () => {
    const log = docker!.buildLog.join('\n');
    expect(log).toContain(`trying to pull ${PUBLIC_BASE}`);
    expect(log).toMatch(new RegExp(`pull of ${PUBLIC_BASE.replace(/[.:/]/g, '\\$&')} (failed|ended without the image|: no answer)`));
    expect(log).toContain(`as ${OFFLINE_BASE} through the engine`);
    expect(log).toContain(`building ${image} on ${OFFLINE_BASE}`);
  });

  it('left the offline base and the agent image (with its content hash) in the engine, and no public base', async () => {
    expect(await engine.images!.exists(OFFLINE_BASE)).toBe(true);
    expect(await engine.images!.exists(PUBLIC_BASE)).toBe(false);
    expect((await engine.images!.labels(image))?.['gaia2.context-hash']).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe.each(eachEngine())('the agent image on %s', (_kind, e2e) => {
  it('is present and labelled with its content hash', async () => {
    const engine = await connectE2eEngine(e2e);
    try {
      const labels = await engine.images!.labels(image);
      expect(labels?.['gaia2.context-hash']).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      await engine.close();
    }
  });
});
