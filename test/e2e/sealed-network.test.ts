// The sealed network end to end (issue T, item 1): our LLM agent in a real container, driven by
// a scripted provider through the model gateway, runs probe commands in its shell tool (as the
// user agent). Sealed (network = "bridge", the default), it cannot reach a web server on the
// host, another container, the cloud metadata address, an internet address or DNS, while its
// world's CLI and the gateway (every model call of the run) work; with network = "open" the same
// probe reaches the host's server. Runs on every engine of GAIA2_TEST_ENGINES.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import type { FakeLlm } from '../helpers/fake-llm/index.js';
import { TEST_LABEL } from './helpers/llm-run.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';
import { runSealProbe, type SealProbeRun } from './helpers/seal-probe.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

/** This machine's address as seen from a container (not loopback, not an engine bridge). */
function hostAddress(): string {
  const a = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal && !/^10\.(88|2\d\d)\./.test(i.address));
  if (!a) throw new Error('this machine has no non-loopback IPv4 address to test from');
  return a.address;
}

describe.each(eachEngine())('sealed network on %s', (_kind, e2e) => {
  let engine: UnitBackend;
  let docker: Docker;
  let hostServer: Server;
  let other: Docker.Container;
  const fakes: FakeLlm[] = [];
  const seen: Record<'bridge' | 'open', SealProbeRun> = {} as never;

  beforeAll(async () => {
    engine = await connectE2eEngine(e2e);
    docker = new Docker({ socketPath: e2e.host.replace(/^unix:\/\//, '') });
    hostServer = createServer((_q, r) => r.end('host-server'));
    await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', r));
    const hostUrl = `http://${hostAddress()}:${(hostServer.address() as AddressInfo).port}/`;
    // another container on the same bridge network, serving HTTP
    other = await docker.createContainer({ Image: image, Entrypoint: ['python3', '-m', 'http.server', '8099'], Labels: { ...TEST_LABEL } });
    await other.start();
    const otherIp = (await other.inspect()).NetworkSettings.Networks?.podman?.IPAddress || Object.values((await other.inspect()).NetworkSettings.Networks ?? {})[0]?.IPAddress;
    expect(otherIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const targets = { host: hostUrl, other: `http://${otherIp}:8099/`, metadata: 'http://169.254.169.254/', internet: 'http://1.1.1.1/' };
    const runOne = async (network: 'bridge' | 'open') => {
      seen[network] = await runSealProbe(engine, image, network, targets, fakes);
    };
    await Promise.all([runOne('bridge'), runOne('open')]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await other?.remove({ force: true }).catch(() => {});
    await new Promise<void>((r) => (hostServer ? hostServer.close(() => r()) : r()));
    await engine?.close();
  });

  it('sealed: the agent reaches its world and the gateway, and nothing else (refused at once, not timed out)', () => {
    const s = seen.bridge;
    expect(s.statuses).toHaveLength(1);
    expect(s.statuses[0]).not.toBe('error');
    expect(s.sealed).toEqual([true]);
    expect(s.requests).toBeGreaterThanOrEqual(8); // every model call went through the gateway
    const text = s.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    for (const name of ['host', 'other', 'metadata', 'internet']) expect(text).toMatch(new RegExp(`${name} code=000 rc=7\\b`));
    expect(text).toMatch(/dns rc=[1-9]/);
    expect(text).toMatch(/cli rc=0\b/);
  });

  it('open: the same probe reaches the host web server', () => {
    expect(seen.open.sealed).toEqual([false]);
    const text = seen.open.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    expect(text).toMatch(/host code=200 rc=0\b/);
    expect(text).toMatch(/other code=200 rc=0\b/);
    expect(text).toMatch(/cli rc=0\b/);
  });
});
