// The cluster of a backend that declares `gatewayBesideUnits`: where the run's model gateway
// (gateway/cluster/) puts its Deployment, Service and Secret. Which backend class holds a
// cluster is answered here, inside engine/, so the gateway never names one.
import type { UnitBackend } from '../types.js';
import { EngineError } from '../errors.js';
import type { KubeAccess } from './client.js';
import { ManifestWriter } from './dry-run.js';
import { KubernetesEngine } from './engine.js';
import type { KubernetesSettings } from './settings.js';

export interface UnitCluster {
  settings: KubernetesSettings;
  namespace: string;
  /** The API server; null for a backend that creates nothing (`--dry-run --manifests`). */
  access: KubeAccess | null;
  /** Where the gateway says which Pods serve its Service's name (a sealed run's NetworkPolicy). */
  sealPeers: Map<string, Record<string, string>>;
}

/** The backend's cluster; any other backend here is a wiring bug (internal_error), not a dry run. */
export function clusterOf(backend: UnitBackend | undefined): UnitCluster {
  if (backend instanceof KubernetesEngine) return { settings: backend.settings, namespace: backend.access.namespace, access: backend.access, sealPeers: backend.sealPeers };
  if (backend instanceof ManifestWriter) return { settings: backend.settings, namespace: backend.settings.namespace ?? 'default', access: null, sealPeers: backend.sealPeers };
  throw new EngineError('internal_error', `the model gateway runs in the kubernetes backend's cluster, but the run's engine is ${backend ? backend.name : 'not given'}`);
}
