// The Kubernetes backend's settings: the `[kubernetes]` table, its checks, and the settings
// type the plan carries for `[run] backend = "kubernetes"`. Everything is validated here so
// the backend only sees checked values.
import { z } from 'zod';
import { ConfigError } from '../../plan/errors.js';
export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export const TOLERATION_OPERATORS = ['Equal', 'Exists'] as const;
export const TOLERATION_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export interface Toleration {
  key?: string;
  operator?: (typeof TOLERATION_OPERATORS)[number];
  value?: string;
  effect?: (typeof TOLERATION_EFFECTS)[number];
  tolerationSeconds?: number;
}

export interface KubernetesSettings {
  /** Kubeconfig file; null: $KUBECONFIG, ~/.kube/config, or the in-cluster service account. */
  kubeconfig: string | null;
  context: string | null;
  /** null: the context's namespace, else "default". */
  namespace: string | null;
  imagePullPolicy: (typeof IMAGE_PULL_POLICIES)[number];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  nodeSelector: Record<string, string>;
  tolerations: Toleration[];
  serviceAccount: string | null;
  labels: Record<string, string>;
  /** Seconds a Pod may stay Pending (unschedulable, pulling) before the run is an infra error. */
  pendingTimeout: number;
  /**
   * A sealed run on a cluster that refuses NET_ADMIN (Pod Security "baseline"/"restricted"):
   * false stops the run before its first Pod, saying so; true runs it unsealed (network_sealed: false).
   */
  unsealedFallback: boolean;
}

// The plan's backend settings gain this kind (see plan/backend.ts).
declare module '../../plan/backend.js' {
  interface BackendSettingsByKind {
    kubernetes: KubernetesSettings;
  }
}

export const DEFAULT_PENDING_TIMEOUT = 300;

const str = z.string({ error: 'must be a string' });
const strMap = z.record(z.string(), str, { error: 'must be a table of strings' });
const choice = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of: ${values.join(', ')}` });

export const ResourcesTable = z.strictObject({ requests: strMap.optional(), limits: strMap.optional() });
export const TolerationTable = z.strictObject({
  key: str.optional(),
  operator: choice(TOLERATION_OPERATORS).optional(),
  value: str.optional(),
  effect: choice(TOLERATION_EFFECTS).optional(),
  toleration_seconds: z.bigint({ error: 'must be an integer' }).transform(Number).optional(),
});

export const KubernetesTable = z.strictObject({
  kubeconfig: str.optional(),
  context: str.optional(),
  namespace: str.optional(),
  image_pull_policy: choice(IMAGE_PULL_POLICIES).optional(),
  resources: ResourcesTable.optional(),
  node_selector: strMap.optional(),
  tolerations: z.array(TolerationTable, { error: 'must be a list of tables ([[kubernetes.tolerations]])' }).optional(),
  service_account: str.optional(),
  labels: strMap.optional(),
  pending_timeout: z.bigint({ error: 'must be an integer (seconds)' }).transform(Number).optional(),
  unsealed_fallback: z.boolean({ error: 'must be true or false' }).optional(),
});
export type KubernetesTableData = z.output<typeof KubernetesTable>;

// Kubernetes' own rules for names and label values (RFC 1123 / qualified names).
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const QUANTITY = /^[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(e[+-]?[0-9]+|[KMGTPE]i?|[munkMGTPE])?$/;

function checkLabels(map: Record<string, string>, where: string): void {
  for (const [k, v] of Object.entries(map)) {
    if (!LABEL_KEY.test(k)) throw new ConfigError(`${where}: "${k}" is not a valid Kubernetes label key`);
    if (v.length > 63 || !LABEL_VALUE.test(v)) throw new ConfigError(`${where}.${k}: "${v}" is not a valid Kubernetes label value (≤ 63 characters: letters, digits, - _ .)`);
  }
}

/** `[kubernetes]` → checked settings; `resolvePath` makes a relative kubeconfig absolute. */
export function resolveKubernetes(t: KubernetesTableData | undefined, resolvePath: (raw: string, name: string) => string): KubernetesSettings {
  const k = t ?? {};
  if (k.namespace !== undefined && (k.namespace.length > 63 || !DNS_LABEL.test(k.namespace)))
    throw new ConfigError(`[kubernetes].namespace "${k.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  if (k.service_account !== undefined && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(k.service_account))
    throw new ConfigError(`[kubernetes].service_account "${k.service_account}" is not a valid service account name`);
  for (const part of ['requests', 'limits'] as const)
    for (const [name, q] of Object.entries(k.resources?.[part] ?? {}))
      if (!QUANTITY.test(q)) throw new ConfigError(`[kubernetes].resources.${part}.${name}: "${q}" is not a Kubernetes quantity (e.g. "500m", "2Gi")`);
  checkLabels(k.node_selector ?? {}, '[kubernetes].node_selector');
  checkLabels(k.labels ?? {}, '[kubernetes].labels');
  for (const key of Object.keys(k.labels ?? {}))
    if (key.startsWith('gaia2.')) throw new ConfigError(`[kubernetes].labels.${key}: keys starting with "gaia2." are the runner's own`);
  if (k.pending_timeout !== undefined && k.pending_timeout < 1) throw new ConfigError(`[kubernetes].pending_timeout must be >= 1 (got ${k.pending_timeout})`);
  return {
    kubeconfig: k.kubeconfig ? resolvePath(k.kubeconfig, '[kubernetes].kubeconfig') : null,
    context: k.context?.trim() || null,
    namespace: k.namespace ?? null,
    imagePullPolicy: k.image_pull_policy ?? 'IfNotPresent',
    resources: { requests: k.resources?.requests ?? {}, limits: k.resources?.limits ?? {} },
    nodeSelector: k.node_selector ?? {},
    tolerations: (k.tolerations ?? []).map((x) => ({
      ...(x.key !== undefined ? { key: x.key } : {}),
      ...(x.operator !== undefined ? { operator: x.operator } : {}),
      ...(x.value !== undefined ? { value: x.value } : {}),
      ...(x.effect !== undefined ? { effect: x.effect } : {}),
      ...(x.toleration_seconds !== undefined ? { tolerationSeconds: x.toleration_seconds } : {}),
    })),
    serviceAccount: k.service_account ?? null,
    labels: k.labels ?? {},
    pendingTimeout: k.pending_timeout ?? DEFAULT_PENDING_TIMEOUT,
    unsealedFallback: k.unsealed_fallback ?? false,
  };
}
