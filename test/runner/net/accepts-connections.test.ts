import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { acceptsConnections } from '../../../runner/src/net/accepts-connections.js';
import { freePort } from '../../helpers/free-port.js';

describe('acceptsConnections', () => {
  it('is true for a listening port and false for a closed one', async () => {
    const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const open = (server.address() as net.AddressInfo).port;
    expect(await acceptsConnections('127.0.0.1', open)).toBe(true);
    server.close();
    expect(await acceptsConnections('127.0.0.1', await freePort())).toBe(false);
  });

  it('gives up after the timeout on an address that never answers', async () => {
    const t0 = Date.now();
    // TEST-NET-1 (RFC 5737): never routed, so the connect neither succeeds nor fails quickly
    expect(await acceptsConnections('192.0.2.1', 9, 150)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
