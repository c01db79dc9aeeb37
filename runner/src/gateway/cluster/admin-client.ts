// The runner's side of the in-cluster gateway's admin API: finds the gateway's Pod, waits until
// it answers, and calls it through the API server's pod proxy (or the Pod IP when the runner
// itself runs in the cluster), with the admin token.
import type { V1Pod } from '@kubernetes/client-node';
import { Agent, request } from 'undici';
import { EngineError } from '../../engine/errors.js';
import { apiMessage, proxyCredentials, type KubeAccess } from '../../engine/kubernetes/client.js';
import { unitStateOf } from '../../engine/kubernetes/pod-state.js';
import { GATEWAY_LABEL } from './manifests.js';
import { ADMIN_HEADER, ADMIN_PORT } from './protocol.js';

const POLL_MS = 500;

export class AdminClient {
  private constructor(
    private readonly base: string,
    private readonly headers: Record<string, string>,
    private readonly dispatcher: Agent,
  ) {}

  /** Waits (up to pendingTimeoutS) for the Deployment's Pod to run and its admin API to answer. */
  static async connect(access: KubeAccess, name: string, adminToken: string, pendingTimeoutS: number): Promise<AdminClient> {
    const deadline = Date.now() + pendingTimeoutS * 1000;
    const { headers, tls } = await proxyCredentials(access);
    const dispatcher = new Agent({ ...(tls ? { connect: tls } : {}), headersTimeout: 120_000, bodyTimeout: 120_000 });
    let last = 'no Pod yet';
    while (Date.now() < deadline) {
      const pods = await access.core.listNamespacedPod({ namespace: access.namespace, labelSelector: `${GATEWAY_LABEL}=${name}` }).catch((e: unknown) => {
        last = apiMessage(e);
        return null;
      });
      const pod = pods?.items.find((p: V1Pod) => p.status?.phase === 'Running' && p.status.podIP && !p.metadata?.deletionTimestamp);
      const failing = pods?.items.map((p) => unitStateOf(p).failure).find(Boolean);
      if (failing && failing.kind !== 'pod_pending_timeout') {
        await dispatcher.close();
        throw new EngineError(failing.kind, `the model gateway's Pod: ${failing.message}`);
      }
      if (pod) {
        const podName = pod.metadata!.name!;
        const base = access.inCluster ? `http://${pod.status!.podIP}:${ADMIN_PORT}` : `${access.server}/api/v1/namespaces/${access.namespace}/pods/${podName}:${ADMIN_PORT}/proxy`;
        const client = new AdminClient(base, { ...(access.inCluster ? {} : headers), [ADMIN_HEADER]: adminToken }, dispatcher);
        const ok = await client.call('GET', '/healthz').then(
          () => true,
          (e: unknown) => ((last = (e as Error).message), false),
        );
        if (ok) return client;
      } else if (pods) last = pods.items.length ? `Pod ${pods.items[0]!.metadata?.name} is ${pods.items[0]!.status?.phase ?? 'Pending'}` : 'no Pod yet';
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    await dispatcher.close();
    throw new EngineError('pod_pending_timeout', `the model gateway in the cluster did not answer within ${pendingTimeoutS}s ([kubernetes].pending_timeout): ${last}`);
  }

  async call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const r = await request(`${this.base}${path}`, {
      method,
      headers: { ...this.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      dispatcher: this.dispatcher,
    });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`model gateway admin ${method} ${path}: HTTP ${r.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
