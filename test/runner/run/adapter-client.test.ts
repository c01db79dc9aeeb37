// The runner's client for one container's adapter, against the real adapter server: polls
// share one kept-alive connection, the token goes with every request, close() ends the
// connection (host ports are reused by later containers), HTTP errors name route and status.
// The streamed routes: files put raw (PUT /files) land as the JSON upload lands them, a source
// that fails mid-way fails the call with its own error and leaves nothing; artifacts as a tar
// stream equal the JSON answer, and an image without the tar form is an error, not a misread.
import type { Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openArtifacts } from '../../../agent-image/src/adapter/artifacts-tar.js';
import { readArtifacts } from '../../../agent-image/src/adapter/index.js';
import { writeUpload } from '../../../agent-image/src/adapter/upload.js';
import { AdapterHttpError } from '../../../runner/src/run/adapter-client.js';
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

describe('AdapterClient, streamed routes', () => {
  const root = mkdtempSync(join(tmpdir(), 'client-stream-')) + '/';
  const state = mkdtempSync(join(tmpdir(), 'client-artifacts-'));
  writeFileSync(join(state, 'events.jsonl'), Buffer.alloc(2 * 1024 * 1024 + 3, 'e'));
  writeFileSync(join(state, 'daemon_status.json'), '{"status": "complete"}');
  const paths: Array<readonly [string, string]> = [
    [join(state, 'events.jsonl'), 'events.jsonl'],
    [join(state, 'daemon_status.json'), 'daemon_status.json'],
    [join(state, 'gone.jsonl'), 'trace.jsonl'],
    [state, 'judge_trace.jsonl'], // a directory: unreadable
  ];

  async function ours(tar: boolean) {
    const { server } = createAdapterServer({
      backend: fileBackend('/nonexistent/daemon_status.json'),
      token: 'tok-s',
      uploadRoot: root,
      putFiles: writeUpload,
      streamFiles: true,
      artifacts: () => readArtifacts(paths),
      ...(tar ? { artifactsTar: () => openArtifacts(paths) } : {}),
    });
    const port = await listen(server, 0, '127.0.0.1');
    servers.push({ close: () => (server.closeAllConnections(), server.close()) });
    return new AdapterClient(`http://127.0.0.1:${port}`, 'tok-s');
  }

  it('files put streamed land byte for byte as the JSON upload lands them, in order, from memory or a stream', async () => {
    const client = await ours(false);
    const bytes = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const onDisk = join(root, '..', `src-${process.pid}.bin`);
    writeFileSync(onDisk, bytes);
    const streamed = { size: bytes.length, open: () => Readable.from((async function* () { yield* [bytes.subarray(0, 1000), bytes.subarray(1000)]; })()) };
    await client.putFiles([{ path: `${root}old.bin`, content: bytes, mode: 0o600 }]);
    await client.putFilesStreamed([
      { path: `${root}new.bin`, content: streamed, mode: 0o600 },
      { path: `${root}ready`, content: '' },
    ]);
    expect(readFileSync(`${root}new.bin`).equals(readFileSync(`${root}old.bin`))).toBe(true);
    expect(readFileSync(`${root}new.bin`).equals(bytes)).toBe(true);
    expect(readFileSync(`${root}ready`, 'utf8')).toBe('');
    await client.close();
  });

  it('a source that fails mid-way fails the call with its own error; later files are not sent', async () => {
    const client = await ours(false);
    class SourceGone extends Error {}
    const failing = {
      size: 10_000,
      open: () =>
        new Readable({
          read() {
            // Half the declared bytes, then the source fails.
            if (this.readableLength === 0 && !(this as { sent?: boolean }).sent) {
              (this as { sent?: boolean }).sent = true;
              this.push(Buffer.alloc(5000, 'a'));
              setTimeout(() => this.destroy(new SourceGone('changed on disk')), 20);
            }
          },
        }),
    };
    const err = await client.putFilesStreamed([{ path: `${root}half.bin`, content: failing }, { path: `${root}half.ready`, content: '' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceGone);
    for (let i = 0; i < 40 && readdirSync(root).some((f) => f.startsWith('half')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(root).filter((f) => f.startsWith('half'))).toEqual([]);
    await client.close();
  });

  it('artifacts as a tar stream equal the JSON answer (files and unreadable list)', async () => {
    const client = await ours(true);
    const [tar, json] = [await client.artifactsTar(), await client.artifacts()];
    expect([...tar.files.keys()]).toEqual([...json.files.keys()]);
    for (const [name, b] of json.files) expect(tar.files.get(name)!.equals(b)).toBe(true);
    expect(tar.unreadable).toEqual(['judge_trace.jsonl']);
    expect(json.unreadable).toEqual(['judge_trace.jsonl']);
    await client.close();
  });

  it('an image that answers JSON to the tar request (no artifacts-tar) is an error, not a misread archive', async () => {
    const client = await ours(false);
    const err = await client.artifactsTar().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdapterHttpError);
    expect((err as Error).message).toContain('application/json');
    await client.close();
  });
});
