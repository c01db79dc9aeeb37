import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpRelay, type TcpRelay } from '../../../runner/src/net/index.js';

let servers: Server[] = [];
let relays: TcpRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.map((r) => r.close()));
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  relays = [];
});

async function echoServer(): Promise<number> {
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.end(`${req.method} ${req.url} ${body}`));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

describe('startTcpRelay', () => {
  it('forwards requests and bodies to the loopback target', async () => {
    const target = await echoServer();
    const relay = await startTcpRelay({ listenHost: '127.0.0.1', targetHost: '127.0.0.1', targetPort: target });
    relays.push(relay);
    expect(relay.bound).toBe(true);
    expect(relay.port).not.toBe(target);
    const res = await fetch(`http://127.0.0.1:${relay.port}/v1/chat?x=1`, { method: 'POST', body: 'hello' });
    expect(await res.text()).toBe('POST /v1/chat?x=1 hello');
    expect(relay.connections).toBe(1);
  });

  it('drops peers that are not allowed without forwarding anything', async () => {
    const target = await echoServer();
    const relay = await startTcpRelay({ listenHost: '127.0.0.1', targetHost: '127.0.0.1', targetPort: target, allowPeer: () => false });
    relays.push(relay);
    await expect(fetch(`http://127.0.0.1:${relay.port}/`)).rejects.toThrow();
    expect(relay.connections).toBe(0);
  });

  it('refuses non-loopback targets', async () => {
    await expect(startTcpRelay({ listenHost: '127.0.0.1', targetHost: '192.0.2.10', targetPort: 80 })).rejects.toThrow(/not a loopback/);
  });

  it('picks its port at once and keeps trying to bind while the listen address does not exist', async () => {
    // 198.51.100.0/24 is TEST-NET-2: documentation only, not configured on a host.
    const relay = await startTcpRelay({ listenHost: '198.51.100.254', targetHost: '127.0.0.1', targetPort: 9, bindRetryMs: 10 });
    relays.push(relay);
    expect(relay.port).toBeGreaterThan(0);
    expect(relay.bound).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    await relay.close();
    expect(relay.bound).toBe(false);
  });
});
