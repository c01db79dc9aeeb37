// A Docker container reaches its adapter the way its engine's reach says (the published
// address, or an SSH forward), once per port, and lets go of what the reach opened before the
// container is removed.
import net from 'node:net';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { DockerContainer } from '../../../runner/src/engine/docker-container.js';
import { tcpReach, type Reach } from '../../../runner/src/engine/reach.js';
import { freePort } from '../../helpers/free-port.js';

/** A container whose port 8090 the engine published on host:port (known since create: no inspect). */
function publishedAt(host: string, port: number, reach?: Reach, calls: string[] = []): DockerContainer {
  const c = { id: 'c1', remove: async () => void calls.push('remove') } as unknown as Docker.Container;
  return new DockerContainer(c, 'n1', () => {}, { containerPort: 8090, endpoint: { host, port } }, reach);
}

describe('reach', () => {
  it('tcpReach connects to the published address, with a connect look', async () => {
    const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as net.AddressInfo).port;
    const ep = await publishedAt('127.0.0.1', port, tcpReach(3000)).adapter(8090);
    expect(ep.url).toBe(`http://127.0.0.1:${port}`);
    expect(await ep.accepting!()).toBe(true);
    server.close();
    const closed = await freePort();
    expect(await (await publishedAt('127.0.0.1', closed).adapter(8090)).accepting!()).toBe(false);
  });

  it('an engine on IPv6: the published address reaches the strategy as it is and the URL brackets it', async () => {
    const seen: string[] = [];
    const reach: Reach = async (host, port) => (seen.push(`${host} ${port}`), tcpReach()(host, port));
    const ep = await publishedAt('2001:db8::2', 41234, reach).adapter(8090);
    expect(seen).toEqual(['2001:db8::2 41234']);
    expect(ep.url).toBe('http://[2001:db8::2]:41234');
  });

  it('asks the reach once per port, and closes what it opened before the container is removed', async () => {
    const calls: string[] = [];
    const reach: Reach = async (host, port) => {
      calls.push(`reach ${host}:${port}`);
      return { endpoint: { url: 'http://127.0.0.1:1' }, close: async () => void calls.push('close') };
    };
    const c = publishedAt('fd00::2', 41000, reach, calls);
    await Promise.all([c.adapter(8090), c.adapter(8090)]);
    expect(calls).toEqual(['reach fd00::2:41000']);
    await c.remove();
    expect(calls).toEqual(['reach fd00::2:41000', 'close', 'remove']);
  });
});
