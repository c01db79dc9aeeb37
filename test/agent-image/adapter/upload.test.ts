// POST /files: token required, paths confined to the upload root, files written in order
// with their modes, a large body (megabytes) passes, bad requests are refused before any write.
// PUT /files (files-stream): the same rules for one raw body streamed to disk; a body cut short
// or too large leaves nothing behind.
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, listen } from '../../../agent-image/src/adapter/index.js';
import { UploadTooLarge, writeUpload, writeUploadStream } from '../../../agent-image/src/adapter/upload.js';
import { ADAPTER_TOKEN_HEADER, ROUTES, type UploadRequest } from '../../../agent-image/src/contract/routes.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const TOKEN = 'tok-123456';

async function serve(root: string) {
  const batches: string[][] = [];
  const { server } = createAdapterServer({
    backend: { status: () => null, connected: () => false, hasConnected: () => false, info: () => ({}), post: () => null },
    token: TOKEN,
    uploadRoot: root,
    putFiles: async (files) => {
      batches.push(files.map((f) => f.path));
      await writeUpload(files);
    },
    streamFiles: true,
  });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1');
  const put = (query: string, body: Buffer | string, headers: Record<string, string> = { [ADAPTER_TOKEN_HEADER]: TOKEN }) =>
    fetch(`http://127.0.0.1:${port}${ROUTES.files}?${query}`, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'application/octet-stream', ...headers } });
  const post = (body: unknown, headers: Record<string, string> = { [ADAPTER_TOKEN_HEADER]: TOKEN }) =>
    fetch(`http://127.0.0.1:${port}${ROUTES.files}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { post, put, port, batches };
}

describe('POST /files', () => {
  it('writes the files in order with their modes; a 5 MiB scenario passes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const { post, batches } = await serve(root);
    const big = Buffer.alloc(5 * 1024 * 1024, 'x');
    const body: UploadRequest = {
      files: [
        { path: `${root}sub/custom_scenario.json`, content: b64(big), mode: 0o640 },
        { path: `${root}scenario.ready`, content: b64('') },
      ],
    };
    const r = await post(body);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, written: 2 });
    expect(batches).toEqual([[`${root}sub/custom_scenario.json`, `${root}scenario.ready`]]);
    expect(readFileSync(`${root}sub/custom_scenario.json`).equals(big)).toBe(true);
    expect(statSync(`${root}sub/custom_scenario.json`).mode & 0o777).toBe(0o640);
    expect(existsSync(`${root}scenario.ready`)).toBe(true);
  });

  it('needs the token (own header or Bearer) and refuses paths outside the root', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const { post, batches } = await serve(root);
    const ok = { files: [{ path: `${root}a.json`, content: b64('{}') }] };
    expect((await post(ok, {})).status).toBe(401);
    expect((await post(ok, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    for (const bad of [
      { files: [{ path: '/etc/passwd', content: b64('x') }] },
      { files: [{ path: `${root}../escape`, content: b64('x') }] },
      { files: [{ path: `${root}a`, content: b64('x'), mode: 0o4755 }] },
      { files: [] },
      { files: [{ path: `${root}a` }] },
    ]) {
      const r = await post(bad);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { ok: boolean }).ok).toBe(false);
    }
    expect((await post('{not json')).status).toBe(400);
    expect(batches).toHaveLength(1); // only the authorized, valid request reached the writer
  });
});

describe('PUT /files (streamed, one file)', () => {
  const q = (path: string, mode?: string) => new URLSearchParams({ path, ...(mode ? { mode } : {}) }).toString();

  it('writes the raw body with its mode; a 5 MiB body and an empty marker pass', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const { put } = await serve(root);
    const big = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff; // every byte value, no text
    const r = await put(q(`${root}sub/custom_scenario.json`, '0640'), big);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, written: 1, bytes: big.length });
    expect(readFileSync(`${root}sub/custom_scenario.json`).equals(big)).toBe(true);
    expect(statSync(`${root}sub/custom_scenario.json`).mode & 0o777).toBe(0o640);
    expect((await put(q(`${root}scenario.ready`), '')).status).toBe(200);
    expect(existsSync(`${root}scenario.ready`)).toBe(true);
    expect(readdirSync(`${root}sub`)).toEqual(['custom_scenario.json']); // no temporary left
  });

  it('needs the token and refuses bad paths and modes before reading the body', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const { put } = await serve(root);
    expect((await put(q(`${root}a.json`), '{}', {})).status).toBe(401);
    for (const [query, error] of [
      [q('/etc/passwd'), 'only normalized paths under'],
      [q(`${root}../escape`), 'only normalized paths under'],
      [q(`${root}a`, '4755'), 'mode must be an integer'],
      [q(`${root}a`, 'rw'), 'mode must be an integer'],
      ['mode=0644', 'PUT /files needs ?path='],
    ] as const) {
      const r = await put(query, 'x');
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toContain(error);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('a client that stops before Content-Length leaves nothing in place', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const { port } = await serve(root);
    await new Promise<void>((resolve) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'PUT', path: `${ROUTES.files}?${q(`${root}cut.json`)}`, headers: { [ADAPTER_TOKEN_HEADER]: TOKEN, 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(600, 'a'));
      setTimeout(() => {
        req.destroy();
        setTimeout(resolve, 100);
      }, 100);
    });
    // The server notices the closed connection, then removes its temporary.
    for (let i = 0; i < 40 && readdirSync(root).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(root)).toEqual([]);
  });

  it('a body over the limit is refused and its temporary removed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-')) + '/';
    const req = Object.assign(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { headers: {} }) as unknown as http.IncomingMessage;
    await expect(writeUploadStream(req, { path: `${root}big.json`, mode: undefined }, 1000)).rejects.toBeInstanceOf(UploadTooLarge);
    expect(readdirSync(root)).toEqual([]);
  });
});
