// Delivers files into a running unit through its adapter's POST /files (the API server's pod
// proxy carries it; no exec stream, no ConfigMap size limit). The adapter starts listening a
// moment after the container, so refusals are retried until the unit is gone or time is up.
import { Agent, request } from 'undici';
import { ADAPTER_TOKEN_HEADER, ROUTES, UPLOAD_ROOT, type UploadRequest } from '../../../../agent-image/src/contract/routes.js';
import { EngineError } from '../errors.js';
import type { AdapterEndpoint, ContainerFile } from '../types.js';

export interface UploadOptions {
  /** Throws (a typed failure) when the unit can no longer take the files. */
  check: () => Promise<void>;
  timeoutMs: number;
}

export function uploadBody(files: ContainerFile[]): string {
  for (const f of files)
    if (!f.path.startsWith(UPLOAD_ROOT))
      throw new EngineError('container_start_failed', `cannot deliver ${f.path}: the kubernetes backend writes files only under ${UPLOAD_ROOT} (through the adapter)`);
  const body: UploadRequest = { files: files.map((f) => ({ path: f.path, content: Buffer.from(f.content).toString('base64'), ...(f.mode !== undefined ? { mode: f.mode } : {}) })) };
  return JSON.stringify(body);
}

export async function uploadFiles(ep: AdapterEndpoint, token: string, files: ContainerFile[], o: UploadOptions): Promise<void> {
  const body = uploadBody(files);
  const url = new URL(ep.url);
  const dispatcher = new Agent({ connections: 1, ...(ep.tls ? { connect: ep.tls } : {}) });
  const deadline = Date.now() + o.timeoutMs;
  let pause = 50;
  let last = '';
  try {
    for (;;) {
      try {
        const res = await request(new URL(url.pathname.replace(/\/+$/, '') + ROUTES.files, url.origin), {
          method: 'POST',
          dispatcher,
          headers: { 'content-type': 'application/json', ...ep.headers, [ADAPTER_TOKEN_HEADER]: token },
          body,
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
        const text = await res.body.text();
        if (res.statusCode === 200) return;
        last = `HTTP ${res.statusCode}: ${text.slice(0, 200)}`;
        // 4xx from the adapter itself means the request is wrong: retrying will not help.
        if (res.statusCode === 400 || res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 413) throw new EngineError('container_start_failed', `POST ${ROUTES.files} refused: ${last}`);
      } catch (e) {
        if (e instanceof EngineError) throw e;
        last = (e as Error).message;
      }
      await o.check();
      if (Date.now() > deadline) throw new EngineError('container_start_failed', `could not deliver the scenario within ${o.timeoutMs / 1000}s (${last})`);
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(1000, pause * 2);
    }
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}
