// The Docker-API engine against the real engine: files in by archive before start, a port
// published on 127.0.0.1 by the engine, files out by archive, labels, forced removal, and no
// host port handed to two live containers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type ContainerEngine } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const label = { 'gaia2.test': `engine-${process.pid}` };
let engine: ContainerEngine;

beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  for (const c of await engine.listByLabels(label)) await engine.remove(c.id);
  await engine.close();
});

describe('docker-api engine', () => {
  it('runs a container with an archived file, a published port and labels, then removes it', async () => {
    const c = await engine.create({
      image,
      env: { GREETING: 'hi' },
      labels: label,
      entrypoint: ['/usr/local/bin/node'],
      cmd: [
        '-e',
        "require('http').createServer((q,s)=>s.end(process.env.GREETING+' '+require('fs').readFileSync('/srv/in.txt','utf8'))).listen(8123,'0.0.0.0')",
      ],
      network: 'bridge',
      publishPort: 8123,
      files: [{ path: '/srv/in.txt', content: 'from-archive' }],
    });
    try {
      await c.start();
      const ep = await c.adapter(8123);
      expect(ep.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      let body = '';
      for (let i = 0; i < 100 && !body; i++) {
        body = await fetch(`${ep.url}/`).then((r) => r.text(), () => '');
        if (!body) await new Promise((r) => setTimeout(r, 50));
      }
      expect(body).toBe('hi from-archive');
      expect((await c.readFile('/srv/in.txt'))?.toString()).toBe('from-archive');
      expect(await c.readFile('/srv/missing.txt')).toBeNull();
      const listed = await engine.listByLabels(label);
      expect(listed.map((x) => x.id)).toContain(c.id);
      expect((await c.state()).running).toBe(true);
    } finally {
      await c.remove();
    }
    expect(await engine.listByLabels(label)).toEqual([]);
  });

  it('names the image and how to build it when the image is missing', async () => {
    await expect(
      engine.create({ image: 'localhost/gaia2-no-such-image:nope', env: {}, labels: label, network: 'bridge' }),
    ).rejects.toMatchObject({ kind: 'image_missing', message: expect.stringMatching(/gaia2-no-such-image.*build-image/s) });
  });

  it('never hands two live containers the same host port (podman can assign one twice before start)', async () => {
    // Force the engine's answer: the first two creates ask podman for the same explicit port,
    // as its random pick sometimes does on its own.
    const docker = (engine as unknown as { docker: { createContainer: (b: Record<string, unknown>) => Promise<unknown> } }).docker;
    const original = docker.createContainer.bind(docker);
    const port = String(20000 + (process.pid % 10000));
    let forced = 0;
    docker.createContainer = (b) => {
      const hc = b.HostConfig as { PortBindings?: Record<string, Array<{ HostIp: string; HostPort: string }>> };
      if (forced >= 2 || !hc.PortBindings) return original(b);
      forced++;
      const bindings = Object.fromEntries(Object.entries(hc.PortBindings).map(([k, l]) => [k, [{ ...l[0]!, HostPort: port }]]));
      return original({ ...b, HostConfig: { ...hc, PortBindings: bindings } });
    };
    const spec = {
      image, env: {}, labels: label, entrypoint: ['/usr/local/bin/node'], network: 'bridge' as const, publishPort: 8123,
      cmd: ['-e', "require('http').createServer((q,s)=>s.end('up')).listen(8123,'0.0.0.0')"],
    };
    let a, b;
    try {
      a = await engine.create(spec);
      b = await engine.create(spec);
    } finally {
      docker.createContainer = original;
    }
    try {
      expect(forced).toBe(2);
      await Promise.all([a.start(), b.start()]);
      const [ea, eb] = await Promise.all([a.adapter(8123), b.adapter(8123)]);
      expect(new URL(ea.url).port).toBe(String(port));
      expect(new URL(eb.url).port).not.toBe(new URL(ea.url).port);
      for (const ep of [ea, eb]) {
        let body = '';
        for (let i = 0; i < 100 && !body; i++) {
          body = await fetch(`${ep.url}/`).then((r) => r.text(), () => '');
          if (!body) await new Promise((r) => setTimeout(r, 50));
        }
        expect(body).toBe('up');
      }
    } finally {
      await Promise.all([a.remove(), b.remove()]);
    }
    expect(await engine.listByLabels(label)).toEqual([]);
  });
});
