// HTTP client for one container's adapter (docs/contract.md, "Adapter HTTP"). Short timeouts: a
// request that hangs must never stall the run loop; the caller decides what a failure means.
// One connection pool per container, kept alive between polls and closed with the run: host
// ports are reused by later containers, and a pooled connection must never outlive its own.
import { Pool } from 'undici';
import type { ArtifactsResponse, DaemonStatus, HealthResponse, NotifyResponse, UploadRequest } from '../../../agent-image/src/contract/index.js';
import { ADAPTER_TOKEN_HEADER, ROUTES } from '../../../agent-image/src/contract/index.js';
import type { AdapterEndpoint, ContainerFile } from '../engine/index.js';

/** The adapter (or a proxy in front of it) answered with an HTTP error. */
export class AdapterHttpError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

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
  async artifacts(): Promise<{ files: Map<string, Buffer>; unreadable: string[] }> {
    const r = await this.call<ArtifactsResponse>('GET', ROUTES.artifacts);
    const files = new Map(Object.entries(r.files ?? {}).map(([name, b64]) => [name, Buffer.from(b64, 'base64')] as const));
    return { files, unreadable: r.unreadable ?? [] };
  }

  /**
   * Our image only (its files-route feature): writes files under UPLOAD_ROOT, in the given
   * order, so a reader that sees the last one knows the others are complete. This is how the
   * scenario gets into a running unit on every backend, archive API or not.
   */
  async putFiles(files: readonly ContainerFile[]): Promise<void> {
    const body: UploadRequest = {
      files: files.map((f) => ({ path: f.path, content: Buffer.from(f.content).toString('base64'), ...(f.mode !== undefined ? { mode: f.mode } : {}) })),
    };
    await this.call('POST', ROUTES.files, body, Math.max(this.timeoutMs, UPLOAD_TIMEOUT_MS));
  }

  /** Our image only: asks the container to exit, so removing it needs no kill. */
  async shutdown(): Promise<void> {
    await this.call('POST', ROUTES.shutdown, {});
  }
}
