// The kubernetes backend's registration: its [kubernetes] table and settings (settings.ts), its
// summary line and doctor advice, and the client and manifest writer, loaded only when used
// (the Kubernetes client is tens of megabytes a local run never needs).
import type { BackendProvider } from '../backend-provider.js';
import { KUBERNETES_CAPABILITIES } from './capabilities.js';
import { KubernetesTable, ResourcesTable, resolveKubernetes, TolerationTable, type KubernetesTableData } from './settings.js';

export const KUBERNETES_BACKEND: BackendProvider<'kubernetes'> = {
  kind: 'kubernetes',
  title: 'a Kubernetes cluster',
  capabilities: KUBERNETES_CAPABILITIES,
  table: {
    name: 'kubernetes',
    schema: KubernetesTable,
    keys: {
      kubernetes: Object.keys(KubernetesTable.shape),
      'kubernetes.resources': Object.keys(ResourcesTable.shape),
      'kubernetes.tolerations': Object.keys(TolerationTable.shape),
    },
  },
  resolve: (table, resolvePath) => ({ kind: 'kubernetes', ...resolveKubernetes(table as KubernetesTableData | undefined, resolvePath) }),
  summary: (b) => `Backend: kubernetes (${b.context ? `context ${b.context}, ` : ''}namespace ${b.namespace ?? 'from the kubeconfig'}, pull ${b.imagePullPolicy}, pending timeout ${b.pendingTimeout}s)`,
  doctorHint: () => 'check [kubernetes] kubeconfig/context and that the cluster answers (docs/kubernetes.md)',
  async connect(settings, opts) {
    const { connectKubernetes } = await import('./index.js');
    return connectKubernetes(settings, opts.env);
  },
  async manifests(settings, dir) {
    const { ManifestWriter } = await import('./dry-run.js');
    return new ManifestWriter(dir, settings);
  },
};
