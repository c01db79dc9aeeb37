// HTTP client for one container's adapter (docs/contract.md, "Adapter HTTP"). Short timeouts: a
// request that hangs must never stall the run loop; the caller decides what a failure means.
// One connection pool per container, kept alive between polls and closed with the run: host
// ports are reused by later containers, and a pooled connection must never outlive its own.
import { Pool } from 'undici';
import type { Readable } from 'node:stream';
import type { ArtifactsResponse, DaemonStatus, HealthResponse, NotifyResponse, UploadRequest } from '@gaia2/contract';
import { ADAPTER_TOKEN_HEADER, ARTIFACTS_TAR_HEADERS, ARTIFACTS_TAR_QUERY, CARRY_TAR_ROOTS, FILE_PUT_QUERY, ROUTES } from '@gaia2/contract';
import { contentBytes, contentStream, tarFiles, treesOf, type AdapterEndpoint, type ContainerFile, type TreeEntry } from '../engine/index.js';

/** The adapter (or a proxy in front of it) answered with an HTTP error. */
export class AdapterHttpError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

/** Artifact files by host name, and those the image could not read (copied by archive instead). */
export interface CollectedArtifacts {
  files: Map<string, Buffer>;
  unreadable: string[];
}

/** A tar answer's comma-separated header (names never hold a comma). */
const listed = (headers: Record<string, string | string[] | undefined>, h: string): string[] => String(headers[h] ?? '').split(',').filter(Boolean);

/** Scenarios run to megabytes: an upload through a proxy may take longer than a poll. */
const UPLOAD_TIMEOUT_MS = 60_000;

export class AdapterClient {
  private readonly pool: Pool;
  /** The endpoint's path prefix (a proxy URL's path), without a trailing slash. */
  private readonly prefix: string;
  private readonly headers: Record<string, string>;

  constructor(
    endpoint: AdapterEndpoint | string,
    token?: string,
    private readonly timeoutMs = 5000,
  ) {
    const ep: AdapterEndpoint = typeof endpoint === 'string' ? { url: endpoint } : endpoint;
    const url = new URL(ep.url);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.headers = {
      'content-type': 'application/json',
      ...ep.headers,
      ...(token ? (ep.tokenHeader === 'own' ? { [ADAPTER_TOKEN_HEADER]: token } : { authorization: `Bearer ${token}` }) : {}),
    };
    // The run's requests are sequential: one connection.
    this.pool = new Pool(url.origin, { connections: 1, ...(ep.tls ? { connect: ep.tls } : {}) });
  }

