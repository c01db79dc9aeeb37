// The engine host's reachability checks on loopback: a refused connect is reported at once,
// naming what was dialed, and the route lookup sends nothing.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectWithin, localAddressToward } from '../../../../runner/src/engine/remote/tcp-reach.js';
import { freePort } from '../../../helpers/free-port.js';

describe('connectWithin', () => {
  it('connects to a listening port', async () => {
    const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const s = await connectWithin('127.0.0.1', (server.address() as net.AddressInfo).port, 1500, 'DOCKER_HOST=tcp://x');
    expect(s.remotePort).toBe((server.address() as net.AddressInfo).port);
    s.destroy();
    server.close();
  });

  it('rejects a refused port as engine_unavailable naming the variable', async () => {
    const port = await freePort();
    await expect(connectWithin('127.0.0.1', port, 1500, `DOCKER_HOST=tcp://127.0.0.1:${port}`)).rejects.toMatchObject({
      kind: 'engine_unavailable',
      message: `DOCKER_HOST=tcp://127.0.0.1:${port}: the engine host is not reachable (ECONNREFUSED)`,
    });
  });
});

describe('localAddressToward', () => {
  it('finds the local end of the route to an address', async () => {
    expect(await localAddressToward('127.0.0.1')).toBe('127.0.0.1');
    expect(await localAddressToward('127.0.0.2')).toMatch(/^127\./);
  });
});
