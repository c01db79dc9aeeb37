// The NetworkPolicy a sealed run writes beside its Pods (docs/kubernetes.md, "Sealed network"):
// the cluster's own fence around the run's scenario Pods, on top of the in-Pod egress filter.
// It covers the whole Pod (the world daemon and the entrypoint too, not only the agent user),
// so it lets out what any of them needs: the addresses the filter allows (the model gateway's
// Pods on its port; in direct mode the model endpoint's port), and DNS when one of those is a
// name (the entrypoint resolves them as root before the filter goes in). Ingress: the adapter's
// port, which the runner reaches through the API server's pod proxy or the Pod IP (neither has
// an address known here). Whether a NetworkPolicy is enforced at all depends on the cluster's
// CNI plugin; the in-Pod filter is what seals the agent.
import type { V1NetworkPolicy, V1NetworkPolicyEgressRule, V1OwnerReference } from '@kubernetes/client-node';
import { isIP } from 'node:net';
import { K8S_LABELS, labelValue, runLabels } from './manifests.js';

export const NETWORK_POLICY_API = 'networking.k8s.io/v1';

/** Pod labels that serve one allowed `host:port` (the gateway's Service name → its Pods' selector). */
export type SealPeers = ReadonlyMap<string, Record<string, string>>;

/** Splits `host:port` (an IPv6 host may keep its colons). */
function hostPort(hp: string): { host: string; port: number } {
  const i = hp.lastIndexOf(':');
  return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
}

/** One egress rule per allowed address: a known peer's Pods, an IP literal, or the port anywhere. */
export function egressRules(allow: readonly string[], peers: SealPeers): V1NetworkPolicyEgressRule[] {
  const rules: V1NetworkPolicyEgressRule[] = [];
  let names = false;
  for (const hp of allow) {
    const { host, port } = hostPort(hp);
    if (!Number.isInteger(port) || port < 1) continue;
    const ports = [{ port, protocol: 'TCP' }];
    const peer = peers.get(host);
    if (peer) rules.push({ to: [{ podSelector: { matchLabels: peer } }], ports });
    else if (isIP(host)) rules.push({ to: [{ ipBlock: { cidr: isIP(host) === 6 ? `${host}/128` : `${host}/32` } }], ports });
    // a name outside the cluster (a direct-mode endpoint): its addresses are not known here
    else rules.push({ ports });
    if (!isIP(host)) names = true;
  }
  if (names) rules.push({ ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] });
  return rules;
}

export function networkPolicyName(runSecret: string): string {
  return runSecret; // one per run, named like the run's Secret that owns it
}

/** The run's NetworkPolicy: its scenario Pods, the allowed egress, the adapter's port in. */
export function networkPolicyManifest(o: {
  namespace: string;
  name: string;
  runId: string;
  labels: Record<string, string>;
  owner: V1OwnerReference;
  allow: readonly string[];
  peers: SealPeers;
  adapterPort: number;
}): V1NetworkPolicy {
  return {
    apiVersion: NETWORK_POLICY_API,
    kind: 'NetworkPolicy',
    metadata: { name: o.name, namespace: o.namespace, labels: { ...runLabels(o.runId, o.labels), [K8S_LABELS.role]: 'seal' }, ownerReferences: [o.owner] },
    spec: {
      podSelector: { matchLabels: { [K8S_LABELS.run]: labelValue(o.runId), [K8S_LABELS.role]: 'unit' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ port: o.adapterPort, protocol: 'TCP' }] }],
      egress: egressRules(o.allow, o.peers),
    },
  };
}
