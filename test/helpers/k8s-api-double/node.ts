// The double's one node and the scheduler's fit check: nodeSelector against the node's
// labels, taints against the pod's tolerations, and the pod's resource requests against what
// the node has left. A pod that does not fit stays Pending with PodScheduled=False /
// Unschedulable and a message in the scheduler's words, and is retried when the node or the
// set of running pods changes.
import os from 'node:os';
import type { Pod, Toleration } from './types.js';

export interface Taint { key: string; value?: string; effect: 'NoSchedule' | 'NoExecute' | 'PreferNoSchedule' }

export interface NodeModel {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  /** cpu in cores (may be fractional), memory in bytes, pods as a count */
  allocatable: { cpu: number; memory: number; pods: number };
}

export function defaultNode(): NodeModel {
  return {
    name: 'k8sd-node',
    labels: {
      'kubernetes.io/hostname': 'k8sd-node',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': process.arch === 'x64' ? 'amd64' : process.arch,
    },
    taints: [],
    allocatable: { cpu: os.cpus().length, memory: os.totalmem(), pods: 1000 },
  };
}

const SUFFIX: Record<string, number> = {
  '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** Parses a Kubernetes quantity ("500m", "2", "1Gi", "1e3"); NaN when malformed. */
export function quantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(m|k|Ki|Mi|Gi|Ti|Pi|Ei|M|G|T|P|E)?$/.exec(q.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'm' ? n / 1000 : n * SUFFIX[m[2] ?? '']!;
}

export interface Demand { cpu: number; memory: number }

/** A pod's requests (limits stand in for missing requests, as the API server defaults them). */
export function demand(p: Pod): Demand {
  let cpu = 0;
  let memory = 0;
  for (const c of p.spec.containers) {
    const r = c.resources ?? {};
    cpu += quantity(r.requests?.cpu ?? r.limits?.cpu);
    memory += quantity(r.requests?.memory ?? r.limits?.memory);
  }
  return { cpu, memory };
}

function tolerates(tols: Toleration[], t: Taint): boolean {
  return tols.some((tol) => (tol.effect === undefined || tol.effect === '' || tol.effect === t.effect)
    && (tol.operator === 'Exists' ? (tol.key === undefined || tol.key === '' || tol.key === t.key) : tol.key === t.key && (tol.value ?? '') === (t.value ?? '')));
}

/** Why the pod cannot be scheduled now, in the scheduler's event wording; undefined when it fits. */
export function unschedulableReason(node: NodeModel, pod: Pod, inUse: Demand, podsInUse: number): string | undefined {
  const reasons: string[] = [];
  const sel = pod.spec.nodeSelector ?? {};
  if (Object.entries(sel).some(([k, v]) => node.labels[k] !== v)) reasons.push("1 node(s) didn't match Pod's node affinity/selector");
  const untolerated = node.taints.filter((t) => t.effect !== 'PreferNoSchedule' && !tolerates(pod.spec.tolerations ?? [], t));
  if (untolerated.length) reasons.push(`1 node(s) had untolerated taint {${untolerated[0]!.key}: ${untolerated[0]!.value ?? ''}}`);
  const d = demand(pod);
  if (inUse.cpu + d.cpu > node.allocatable.cpu) reasons.push('1 Insufficient cpu');
  if (inUse.memory + d.memory > node.allocatable.memory) reasons.push('1 Insufficient memory');
  if (podsInUse + 1 > node.allocatable.pods) reasons.push('1 Too many pods');
  if (!reasons.length) return undefined;
  return `0/1 nodes are available: ${reasons.join(', ')}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`;
}
