// The in-cluster gateway's objects (docs/gateway.md "Kubernetes"): a Secret with its
// configuration (the provider keys: the only object that holds them), a Deployment of one Pod
// running the gateway bundle of the run's own image, and a Service in front of it. The
// Deployment and the Service are owned by the Secret, so deleting the Secret removes them all.
import type { V1Deployment, V1OwnerReference, V1Secret, V1Service } from '@kubernetes/client-node';
import { dnsLabel, K8S_LABELS, labelValue, podPlacement, runLabels } from '../../engine/kubernetes/manifests.js';
import type { KubernetesSettings } from '../../engine/kubernetes/settings.js';
import { ADMIN_PORT, CONFIG_DIR, CONFIG_KEY, GATEWAY_BUNDLE, SERVE_PORT, type PodGatewayConfig } from './protocol.js';

/** Selects the gateway's Pods (the Service's selector, the Deployment's). */
export const GATEWAY_LABEL = 'gaia2.gateway';
/** The role label of the gateway's Secret (`clean` removes it with the run's). */
export const GATEWAY_ROLE = 'gateway';

export function gatewayName(runId: string): string {
  // a Service name is a DNS-1035 label: a letter first, ≤ 63
  return dnsLabel(`gaia2-gw-${runId}`, 63);
}

/** The URL origin scenario Pods use: the Service's in-cluster DNS name. */
export function serviceOrigin(name: string, namespace: string): string {
  return `http://${name}.${namespace}.svc:${SERVE_PORT}`;
}

export function gatewaySecretManifest(o: { name: string; namespace: string; runId: string; labels: Record<string, string>; config: PodGatewayConfig }): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: o.name, namespace: o.namespace, labels: { ...runLabels(o.runId, o.labels), [K8S_LABELS.role]: GATEWAY_ROLE } },
    data: { [CONFIG_KEY]: Buffer.from(JSON.stringify(o.config)).toString('base64') },
  };
}

function ownedBy(secret: V1Secret): V1OwnerReference {
  return { apiVersion: 'v1', kind: 'Secret', name: secret.metadata!.name!, uid: secret.metadata!.uid ?? '', blockOwnerDeletion: false, controller: false };
}

export function gatewayDeploymentManifest(o: { name: string; namespace: string; runId: string; image: string; settings: KubernetesSettings; owner: V1Secret }): V1Deployment {
  const s = o.settings;
  const selector = { [GATEWAY_LABEL]: labelValue(o.name) };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: o.name, namespace: o.namespace, labels: { ...s.labels, ...selector, [K8S_LABELS.run]: labelValue(o.runId), [K8S_LABELS.role]: GATEWAY_ROLE }, ownerReferences: [ownedBy(o.owner)] },
    spec: {
      replicas: 1,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { ...s.labels, ...selector, [K8S_LABELS.role]: GATEWAY_ROLE } },
        spec: {
          // It calls providers, not the cluster.
          ...podPlacement(s),
          containers: [
            {
              name: 'gateway',
              image: o.image,
              imagePullPolicy: s.imagePullPolicy,
              command: ['node', GATEWAY_BUNDLE],
              ports: [
                { name: 'http', containerPort: SERVE_PORT, protocol: 'TCP' },
                { name: 'admin', containerPort: ADMIN_PORT, protocol: 'TCP' },
              ],
              readinessProbe: { httpGet: { path: '/healthz', port: ADMIN_PORT }, periodSeconds: 2 },
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              volumeMounts: [{ name: 'config', mountPath: CONFIG_DIR, readOnly: true }],
            },
          ],
          volumes: [{ name: 'config', secret: { secretName: o.owner.metadata!.name!, defaultMode: 0o400 } }],
        },
      },
    },
  };
}

export function gatewayServiceManifest(o: { name: string; namespace: string; runId: string; labels: Record<string, string>; owner: V1Secret }): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: o.name, namespace: o.namespace, labels: { ...o.labels, [K8S_LABELS.run]: labelValue(o.runId), [K8S_LABELS.role]: GATEWAY_ROLE }, ownerReferences: [ownedBy(o.owner)] },
    spec: {
      type: 'ClusterIP',
      selector: { [GATEWAY_LABEL]: labelValue(o.name) },
      ports: [{ name: 'http', port: SERVE_PORT, targetPort: SERVE_PORT, protocol: 'TCP' }],
    },
  };
}
