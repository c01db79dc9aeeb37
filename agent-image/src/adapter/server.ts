// The adapter HTTP contract (docs/contract.md, "Adapter HTTP") on 0.0.0.0:$GAIA2_ADAPTER_PORT.
// It answers from the first moment (connected:false until the agent is ready, W5), and
// mutating routes require "Authorization: Bearer <GAIA2_ADAPTER_TOKEN>" when a token is set.
// /health's `connected` latches: a reference runner polls /status only after it saw
// connected:true, so an agent that finished and left before the first poll must not hide the
// terminal status (docs/contract.md, "GET /health").
import { nodeHttp, type IncomingMessage, type Server, type ServerResponse } from '../platform/node-http.js';
import { timingSafeEqual } from 'node:crypto';
import {
  ADAPTER_TOKEN_HEADER,
  ARTIFACTS_TAR_HEADERS,
  ARTIFACTS_TAR_QUERY,
  MAX_UPLOAD_BYTES,
  MUTATING_ROUTES,
  ROUTES,
  RUNNER_ROUTES,
  type ArtifactsResponse,
  type UploadRequest,
} from '../contract/routes.js';
import { parseFilePut, parseUpload, UploadError, UploadTooLarge, writeUploadStream } from './upload.js';
import { sendTar, type OpenedArtifacts } from './artifacts-tar.js';
import type { DaemonStatus } from '../contract/status.js';
import { MessageBuffer } from './message-buffer.js';
import { readBody } from '../world/http-body.js';

export interface AdapterBackend {
  status(): DaemonStatus | null;
  /** The agent is connected now and can take messages. */
  connected(): boolean;
  /** An agent has connected at some point of this container's life (latched). */
  hasConnected(): boolean;
  /** Extra /health fields (agent name, …). */
  info(): Record<string, unknown>;
  /** Delivers a message to the agent; returns the run id, or null when it cannot. */
  post(text: string, kind: 'user' | 'notification'): string | null;
}

export interface AdapterOptions {
  backend: AdapterBackend;
  token?: string | null;
  buffer?: MessageBuffer;
  /** Serves GET /artifacts (only with a token). */
  artifacts?: () => ArtifactsResponse;
  /** GET /artifacts?format=tar (only with a token): the files opened, streamed by the server. */
  artifactsTar?: () => OpenedArtifacts;
  /** GET /carry (only with a token): a universe chain's carry, opened, streamed like the artifacts' tar. */
  carryTar?: () => OpenedArtifacts;
  /** POST /shutdown (only with a token): called after the answer has been sent. */
  onShutdown?: () => void;
  /** POST /files (only with a token): writes the files in order. */
  putFiles?: (files: UploadRequest['files']) => Promise<void>;
  /** Where POST and PUT /files may write (UPLOAD_ROOT; tests use a temporary directory). */
  uploadRoot?: string;
  /** PUT /files (only with a token): one file streamed from the body. */
  streamFiles?: boolean;
}

const MAX_BODY = 1 << 20;

