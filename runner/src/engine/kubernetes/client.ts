// Access to one cluster: the kubeconfig (a file, a context, the usual resolution, or the
// in-cluster service account), the namespace, and the API clients built from them.
import { CoreV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { existsSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { KubernetesSettings } from './settings.js';
import { ConfigError } from '../../plan/errors.js';
import { EngineError } from '../errors.js';

const SA_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export interface KubeAccess {
  kc: KubeConfig;
  core: CoreV1Api;
  version: VersionApi;
  namespace: string;
  /** The API server's base URL (no trailing slash). */
  server: string;
  /** The runner runs in a Pod of the cluster: Pod IPs are reachable, no proxy needed. */
  inCluster: boolean;
}

export function connectKube(s: Pick<KubernetesSettings, 'kubeconfig' | 'context' | 'namespace'>, env: NodeJS.ProcessEnv = process.env): KubeAccess {
  const kc = new KubeConfig();
  try {
    if (s.kubeconfig) {
      if (!existsSync(s.kubeconfig)) throw new ConfigError(`[kubernetes].kubeconfig does not exist: ${s.kubeconfig}`);
      kc.loadFromFile(s.kubeconfig);
    } else kc.loadFromDefault();
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const where = s.kubeconfig ? `[kubernetes].kubeconfig (${s.kubeconfig})` : env.KUBECONFIG ? `KUBECONFIG (${env.KUBECONFIG})` : '~/.kube/config';
    throw new ConfigError(`cannot read the kubeconfig from ${where}: ${(e as Error).message}`);
  }
  if (s.context) {
    if (!kc.getContextObject(s.context))
      throw new ConfigError(`[kubernetes].context "${s.context}" is not in the kubeconfig (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'})`);
    kc.setCurrentContext(s.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new ConfigError('the kubeconfig has no current cluster: set [kubernetes].context or [kubernetes].kubeconfig');
  const inCluster = kc.getCurrentUser()?.name === 'inClusterUser';
  const namespace =
    s.namespace ??
    kc.getContextObject(kc.getCurrentContext())?.namespace ??
    (inCluster && existsSync(SA_NAMESPACE_FILE) ? readFileSync(SA_NAMESPACE_FILE, 'utf8').trim() : null) ??
    'default';
  return { kc, core: kc.makeApiClient(CoreV1Api), version: kc.makeApiClient(VersionApi), namespace, server: cluster.server.replace(/\/+$/, ''), inCluster };
}

/** HTTP status of a failed API call (client-node's ApiException), if any. */
export function apiStatus(e: unknown): number | undefined {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

/** The Status message the API server sent, else the error's own message. */
export function apiMessage(e: unknown): string {
  const body = (e as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      const m = (JSON.parse(body) as { message?: string }).message;
      if (m) return m;
    } catch {
      if (body.trim()) return body.trim().slice(0, 300);
    }
  } else if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message;
  return (e as Error).message ?? String(e);
}

/** An API failure as the engine's error: unreachable or unauthorized clusters are infrastructure. */
export function kubeError(e: unknown, what: string, kind: ConstructorParameters<typeof EngineError>[0] = 'engine_unavailable'): EngineError {
  if (e instanceof EngineError) return e;
  const status = apiStatus(e);
  if (status === 401 || status === 403)
    return new EngineError('engine_unavailable', `${what}: the cluster refused the request (HTTP ${status}: ${apiMessage(e)}); see docs/kubernetes.md for the Role the runner needs`);
  if (status === undefined) return new EngineError('engine_unavailable', `${what}: the cluster's API server is not reachable (${(e as Error).message})`);
  return new EngineError(kind, `${what}: HTTP ${status}: ${apiMessage(e)}`);
}

const contexts = new WeakMap<KubeAccess, { key: string; context: SecureContext }>();

/**
 * Headers and TLS for requests through the API server (the pod proxy): what client-node
 * applies to its own requests (token, basic auth, CA, client certificate). The TLS context is
 * made once per cluster access and reused while the material stays the same.
 */
export async function proxyCredentials(access: KubeAccess): Promise<{ headers: Record<string, string>; tls?: { secureContext: SecureContext; rejectUnauthorized?: boolean } }> {
  const opts: https.RequestOptions = {};
  await access.kc.applyToHTTPSOptions(opts);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string' || typeof v === 'number') headers[k] = String(v);
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  const material = { ca: opts.ca as string | Buffer | undefined, cert: opts.cert as string | Buffer | undefined, key: opts.key as string | Buffer | undefined };
  if (!material.ca && !material.cert && opts.rejectUnauthorized === undefined) return { headers };
  const key = [material.ca, material.cert, material.key].map((x) => (x ? x.toString() : '')).join('\0');
  let cached = contexts.get(access);
  if (!cached || cached.key !== key) {
    cached = { key, context: createSecureContext(Object.fromEntries(Object.entries(material).filter(([, v]) => v !== undefined))) };
    contexts.set(access, cached);
  }
  return { headers, tls: { secureContext: cached.context, ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}) } };
}
