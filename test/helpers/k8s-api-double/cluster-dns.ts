// The double's cluster DNS: a Pod resolves every Service's names — `<svc>.<ns>.svc.cluster.local`,
// `<svc>.<ns>.svc`, `<svc>.<ns>`, and `<svc>` within its own namespace — as on a cluster. The
// double has no cluster IPs that route, so a name resolves to the Pod IP of a ready Pod the
// Service selects (as a headless Service's name does), written into the played Pod's hosts
// file (hostAliases of the played copy only; the stored Pod is unchanged). Names are resolved
// when the Pod starts: a Service (or its Pods) must be ready before its clients start, and the
// Service's port must equal its targetPort (no port translation).
import type { Store } from './store.js';
import type { Pod, Service } from './types.js';

const isReady = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && !!p.status.podIP && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** hostAliases entries for a Pod about to start in `ns`. */
export function clusterDnsAliases(store: Store, ns: string): { ip: string; hostnames: string[] }[] {
  const byIp = new Map<string, string[]>();
  for (const svc of store.list<Service>('services', undefined)) {
    const sel = svc.spec.selector;
    if (!sel || !Object.keys(sel).length) continue;
    const svcNs = svc.metadata.namespace!;
    const endpoint = store
      .list<Pod>('pods', svcNs, (o) => Object.entries(sel).every(([k, v]) => o.metadata.labels?.[k] === v))
      .find(isReady);
    if (!endpoint) continue;
    const n = svc.metadata.name!;
    const names = [`${n}.${svcNs}.svc.cluster.local`, `${n}.${svcNs}.svc`, `${n}.${svcNs}`, ...(svcNs === ns ? [n] : [])];
    byIp.set(endpoint.status!.podIP!, [...(byIp.get(endpoint.status!.podIP!) ?? []), ...names]);
  }
  return [...byIp].map(([ip, hostnames]) => ({ ip, hostnames }));
}
