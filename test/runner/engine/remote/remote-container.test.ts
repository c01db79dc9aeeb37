// A remote container reaches its adapter the way its Reach says, once per port, and lets go of
// what it opened when removed; everything else is the engine API's (the inner handle).
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { EngineError, type AdapterEndpoint, type ContainerHandle } from '../../../../runner/src/engine/index.js';
import { directReach, RemoteContainer, type Reach } from '../../../../runner/src/engine/remote/remote-container.js';
import { freePort } from '../../../helpers/free-port.js';
import { DockerContainer } from '../../../../runner/src/engine/docker-container.js';
import type Docker from 'dockerode';

/** The part of a handle these tests drive: the engine's own answer for the published port. */
function innerAt(url: string, calls: string[]): ContainerHandle {
  const unused = async (): Promise<never> => {
    throw new Error('not used here');
  };
  return {
    id: 'c1', name: 'n1',
    start: unused, readFile: unused, readFiles: unused, state: unused, kill: unused, logs: unused,
    adapter: async (): Promise<AdapterEndpoint> => (calls.push('adapter'), { url }),
    remove: async () => void calls.push('remove'),
  };
}

describe('RemoteContainer', () => {
  it('reaches a TCP engine’s published port on the engine address, with a connect look', async () => {
    const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as net.AddressInfo).port;
    const c = new RemoteContainer(innerAt(`http://127.0.0.1:${port}`, []), directReach);
    const ep = await c.adapter(8090);
    expect(ep.url).toBe(`http://127.0.0.1:${port}`);
    expect(await ep.accepting!()).toBe(true);
    server.close();
    const closed = await freePort();
    expect(await (await new RemoteContainer(innerAt(`http://127.0.0.1:${closed}`, []), directReach).adapter(8090)).accepting!()).toBe(false);
  });

  it('an engine on IPv6: the published address survives the trip through the URL', async () => {
    // what DockerContainer answers for a port the engine published on its IPv6 address
    const inner = new DockerContainer({ id: 'c6' } as unknown as Docker.Container, 'n6', () => {}, { containerPort: 8090, endpoint: { host: '2001:db8::2', port: 41234 } });
    const seen: string[] = [];
    const reach: Reach = async (host, port) => (seen.push(`${host} ${port}`), directReach(host, port));
    const ep = await new RemoteContainer(inner, reach).adapter(8090);
    expect(seen).toEqual(['2001:db8::2 41234']);
    expect(ep.url).toBe('http://[2001:db8::2]:41234');
  });

  it('asks the engine and the reach once per port, and closes what the reach opened before removal', async () => {
    const calls: string[] = [];
    const reach: Reach = async (host, port) => {
      calls.push(`reach ${host}:${port}`);
      return { endpoint: { url: 'http://127.0.0.1:1' }, close: async () => void calls.push('close') };
    };
    const c = new RemoteContainer(innerAt('http://[fd00::2]:41000', calls), reach);
    await Promise.all([c.adapter(8090), c.adapter(8090)]);
    expect(calls).toEqual(['adapter', 'reach fd00::2:41000']);
    await c.remove();
    expect(calls).toEqual(['adapter', 'reach fd00::2:41000', 'close', 'remove']);
  });

  it('delegates removal once (its retries of a dropped connection are the engine\'s removeQuietly) and reports what it reports', async () => {
    const calls: string[] = [];
    const failures = [new EngineError('engine_unavailable', 'removing container c1: socket hang up')];
    const inner = { ...innerAt('http://127.0.0.1:1', calls), remove: async () => {
      calls.push('remove');
      const f = failures.shift();
      if (f) throw f;
    } };
    await expect(new RemoteContainer(inner, directReach).remove()).rejects.toThrow(/socket hang up/);
    expect(calls).toEqual(['remove']);
    await new RemoteContainer(inner, directReach).remove();
    expect(calls).toEqual(['remove', 'remove']);
  });
});
