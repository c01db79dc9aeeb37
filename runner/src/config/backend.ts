// `[run] backend` + the backend's table → the plan's backend settings.
import { resolveKubernetes, type KubernetesTableData } from '../engine/kubernetes/settings.js';
import type { BackendKind, BackendSettings } from '../plan/backend.js';
import { ConfigError } from '../plan/errors.js';

/** `resolvePath` makes a relative kubeconfig absolute. */
export function resolveBackend(kind: BackendKind | undefined, t: KubernetesTableData | undefined, resolvePath: (raw: string, name: string) => string): BackendSettings {
  if ((kind ?? 'local') === 'local') {
    if (t) throw new ConfigError('[kubernetes] is set but [run].backend is not "kubernetes" (add backend = "kubernetes" to [run], or remove the table)');
    return { kind: 'local' };
  }
  return { kind: 'kubernetes', ...resolveKubernetes(t, resolvePath) };
}
