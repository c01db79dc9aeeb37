// HTTP client for one container's adapter (docs/contract.md, "Adapter HTTP"). Short timeouts: a
// request that hangs must never stall the run loop; the caller decides what a failure means.
// One connection pool per container, kept alive between polls and closed with the run: host
// ports are reused by later containers, and a pooled connection must never outlive its own.
import { Pool } from 'undici';
import type { ArtifactsResponse, DaemonStatus, HealthResponse, NotifyResponse } from '../../../agent-image/src/contract/index.js';
import { ROUTES } from '../../../agent-image/src/contract/index.js';

export class AdapterClient {
  private readonly pool: Pool;

  constructor(
    base: string,
    private readonly token?: string,
    private readonly timeoutMs = 5000,
  ) {
    this.pool = new Pool(base, { connections: 1 }); // the run's requests are sequential
  }

  /** Closes the pool's connections (in-flight requests are let finish). */
  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await this.pool.request({
      path,
      method,
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`${method} ${path} → HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
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

  /** Our image only: asks the container to exit, so removing it needs no kill. */
  async shutdown(): Promise<void> {
    await this.call('POST', ROUTES.shutdown, {});
  }
}