function json(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  // Keep-alive (HTTP/1.1's default): the runner polls /status on one connection instead of a
  // new one per poll.
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function authorized(req: IncomingMessage, token: string): boolean {
  const own = req.headers[ADAPTER_TOKEN_HEADER];
  const m = typeof own === 'string' ? [own, own] : /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!.trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createAdapterServer(opts: AdapterOptions): { server: Server; buffer: MessageBuffer } {
  const buffer = opts.buffer ?? new MessageBuffer();
  const { backend } = opts;
  const token = opts.token || null;
  const server = nodeHttp().createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://adapter');
    const path = url.pathname;
    if (req.method === 'GET' && path === ROUTES.health) {
      // ok: the adapter is up and answers from a status source; it says nothing about the agent.
      return json(res, 200, {
        ok: true,
        connected: backend.hasConnected(),
        agent_connected: backend.connected(),
        ...backend.info(),
        buffer: { size: buffer.length, lastSeq: buffer.lastSeq },
        sseClients: buffer.sseClients,
      });
    }
    if (req.method === 'GET' && path === ROUTES.status) {
      return json(res, 200, backend.status() ?? { status: 'waiting' });
    }
    if (req.method === 'GET' && path === ROUTES.messages) {
      const after = Number(url.searchParams.get('after') ?? '0') || 0;
      return json(res, 200, { ok: true, messages: buffer.after(after), lastSeq: buffer.lastSeq });
    }
    if (req.method === 'GET' && path === ROUTES.events) {
      buffer.subscribe(res);
      return;
    }
    if (RUNNER_ROUTES.has(path)) {
      if (!token) return json(res, 403, { ok: false, error: `${path} needs the container to have GAIA2_ADAPTER_TOKEN` });
      if (!authorized(req, token)) return json(res, 401, { ok: false, error: 'Unauthorized' });
      if (req.method === 'GET' && path === ROUTES.artifacts && opts.artifactsTar && url.search === `?${ARTIFACTS_TAR_QUERY}`) return serveTar(res, opts.artifactsTar());
      if (req.method === 'GET' && path === ROUTES.artifacts && opts.artifacts) return json(res, 200, opts.artifacts());
      if (req.method === 'GET' && path === ROUTES.carry && opts.carryTar) return serveTar(res, opts.carryTar());
      if (req.method === 'POST' && path === ROUTES.shutdown && opts.onShutdown) {
        const onShutdown = opts.onShutdown;
        res.on('finish', () => onShutdown());
        return json(res, 200, { ok: true });
      }
      if (req.method === 'POST' && path === ROUTES.files && opts.putFiles) {
        const putFiles = opts.putFiles;
        void readBody(req, MAX_UPLOAD_BYTES)
          .then(async (raw) => {
            if (raw === null) return json(res, 413, { ok: false, error: 'Body too large' });
            const files = parseUpload(raw, opts.uploadRoot);
            await putFiles(files);
            return json(res, 200, { ok: true, written: files.length });
          })
          .catch((e: unknown) => json(res, e instanceof UploadError ? 400 : 500, { ok: false, error: (e as Error).message }));
        return;
      }
      if (req.method === 'PUT' && path === ROUTES.files && opts.streamFiles) return putFile(req, res, url, opts.uploadRoot);
      return json(res, 404, { error: 'Not found' });
    }
    if (req.method === 'POST' && MUTATING_ROUTES.has(path)) {
      if (token && !authorized(req, token)) return json(res, 401, { ok: false, error: 'Unauthorized' });
      void readBody(req, MAX_BODY).then((raw) => {
        if (raw === null) return json(res, 400, { ok: false, error: 'Body too large' });
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return json(res, 400, { ok: false, error: 'Invalid JSON' });
        }
        const msg = (body as { message?: unknown } | null)?.message;
        if (typeof msg !== 'string' || msg.trim() === '') {
          return json(res, 400, { ok: false, error: 'Missing or empty "message" field' });
        }
        if (!backend.connected()) return json(res, 503, { ok: false, error: 'Not connected to agent backend' });
        const runId = backend.post(msg.trim(), path === ROUTES.sendNotifications ? 'notification' : 'user');
        if (runId === null) return json(res, 503, { ok: false, error: 'Not connected to agent backend' });
        return json(res, 200, { ok: true, runId });
      });
      return;
    }
    return json(res, 404, { error: 'Not found' });
  });
  server.on('close', () => buffer.closeAll());
  return { server, buffer };
}

function serveTar(res: ServerResponse, opened: OpenedArtifacts): void {
  res.writeHead(200, {
    'content-type': 'application/x-tar',
    [ARTIFACTS_TAR_HEADERS.missing]: opened.missing.join(','),
    [ARTIFACTS_TAR_HEADERS.unreadable]: opened.unreadable.join(','),
  });
  // Headers are sent: a failure now can only cut the stream, which the runner sees as a bad archive.
  sendTar(res, opened.files).catch(() => res.destroy());
}

function putFile(req: IncomingMessage, res: ServerResponse, url: URL, root: string | undefined): void {
  let target: ReturnType<typeof parseFilePut>;
  try {
    target = parseFilePut(url, root);
  } catch (e) {
    req.resume();
    return json(res, 400, { ok: false, error: (e as Error).message });
  }
  writeUploadStream(req, target, MAX_UPLOAD_BYTES)
    .then((bytes) => json(res, 200, { ok: true, written: 1, bytes }))
    .catch((e: unknown) => {
      const code = e instanceof UploadTooLarge ? 413 : e instanceof UploadError ? 400 : 500;
      if (!res.headersSent && !res.destroyed) json(res, code, { ok: false, error: (e as Error).message });
    });
}

/** Listens on host:port (port 0 = any); resolves with the bound port. */
export function listen(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
}
