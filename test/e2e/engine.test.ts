// The Docker-API engine against the real engine: files in by archive before start, a port
// published on 127.0.0.1 by the engine, files out by archive, labels, forced removal, and no
// host port handed to two live containers. On every e2e engine: where podman and Docker differ
// (label filters, when the host port is chosen, archive answers, exit/wait, host-gateway),
// these fail on the engine whose difference DockerApiEngine stops hiding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { runCliInProcess } from '../runner/config/in-process-cli.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

describe.each(eachEngine())('docker-api engine on %s', (kind, e2e) => {
  const label = { 'gaia2.test': `engine-${kind}-${process.pid}` };
  let engine: UnitBackend;

  beforeAll(async () => {
    engine = await connectE2eEngine(e2e);
  });
  afterAll(async () => {
    for (const c of await engine.listByLabels(label)) await engine.remove(c.id);
    await engine.close();
  });

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

  it('doctor names the engine, its version and API version', async () => {
    const r = await runCliInProcess(['doctor', '-d', tmpdir()], tmpdir(), { DOCKER_HOST: e2e.host });
    const line = r.out.split('\n').find((l) => l.includes(' engine: '));
    expect(line).toMatch(kind === 'podman' ? /^ok {3}engine: podman 4\.\d+\.\d+, API 1\.\d+, at unix:\/\// : /^ok {3}engine: docker 20\.10\.\S+, API 1\.41, at unix:\/\//);
    expect(line).toContain(e2e.host);
  });

  it('lists by label key alone and by key=value, and only matching containers', async () => {
    const a = await engine.create({ image, env: {}, labels: { ...label, 'gaia2.test-pick': 'a' }, entrypoint: ['true'], network: 'bridge' });
    const b = await engine.create({ image, env: {}, labels: { ...label, 'gaia2.test-pick': 'b' }, entrypoint: ['true'], network: 'bridge' });
    try {
      const byValue = await engine.listByLabels({ ...label, 'gaia2.test-pick': 'a' });
      expect(byValue.map((c) => c.id)).toEqual([a.id]);
      expect(byValue[0]!.labels['gaia2.test-pick']).toBe('a');
      expect(byValue[0]!.state).toBe('created');
      const byKey = await engine.listByLabels({ ...label, 'gaia2.test-pick': '' });
      expect(byKey.map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
    } finally {
      await Promise.all([a.remove(), b.remove()]);
    }
  });

  it('archives: files put before start come back one by one and from a directory; missing ones are absent', async () => {
    const c = await engine.create({
      image, env: {}, labels: label, entrypoint: ['sleep'], cmd: ['60'], network: 'bridge',
      files: [
        { path: '/srv/out/a.json', content: '{"a":1}' },
        { path: '/srv/out/b.txt', content: Buffer.from([0, 1, 2, 255]), mode: 0o600 },
      ],
    });
    try {
      expect((await c.readFile('/srv/out/a.json'))?.toString()).toBe('{"a":1}');
      await c.start();
      const got = await c.readFiles('/srv/out', ['a.json', 'b.txt', 'absent.txt']);
      expect([...got.keys()].sort()).toEqual(['a.json', 'b.txt']);
      expect(got.get('b.txt')).toEqual(Buffer.from([0, 1, 2, 255]));
      expect((await c.readFiles('/srv/nothing-here', ['x'])).size).toBe(0);
      expect(await c.readFile('/srv/out/absent.txt')).toBeNull();
    } finally {
      await c.remove();
    }
  });

  it('a container that exits by itself reports its exit code; a removed one reads as removed', async () => {
    const c = await engine.create({ image, env: {}, labels: label, entrypoint: ['sh'], cmd: ['-c', 'echo bye; exit 3'], network: 'bridge' });
    try {
      await c.start();
      let s = await c.state();
      for (let i = 0; i < 200 && s.running; i++) {
        await new Promise((r) => setTimeout(r, 50));
        s = await c.state();
      }
      expect(s).toMatchObject({ running: false, exitCode: 3, status: 'exited' });
      expect(await c.logs()).toContain('bye');
    } finally {
      await c.remove();
    }
    expect((await c.state()).status).toBe('removed');
    await c.remove(); // gone already: no error
  });

  it('a service on the host loopback is reachable from a bridged container (relay + host-gateway alias)', async () => {
    const server = createServer((_q, s) => s.end(`hello from the host via ${kind}`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const reach = await engine.openRun({ runId: 'e2e', env: { SERVICE_URL: `http://127.0.0.1:${port}/x` }, network: 'bridge' });
    try {
      expect(reach.env.SERVICE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/x$/);
      const c = await engine.create({
        image, env: reach.env, labels: label, network: 'bridge', extraHosts: ['host.containers.internal:host-gateway'],
        entrypoint: ['/usr/local/bin/node'],
        cmd: ['-e', 'fetch(process.env.SERVICE_URL).then((r) => r.text()).then((t) => console.log("GOT " + t), (e) => console.log("ERR " + e.cause))'],
      });
      try {
        await c.start();
        let logs = '';
        for (let i = 0; i < 200 && !/GOT|ERR/.test(logs); i++) {
          await new Promise((r) => setTimeout(r, 50));
          logs = await c.logs();
        }
        expect(logs).toContain(`GOT hello from the host via ${kind}`);
      } finally {
        await c.remove();
      }
    } finally {
      await reach.close();
      server.close();
    }
  });
});
