// The slice of Kubernetes object shapes the double stores and serves. Objects are kept as
// plain JSON (what the client sent, plus server-set metadata), so fields the double does not
// interpret still round-trip like they would through a real API server.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  [k: string]: unknown;
}

export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [k: string]: unknown;
}

export interface ContainerSpec {
  name: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { containerPort: number; name?: string; protocol?: string; hostPort?: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  [k: string]: unknown;
}

export interface VolumeSpec {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string; mode?: number }[]; optional?: boolean; defaultMode?: number };
  emptyDir?: { medium?: string; sizeLimit?: string };
  [k: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
}

export interface PodSpec {
  containers: ContainerSpec[];
  volumes?: VolumeSpec[];
  restartPolicy?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  serviceAccountName?: string;
  nodeName?: string;
  [k: string]: unknown;
}

export interface ContainerState {
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: { exitCode: number; reason: string; message?: string; startedAt?: string; finishedAt: string; containerID?: string };
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime: string | null;
  lastTransitionTime: string;
}

export interface PodStatus {
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  reason?: string;
  message?: string;
  conditions?: PodCondition[];
  hostIP?: string;
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  qosClass?: string;
  containerStatuses?: {
    name: string;
    image: string;
    imageID: string;
    containerID?: string;
    ready: boolean;
    started: boolean;
    restartCount: number;
    state: ContainerState;
    lastState: ContainerState;
  }[];
}

export interface Pod extends KObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface Secret extends KObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  immutable?: boolean;
}

export interface ServicePort { name?: string; port: number; targetPort?: number | string; protocol?: string }

export interface Service extends KObject {
  spec: { type?: string; selector?: Record<string, string>; ports?: ServicePort[]; clusterIP?: string; clusterIPs?: string[]; [k: string]: unknown };
  status?: { loadBalancer: Record<string, never> };
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: { type: string; status: 'True' | 'False'; reason: string; message: string; lastUpdateTime: string; lastTransitionTime: string }[];
}

export interface Deployment extends KObject {
  spec: {
    replicas?: number;
    selector: { matchLabels?: Record<string, string> };
    template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    [k: string]: unknown;
  };
  status?: DeploymentStatus;
}

/** The resources the double serves, by their plural REST name. */
export type Resource = 'pods' | 'secrets' | 'services' | 'deployments' | 'networkpolicies';
export const KINDS: Record<Resource, string> = { pods: 'Pod', secrets: 'Secret', services: 'Service', deployments: 'Deployment', networkpolicies: 'NetworkPolicy' };
/** The group/version each resource is served under (core v1 unless named). */
export const API_VERSIONS: Record<Resource, string> = { pods: 'v1', secrets: 'v1', services: 'v1', deployments: 'apps/v1', networkpolicies: 'networking.k8s.io/v1' };

/** A NetworkPolicy, stored as sent: the double has no network plugin to enforce it. */
export interface NetworkPolicy extends KObject {
  spec: { podSelector: { matchLabels?: Record<string, string> }; policyTypes?: string[]; ingress?: unknown[]; egress?: unknown[]; [k: string]: unknown };
}

export const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
