import { execFileSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
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

  it("keeps serving when the engine's bridge under its address is deleted and made again (a relay's address can go, the relay stays)", async () => {
    // A real bridge interface (root, as CI runs): podman deletes its bridge with the last
    // container on it and makes it again for the next; the relay's socket stays bound meanwhile.
    const dev = `g2rl${process.pid % 10000}`;
    const addr = `10.254.${process.pid % 250}.1`;
    const ip = (...a: string[]) => execFileSync('ip', a, { stdio: 'pipe' });
    const up = () => {
      ip('link', 'add', dev, 'type', 'bridge');
      ip('addr', 'add', `${addr}/32`, 'dev', dev);
      ip('link', 'set', dev, 'up');
    };
    up();
    try {
      const target = await echoServer();
      const relay = await startTcpRelay({ listenHost: addr, targetHost: '127.0.0.1', targetPort: target });
      relays.push(relay);
      // A new connection each time (no keep-alive): each proves the relay accepts.
      const ask = () =>
        new Promise<string>((resolve, reject) => {
          const req = request({ host: addr, port: relay.port, path: '/m', method: 'POST', agent: false, timeout: 2000 }, (res) => {
            let b = '';
            res.on('data', (c) => (b += c)).on('end', () => resolve(b));
          });
          req.on('error', reject).on('timeout', () => req.destroy(new Error('timeout')));
          req.end('x');
        });
      expect(await ask()).toBe('POST /m x');
      ip('link', 'del', dev);
      await expect(ask()).rejects.toThrow();
      up();
      expect(await ask()).toBe('POST /m x');
      expect(relay.bound).toBe(true);
      expect(relay.connections).toBe(2);
    } finally {
      try {
        ip('link', 'del', dev);
      } catch {
        /* already gone */
      }
    }
  });
});
