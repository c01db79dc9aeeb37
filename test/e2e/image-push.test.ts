// build-image --push through the engine API: the test image tagged REGISTRY/NAME:TAG and pushed
// to a real registry (Debian's docker-registry, started here on 127.0.0.1 only; installed by
// scripts/setup-registry.sh), which then serves its manifest; a registry that does not answer
// is a clear error.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Docker from 'dockerode';
import { existingSockets } from '../../runner/src/engine/discover.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
let registry: ChildProcess;
let port = 0;
let engine: UnitBackend;
/** Tags this suite created (removed afterwards; the image itself stays). */
const pushed: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-registry-'));
  writeFileSync(join(dir, 'config.yml'), `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${dir}/data\nhttp:\n  addr: 127.0.0.1:${port}\n`);
  registry = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/v2/`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  engine = await connectEngine();
}, 30_000);

afterAll(async () => {
  registry?.kill('SIGTERM');
  const socketPath = process.env.DOCKER_HOST?.replace(/^unix:\/\//, '') ?? existingSockets()[0];
  const docker = new Docker({ socketPath });
  for (const ref of pushed) await docker.getImage(ref).remove({ noprune: true }).catch(() => {});
  await engine?.close();
});

describe('build-image --push (engine API)', () => {
  it('pushes the image to a registry, which then serves it', async () => {
    const ref = `127.0.0.1:${port}/gaia2-e2e/agent:push-${process.pid}`;
    const lines: string[] = [];
    pushed.push(ref);
    await engine.images!.push(image, ref, { onProgress: (l) => lines.push(l) });
    expect(lines.length).toBeGreaterThan(0);
    const tags = (await (await fetch(`http://127.0.0.1:${port}/v2/gaia2-e2e/agent/tags/list`)).json()) as { tags: string[] };
    expect(tags.tags).toContain(`push-${process.pid}`);
    const manifest = await fetch(`http://127.0.0.1:${port}/v2/gaia2-e2e/agent/manifests/push-${process.pid}`, {
      headers: { accept: 'application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json' },
    });
    expect(manifest.status).toBe(200);
    expect(((await manifest.json()) as { layers: unknown[] }).layers.length).toBeGreaterThan(0);
  }, 300_000);

  it('a registry that does not answer is an error naming the ref', async () => {
    const dead = await freePort();
    pushed.push(`127.0.0.1:${dead}/gaia2-e2e/agent:x`);
    await expect(engine.images!.push(image, `127.0.0.1:${dead}/gaia2-e2e/agent:x`)).rejects.toThrow(new RegExp(`pushing 127\\.0\\.0\\.1:${dead}/gaia2-e2e/agent:x`));
  }, 120_000);
});
