// The API-server double: an HTTP server on 127.0.0.1 serving the core/v1 slice the runner's
// Kubernetes backend uses, with a real (podman) or in-process (fake) pod runtime behind it.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin.js';
import { handleApi, type ApiContext } from './api-routes.js';
import { Auth } from './auth.js';
import { API_GROUPS, APPS_V1, CORE_V1, NETWORKING_V1, VERSION, apiVersions } from './discovery.js';
import { DeploymentController } from './deployments.js';
import { sendJson } from './http-util.js';
import { Kubelet } from './kubelet.js';
import { defaultNode } from './node.js';
import { Resources } from './resources.js';
import type { PodSecurityLevel } from './pod-security.js';
import { PodmanRuntime } from './runtime/podman.js';
import type { PodRuntime } from './runtime/types.js';
import { ApiError } from './status.js';
import { Store } from './store.js';
import { makeServingCert } from './tls.js';

export interface DoubleOptions {
  /** 'podman' runs Pods for real; 'fake' serves each Pod from an in-process HTTP handler. */
  runtime?: 'podman' | PodRuntime;
  port?: number;
  /** Bearer token of the admin user (random when absent). */
  token?: string;
  /** Name prefix of everything created in podman (random `k8sd-xxxxxx` when absent). */
  prefix?: string;
  bookmarkMs?: number;
  /** Events kept for watch resumption before 410 Expired. */
  historySize?: number;
  /** Sees every request the server receives, its body as it arrives (tests that audit what a client sent). */
  tap?: (r: TappedRequest) => void;
  /** Pod Security admission level enforced per namespace (pod-security.ts); none: privileged. */
  podSecurity?: Record<string, PodSecurityLevel>;
}

export interface TappedRequest { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer[] }

/** Copies a request's body chunks as whoever reads it (routes, the pod proxy) consumes them. */
function tapRequest(req: http.IncomingMessage, tap: (r: TappedRequest) => void): void {
  const r: TappedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: [] };
  tap(r);
  const emit = req.emit.bind(req) as (event: string | symbol, ...args: unknown[]) => boolean;
  req.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'data') r.body.push(Buffer.from(args[0] as Buffer));
    return emit(event, ...args);
  }) as typeof req.emit;
}

export interface RunningDouble {
  url: string;
  token: string;
  /** PEM of the CA that signed the serving certificate. */
  ca: string;
  prefix: string;
  ctx: ApiContext;
  close(): Promise<void>;
}

const ANONYMOUS = new Set(['/version', '/healthz', '/livez', '/readyz']);

export async function startDouble(o: DoubleOptions = {}): Promise<RunningDouble> {
  const prefix = o.prefix ?? `k8sd-${randomBytes(3).toString('hex')}`;
  const token = o.token ?? randomBytes(24).toString('base64url');
  const runtime = o.runtime === undefined || o.runtime === 'podman' ? new PodmanRuntime(prefix) : o.runtime;
  const store = new Store(o.historySize);
  const kubelet = new Kubelet(store, runtime, defaultNode());
  const auth = new Auth({ [token]: 'admin' });
  const ctx: ApiContext = { store, resources: new Resources(store, kubelet, o.podSecurity ?? {}), kubelet, auth, bookmarkMs: o.bookmarkMs ?? 10_000 };
  new DeploymentController(store, ctx.resources);
  let address = '';

  const tls = makeServingCert();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (o.tap) tapRequest(req, o.tap);
    const url = new URL(req.url ?? '/', 'http://double');
    void (async () => {
      try {
        if (ANONYMOUS.has(url.pathname)) {
          if (url.pathname === '/version') sendJson(res, 200, VERSION);
          else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        }
        const user = auth.authenticate(req.headers.authorization);
        if (url.pathname.startsWith('/_k8sd/')) {
          if (user !== 'admin') throw new ApiError(403, 'Forbidden', 'test hooks need the admin token');
          await handleAdmin(ctx, req, res, url);
          return;
        }
        if (url.pathname === '/api' || url.pathname === '/api/') sendJson(res, 200, apiVersions(address));
        else if (url.pathname === '/apis' || url.pathname === '/apis/') sendJson(res, 200, API_GROUPS);
        else if (url.pathname === '/api/v1' || url.pathname === '/api/v1/') sendJson(res, 200, CORE_V1);
        else if (url.pathname === '/apis/apps/v1' || url.pathname === '/apis/apps/v1/') sendJson(res, 200, APPS_V1);
        else if (url.pathname.startsWith('/api/v1/')) await handleApi(ctx, user, req, res, url);
        else if (url.pathname.startsWith('/apis/apps/v1/')) await handleApi(ctx, user, req, res, url, 'apps');
        else if (url.pathname === '/apis/networking.k8s.io/v1' || url.pathname === '/apis/networking.k8s.io/v1/') sendJson(res, 200, NETWORKING_V1);
        else if (url.pathname.startsWith('/apis/networking.k8s.io/v1/')) await handleApi(ctx, user, req, res, url, 'networking');
        else throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`);
        if (res.headersSent) { res.destroy(); return; }
        req.resume();
        sendJson(res, e.code, e.toStatus());
      }
    })();
  };
  const server = https.createServer({ cert: tls.cert, key: tls.key }, handler);
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  address = `127.0.0.1:${port}`;
  ctx.outage = (seconds) => {
    // After the hook's own answer has gone out: every connection cut (watches included) and
    // nothing listening, as while an API server restarts; the kubelet and the Pods go on.
    // (Neither timer is unref'd: with the server closed they are what keeps the double's process up.)
    setTimeout(() => {
      console.log(`${new Date().toISOString()} API server away for ${seconds}s`);
      server.close();
      server.closeAllConnections();
      setTimeout(() => server.listen(port, '127.0.0.1', () => console.log(`${new Date().toISOString()} API server back`)), seconds * 1000);
    }, 100);
  };
  return {
    url: `https://${address}`, token, ca: tls.ca, prefix, ctx,
    close: async () => {
      kubelet.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await runtime.removeAll();
    },
  };
}
