// What the Kubernetes backend can do, declared once (engine, manifest writer and registry).
import type { EngineCapabilities } from '../types.js';

export const KUBERNETES_CAPABILITIES: EngineCapabilities = {
  // Pods are elsewhere and reached through the API server: no shared network, no relays back.
  hostNetwork: false,
  hostServices: false,
  dryRun: false,
  // Files reach a Pod only through its adapter (under the upload root), after it starts.
  filesAtCreate: false,
  // The model gateway runs in the cluster, where the Pods can reach it.
  gatewayBesideUnits: true,
  // NET_ADMIN in the Pod's securityContext (the sealed network's filter); a cluster whose
  // admission refuses it is found out before the first Pod (seal.ts)
  capAdd: true,
};
