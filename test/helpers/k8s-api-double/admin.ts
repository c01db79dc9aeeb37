// Test hooks, outside the Kubernetes API under /_k8sd/ (no API path starts with an
// underscore). They need the admin token of the kubeconfig. Routes:
//   POST /_k8sd/pods/{ns}/{name}/kill       SIGKILL the container (exit 137; restartPolicy decides what follows)
//   POST /_k8sd/pods/{ns}/{name}/evict      status Failed, reason Evicted; container killed
//   POST /_k8sd/pods/{ns}/{name}/node-lost  status Unknown, reason NodeLost; container killed
//   GET  /_k8sd/node                        the node model
//   PUT  /_k8sd/node                        {labels?, taints?, allocatable?{cpu,memory,pods}} (merge)
//   PUT  /_k8sd/rbac                        {user, deny:["delete pods", "* secrets", ...]}
//   POST /_k8sd/tokens                      {token, user} adds a token
//   GET  /_k8sd/requests                    {"verb resource": count}; DELETE resets the counts
//   POST /_k8sd/compact                     forget watch history (older resourceVersions → 410)
//   GET  /_k8sd/stats                       {watches, pods}
//   POST /_k8sd/outage                      {seconds}: answered, then the API server is away that long (an API-server restart; Pods run on)
import type http from 'node:http';
import type { ApiContext } from './api-routes.js';
import { readJson, sendJson } from './http-util.js';
import { quantity, type NodeModel } from './node.js';
import { ApiError } from './status.js';

export async function handleAdmin(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const seg = url.pathname.split('/').slice(2).map(decodeURIComponent);
  const method = req.method ?? 'GET';
  const route = `${method} ${seg[0]}`;
  if (seg[0] === 'pods' && method === 'POST' && seg.length === 4) {
    const [, ns, name, action] = seg as [string, string, string, string];
    if (action === 'kill') await ctx.kubelet.kill(ns, name);
    else if (action === 'evict') await ctx.kubelet.fail(ns, name, 'Evicted');
    else if (action === 'node-lost') await ctx.kubelet.fail(ns, name, 'NodeLost');
    else throw new ApiError(404, 'NotFound', `unknown pod action ${action}`);
    sendJson(res, 200, { ok: true });
    return;
  }
  switch (route) {
    case 'GET node': sendJson(res, 200, ctx.kubelet.node); return;
    case 'PUT node': {
      const b = ((await readJson(req)) ?? {}) as Partial<Omit<NodeModel, 'allocatable'>> & { allocatable?: Record<string, string | number> };
      const alloc = b.allocatable ? Object.fromEntries(Object.entries(b.allocatable).map(([k, v]) => [k, quantity(v)])) : undefined;
      ctx.kubelet.setNode({ ...(b.labels ? { labels: b.labels } : {}), ...(b.taints ? { taints: b.taints } : {}), ...(alloc ? { allocatable: alloc as NodeModel['allocatable'] } : {}) });
      sendJson(res, 200, ctx.kubelet.node);
      return;
    }
    case 'PUT rbac': {
      const b = (await readJson(req)) as { user: string; deny: string[] };
      ctx.auth.deny(b.user, b.deny ?? []);
      sendJson(res, 200, { ok: true });
      return;
    }
    case 'POST tokens': {
      const b = (await readJson(req)) as { token: string; user: string };
      ctx.auth.addToken(b.token, b.user);
      sendJson(res, 200, { ok: true });
      return;
    }
    case 'GET requests': sendJson(res, 200, Object.fromEntries(ctx.auth.requests)); return;
    case 'DELETE requests': ctx.auth.requests.clear(); sendJson(res, 200, { ok: true }); return;
    case 'POST compact': ctx.store.compact(); sendJson(res, 200, { resourceVersion: ctx.store.resourceVersion }); return;
    case 'POST outage': {
      const b = ((await readJson(req)) ?? {}) as { seconds?: number };
      const seconds = Number(b.seconds);
      if (!(seconds > 0) || !ctx.outage) throw new ApiError(400, 'BadRequest', 'outage needs {seconds > 0}');
      sendJson(res, 200, { ok: true, seconds });
      ctx.outage(seconds);
      return;
    }
    case 'GET stats': sendJson(res, 200, { watches: ctx.store.watcherCount, pods: ctx.store.list('pods', undefined).length }); return;
    default: throw new ApiError(404, 'NotFound', `no test hook ${route}`);
  }
}