  /** Closes the pool's connections (in-flight requests are let finish). */
  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = this.timeoutMs): Promise<T> {
    const res = await this.pool.request({
      path: this.prefix + path,
      method,
      headers: this.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new AdapterHttpError(`${method} ${path} → HTTP ${res.statusCode}: ${text.slice(0, 200)}`, res.statusCode);
    return JSON.parse(text) as T;
  }

  health(): Promise<HealthResponse> {
    return this.call('GET', ROUTES.health);
  }

  status(): Promise<DaemonStatus> {
    return this.call('GET', ROUTES.status);
  }

  notify(message: string): Promise<NotifyResponse> {
    return this.call('POST', ROUTES.notify, { message });
  }

  /** Our image only (404 elsewhere): every artifact file in one answer, base64 decoded. */
  async artifacts(): Promise<CollectedArtifacts> {
    const r = await this.call<ArtifactsResponse>('GET', ROUTES.artifacts);
    const files = new Map(Object.entries(r.files ?? {}).map(([name, b64]) => [name, Buffer.from(b64, 'base64')] as const));
    return { files, unreadable: r.unreadable ?? [] };
  }

  /**
   * Our image's artifacts-tar feature: the same files as artifacts() as one tar stream, read
   * entry by entry off the socket (no base64, no JSON: one copy of each file's bytes).
   */
  async artifactsTar(): Promise<CollectedArtifacts> {
    const res = await this.getTar(`${ROUTES.artifacts}?${ARTIFACTS_TAR_QUERY}`);
    return { files: await tarFiles(res.body), unreadable: listed(res.headers, ARTIFACTS_TAR_HEADERS.unreadable) };
  }

  /**
   * Our image's carry-route feature: what a universe chain carries out of the unit (its app
   * states and drive, the agent's home), read by the world daemon; entries it could not read
   * are named in `unreadable` (as `state/…`, `home/…`).
   */
  async carry(): Promise<{ state: TreeEntry[]; home: TreeEntry[]; unreadable: string[] }> {
    const res = await this.getTar(ROUTES.carry);
    const trees = await treesOf(res.body);
    return { state: trees.get(CARRY_TAR_ROOTS.state) ?? [], home: trees.get(CARRY_TAR_ROOTS.home) ?? [], unreadable: listed(res.headers, ARTIFACTS_TAR_HEADERS.unreadable) };
  }

  /** A tar answer's response, its body unread; an HTTP error or another content type throws. */
  private async getTar(path: string) {
    const timeoutMs = Math.max(this.timeoutMs, UPLOAD_TIMEOUT_MS);
    const res = await this.pool.request({ path: this.prefix + path, method: 'GET', headers: this.headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode >= 400 || !type.startsWith('application/x-tar')) {
      const text = (await res.body.text()).slice(0, 200);
      throw new AdapterHttpError(`GET ${path} → HTTP ${res.statusCode} (${type || 'no content type'}): ${text}`, res.statusCode);
    }
    return res;
  }

  /**
   * Our image only (its files-route feature): writes files under UPLOAD_ROOT, in the given
   * order, so a reader that sees the last one knows the others are complete. This is how the
   * scenario gets into a running unit on every backend, archive API or not. Every byte is
   * base64 in one JSON body: images without files-stream only.
   */
  async putFiles(files: readonly ContainerFile[]): Promise<void> {
    const body: UploadRequest = {
      files: await Promise.all(
        files.map(async (f) => ({ path: f.path, content: (await contentBytes(f.content)).toString('base64'), ...(f.mode !== undefined ? { mode: f.mode } : {}) })),
      ),
    };
    await this.call('POST', ROUTES.files, body, Math.max(this.timeoutMs, UPLOAD_TIMEOUT_MS));
  }

  /**
   * The files-stream feature: the same as putFiles, one PUT per file in the given order, each
   * body the file's raw bytes streamed from where they are (a scenario from disk), never whole
   * in memory. The image renames a file into place only once all its bytes arrived. A source
   * that fails mid-way (a scenario changed since planning) fails the call with its own error.
   */
  async putFilesStreamed(files: readonly ContainerFile[]): Promise<void> {
    for (const f of files) {
      const { size, stream } = contentStream(f.content);
      let sourceError: Error | null = null;
      stream.once('error', (e) => (sourceError = e));
      const query = new URLSearchParams({ [FILE_PUT_QUERY.path]: f.path, ...(f.mode !== undefined ? { [FILE_PUT_QUERY.mode]: f.mode.toString(8).padStart(4, '0') } : {}) });
      try {
        await this.send('PUT', `${ROUTES.files}?${query}`, stream, size);
      } catch (e) {
        throw sourceError ?? e;
      } finally {
        stream.destroy();
      }
    }
  }

  private async send(method: 'PUT', path: string, body: Readable, size: number): Promise<void> {
    const timeoutMs = Math.max(this.timeoutMs, UPLOAD_TIMEOUT_MS);
    const res = await this.pool.request({
      path: this.prefix + path,
      method,
      headers: { ...this.headers, 'content-type': 'application/octet-stream', 'content-length': String(size) },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new AdapterHttpError(`${method} ${path} → HTTP ${res.statusCode}: ${text.slice(0, 200)}`, res.statusCode);
  }

  /** Our image only: asks the container to exit, so removing it needs no kill. */
  async shutdown(): Promise<void> {
    await this.call('POST', ROUTES.shutdown, {});
  }
}
