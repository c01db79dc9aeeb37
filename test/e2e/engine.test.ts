// The Docker-API engine against the real engine: files in by archive before start, a port
// published on 127.0.0.1 by the engine, files out by archive, labels, forced removal.
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
      const ep = await c.endpoint(8123);
      expect(ep.host).toBe('127.0.0.1');
      expect(ep.port).toBeGreaterThan(0);
      let body = '';
      for (let i = 0; i < 100 && !body; i++) {
        body = await fetch(`http://${ep.host}:${ep.port}/`).then((r) => r.text(), () => '');
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
});
