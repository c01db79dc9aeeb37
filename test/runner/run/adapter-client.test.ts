// The runner's client for one container's adapter, against the real adapter server: polls
// share one kept-alive connection, the token goes with every request, close() ends the
// connection (host ports are reused by later containers), HTTP errors name route and status.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, fileBackend, listen } from '../../../agent-image/src/adapter/index.js';
import { AdapterClient } from '../../../runner/src/run/adapter-client.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function adapter(token: string | null) {
  const { server } = createAdapterServer({ backend: fileBackend('/nonexistent/daemon_status.json'), token });
  const sockets: Socket[] = [];
  server.on('connection', (s) => sockets.push(s));
  const port = await listen(server, 0, '127.0.0.1');
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { port, sockets };
}

describe('AdapterClient', () => {
  it('polls over one kept-alive connection, and close() ends it', async () => {
    const a = await adapter(null);
    const client = new AdapterClient(`http://127.0.0.1:${a.port}`);
    for (let i = 0; i < 5; i++) {
      expect((await client.health()).connected).toBe(false);
      expect((await client.status()).status).toBe('waiting');
    }
    expect(a.sockets).toHaveLength(1);
    await client.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(a.sockets[0]!.destroyed).toBe(true);
  });

  it('sends the token; an HTTP error names the route and the status', async () => {
    const a = await adapter('tok-1');
    const withToken = new AdapterClient(`http://127.0.0.1:${a.port}`, 'tok-1');
    const without = new AdapterClient(`http://127.0.0.1:${a.port}`);
    await expect(without.notify('hello')).rejects.toThrow(/POST \/notify → HTTP 401/);
    // with the token the request is authorized and fails only because no agent is connected
    await expect(withToken.notify('hello')).rejects.toThrow(/POST \/notify → HTTP 503/);
    await Promise.all([withToken.close(), without.close()]);
  });

  it('reaches the adapter behind a proxy path, with the proxy headers and the token in its own header', async () => {
    const a = await adapter('tok-2');
    // A stand-in for a pod proxy: it takes its own Authorization (and drops it, as an API
    // server does) and forwards the rest of the path to the adapter.
    const seen: Array<{ path: string; auth: string | undefined }> = [];
    const { createServer, request } = await import('node:http');
    const proxy = createServer((req, res) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization });
      if (req.headers.authorization !== 'Bearer cluster-cred') return void res.writeHead(403).end('forbidden');
      const headers = { ...req.headers };
      delete headers.authorization;
      const up = request({ host: '127.0.0.1', port: a.port, method: req.method, path: (req.url ?? '').replace(/^\/api\/v1\/namespaces\/ns\/pods\/p:8090\/proxy/, ''), headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    servers.push({ close: () => (proxy.closeAllConnections(), proxy.close()) });
    const port = (proxy.address() as { port: number }).port;
    const client = new AdapterClient(
      { url: `http://127.0.0.1:${port}/api/v1/namespaces/ns/pods/p:8090/proxy/`, headers: { authorization: 'Bearer cluster-cred' }, tokenHeader: 'own' },
      'tok-2',
    );
    expect((await client.status()).status).toBe('waiting');
    // authorized by the token in its own header (503: no agent connected, not 401)
    await expect(client.notify('hello')).rejects.toThrow(/POST \/notify → HTTP 503/);
    expect(seen.map((s) => s.path)).toEqual(['/api/v1/namespaces/ns/pods/p:8090/proxy/status', '/api/v1/namespaces/ns/pods/p:8090/proxy/notify']);
    await client.close();
  });
});
