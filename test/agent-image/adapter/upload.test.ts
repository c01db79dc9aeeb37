// POST /files: token required, paths confined to the upload root, files written in order
// with their modes, a large body (megabytes) passes, bad requests are refused before any write.
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, listen } from '../../../agent-image/src/adapter/index.js';
import { writeUpload } from '../../../agent-image/src/adapter/upload.js';
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
  });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1');
  const post = (body: unknown, headers: Record<string, string> = { [ADAPTER_TOKEN_HEADER]: TOKEN }) =>
    fetch(`http://127.0.0.1:${port}${ROUTES.files}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { post, batches };
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
