// Routing of /api/v1, /apis/apps/v1 and /apis/networking.k8s.io/v1 requests to verbs on pods, secrets, services, deployments
// and networkpolicies, after authentication and the
// RBAC-lite check. Paths follow the real layout:
//   /api/v1/namespaces/{ns}/{resource}[/{name}[/{log|proxy}[/{path...}]]]   and /api/v1/{resource}
//   /apis/apps/v1/namespaces/{ns}/deployments[/{name}]                      and /apis/apps/v1/deployments
import type http from 'node:http';
import { verbOf, type Auth } from './auth.js';
import { readJson, sendJson } from './http-util.js';
import type { Kubelet } from './kubelet.js';
import { parseProxyTarget, proxyToPod } from './proxy.js';
import type { DeleteOptions, Resources } from './resources.js';
import { fieldSelector, labelSelector } from './selectors.js';
import { ApiError, badRequest, notFound } from './status.js';
import type { Store } from './store.js';
import type { KObject, Pod, Resource } from './types.js';
import { serveWatch } from './watch-stream.js';

/** Resources per API group: core (/api/v1) and apps (/apis/apps/v1). */
const RESOURCES: Record<ApiGroup, Set<Resource>> = { core: new Set<Resource>(['pods', 'secrets', 'services']), apps: new Set<Resource>(['deployments']), networking: new Set<Resource>(['networkpolicies']) };
export type ApiGroup = 'core' | 'apps' | 'networking';

export interface ApiContext {
  store: Store; resources: Resources; kubelet: Kubelet; auth: Auth; bookmarkMs: number;
  /** The API server stops answering for `seconds` (connections and watches cut, nothing listening), then comes back on its port; the Pods run on. */
  outage?: (seconds: number) => void;
}

const methodNotAllowed = (): ApiError => new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

function selectorOf(q: URLSearchParams): (o: KObject) => boolean {
  const l = labelSelector(q.get('labelSelector'));
  const f = fieldSelector(q.get('fieldSelector'));
  return (o) => l(o) && f(o);
}

async function deleteOptions(req: http.IncomingMessage, q: URLSearchParams): Promise<DeleteOptions> {
  const body = ((await readJson(req)) ?? {}) as Record<string, unknown>;
  const grace = q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  const policy = q.get('propagationPolicy') ?? body.propagationPolicy;
  if (policy !== undefined && policy !== null && !['Background', 'Foreground', 'Orphan'].includes(String(policy))) {
    throw badRequest(`propagationPolicy: Unsupported value: "${String(policy)}"`);
  }
  const dry = q.get('dryRun') ?? (Array.isArray(body.dryRun) ? body.dryRun[0] : undefined);
  return {
    ...(grace !== undefined && grace !== null ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(policy ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] } : {}),
    ...(dry === 'All' ? { dryRun: true } : {}),
  };
}

export async function handleApi(ctx: ApiContext, user: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL, group: ApiGroup = 'core'): Promise<void> {
  const seg = url.pathname.split('/').slice(group === 'core' ? 3 : 4).map(decodeURIComponent); // after /api/v1 or /apis/apps/v1
  let ns: string | undefined;
  if (seg[0] === 'namespaces') {
    ns = seg[1];
    seg.splice(0, 2);
    if (!ns) throw notFound('namespaces', '');
  }
  const resource = seg[0] as Resource;
  if (!RESOURCES[group].has(resource)) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const q = url.searchParams;
  const method = req.method ?? 'GET';
  const nsForAuth = ns ?? '';

  if (seg.length === 1) {
    const watch = q.get('watch') === '1' || q.get('watch') === 'true';
    if (method === 'GET') {
      ctx.auth.authorize(user, { verb: watch ? 'watch' : 'list', resource, namespace: nsForAuth });
      const match = selectorOf(q);
      if (watch) {
        const timeout = q.get('timeoutSeconds');
        serveWatch(ctx.store, { resource, ...(ns !== undefined ? { namespace: ns } : {}), match }, {
          ...(q.get('resourceVersion') ? { resourceVersion: q.get('resourceVersion')! } : {}),
          ...(timeout ? { timeoutSeconds: Number(timeout) } : {}),
          bookmarks: q.get('allowWatchBookmarks') === 'true', bookmarkMs: ctx.bookmarkMs,
        }, res);
        return;
      }
      sendJson(res, 200, ctx.resources.list(resource, ns, match));
      return;
    }
    if (ns === undefined) throw methodNotAllowed();
    if (method === 'POST') {
      ctx.auth.authorize(user, { verb: 'create', resource, namespace: ns });
      const created = ctx.resources.create(resource, ns, await readJson(req), q.get('dryRun') === 'All');
      sendJson(res, 201, created);
      return;
    }
    if (method === 'DELETE') {
      ctx.auth.authorize(user, { verb: 'deletecollection', resource, namespace: ns });
      sendJson(res, 200, ctx.resources.deleteCollection(resource, ns, selectorOf(q), await deleteOptions(req, q)));
      return;
    }
    throw methodNotAllowed();
  }
  if (ns === undefined) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const sub = seg[2];
  if (sub === undefined) {
    const name = seg[1]!;
    if (method === 'GET') {
      ctx.auth.authorize(user, { verb: 'get', resource, namespace: ns, name });
      sendJson(res, 200, ctx.resources.get(resource, ns, name));
      return;
    }
    if (method === 'DELETE') {
      ctx.auth.authorize(user, { verb: 'delete', resource, namespace: ns, name });
      sendJson(res, 200, ctx.resources.delete(resource, ns, name, await deleteOptions(req, q)));
      return;
    }
    throw methodNotAllowed();
  }
  if (resource === 'pods' && sub === 'status' && method === 'GET') {
    ctx.auth.authorize(user, { verb: 'get', resource: 'pods/status', namespace: ns, name: seg[1]! });
    sendJson(res, 200, ctx.resources.get(resource, ns, seg[1]!));
    return;
  }
  if (resource !== 'pods' || (sub !== 'log' && sub !== 'proxy')) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const target = parseProxyTarget(seg[1]!);
  if (sub === 'log') {
    ctx.auth.authorize(user, { verb: 'get', resource: 'pods/log', namespace: ns, name: target.name });
    if (method !== 'GET') throw methodNotAllowed();
    const pod = ctx.store.get<Pod>('pods', ns, target.name);
    const state = pod.status?.containerStatuses?.[0]?.state;
    if (!state || state.waiting) {
      throw badRequest(`container "${pod.spec.containers[0]!.name}" in pod "${target.name}" is waiting to start: ${state?.waiting?.reason ?? 'ContainerCreating'}`);
    }
    const tail = q.get('tailLines');
    const text = await ctx.kubelet.runtime.logs(pod, tail !== null ? Number(tail) : undefined);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
    return;
  }
  ctx.auth.authorize(user, { verb: verbOf(method), resource: 'pods/proxy', namespace: ns, name: target.name });
  const pod = ctx.store.get<Pod>('pods', ns, target.name);
  const rest = url.pathname.split('/').slice(8).join('/'); // after /api/v1/namespaces/{ns}/pods/{name}/proxy
  proxyToPod(pod, target.port, rest, url.search, req, res);
}
