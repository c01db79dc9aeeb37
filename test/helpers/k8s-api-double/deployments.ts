// The Deployment controller's part the runner relies on: a Deployment keeps `replicas` Pods
// made from its template (labels, a pod-template-hash label, an ownerReference naming the
// Deployment as controller), replaces a Pod that is deleted or has failed for good (evicted)
// while the Deployment exists, and reports replicas / readyReplicas / availableReplicas and the
// Available condition in its status. An ended container is no reason: its Pod (restartPolicy
// Always) runs it again in place (the kubelet, restarts.ts). A failed Pod stays, as a
// ReplicaSet leaves it, until the Deployment goes. Simplification: the Pods are owned by the Deployment itself (a cluster puts a
// ReplicaSet in between); there are no rollouts (templates never change: no PATCH/PUT).
import { createHash, randomInt } from 'node:crypto';
import type { Resources } from './resources.js';
import type { Store } from './store.js';
import { now, type Deployment, type DeploymentStatus, type KObject, type Pod } from './types.js';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const suffix = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
const terminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const ready = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

function ownerOf(o: KObject): string | undefined {
  return (o.metadata.ownerReferences ?? []).find((r) => r.kind === 'Deployment' && r.controller)?.name;
}

export class DeploymentController {
  constructor(private readonly store: Store, private readonly resources: Resources) {
    store.listeners.push((resource, e) => {
      if (resource === 'deployments' && e.type === 'ADDED') this.reconcile(e.object.metadata.namespace!, e.object.metadata.name!);
      if (resource !== 'pods') return;
      const owner = ownerOf(e.object);
      if (!owner) return;
      const ns = e.object.metadata.namespace!;
      queueMicrotask(() => this.reconcile(ns, owner));
    });
  }

  private pods(d: Deployment): Pod[] {
    return this.store.list<Pod>('pods', d.metadata.namespace, (o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === d.metadata.uid));
  }

  private reconcile(ns: string, name: string): void {
    const d = this.store.peek<Deployment>('deployments', ns, name);
    if (!d) return;
    const live = this.pods(d).filter((p) => !p.metadata.deletionTimestamp && !terminal(p));
    const want = d.spec.replicas ?? 1;
    for (let i = live.length; i < want; i++) live.push(this.create(d));
    this.store.update<Deployment>('deployments', ns, name, (o) => {
      o.status = statusOf(live, want, o.status);
    });
  }

  private create(d: Deployment): Pod {
    const hash = createHash('sha256').update(JSON.stringify(d.spec.template)).digest('hex').slice(0, 10);
    const t = d.spec.template;
    return this.resources.create('pods', d.metadata.namespace!, {
      metadata: {
        name: `${d.metadata.name}-${hash}-${suffix(5)}`,
        labels: { ...(t.metadata?.labels ?? {}), 'pod-template-hash': hash },
        ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name!, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec: structuredClone(t.spec),
    }) as Pod;
  }
}

function statusOf(pods: Pod[], want: number, before: DeploymentStatus | undefined): DeploymentStatus {
  const readyN = pods.filter(ready).length;
  const available = readyN >= want;
  const at = now();
  const cond = (type: string, status: 'True' | 'False', reason: string, message: string) => {
    const old = before?.conditions?.find((c) => c.type === type);
    return { type, status, reason, message, lastUpdateTime: old?.status === status ? old.lastUpdateTime : at, lastTransitionTime: old?.status === status ? old.lastTransitionTime : at };
  };
  return {
    observedGeneration: 1,
    replicas: pods.length,
    updatedReplicas: pods.length,
    ...(readyN ? { readyReplicas: readyN, availableReplicas: readyN } : {}),
    ...(pods.length - readyN > 0 ? { unavailableReplicas: pods.length - readyN } : {}),
    conditions: [
      available
        ? cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
        : cond('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
      cond('Progressing', 'True', available ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated', available ? 'the Deployment\'s Pods are available' : 'the Deployment\'s Pods are progressing'),
    ],
  };
}
