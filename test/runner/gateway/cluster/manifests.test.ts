// The in-cluster gateway's objects: valid against the Kubernetes schemas, the key only in the
// Secret (and there only base64 inside its config), the Deployment and the Service owned by the
// Secret, the Service selecting exactly the Deployment's Pods by a DNS-1035 name.
import { Deployment } from 'kubernetes-models/apps/v1';
import { Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { resolveKubernetes } from '../../../../runner/src/engine/kubernetes/settings.js';
import { GATEWAY_LABEL, gatewayDeploymentManifest, gatewayName, gatewaySecretManifest, gatewayServiceManifest, serviceOrigin } from '../../../../runner/src/gateway/cluster/manifests.js';
import { CONFIG_DIR, CONFIG_KEY, GATEWAY_BUNDLE, type PodGatewayConfig } from '../../../../runner/src/gateway/cluster/protocol.js';
import { NO_LIMITS } from '../../../../runner/src/plan/gateway.js';

const KEY = 'sk-manifest-canary-0123456789';
const settings = resolveKubernetes({ namespace: 'eval', labels: { team: 'evals' }, node_selector: { pool: 'cpu' }, image_pull_policy: 'Always' }, (x) => x);
const config: PodGatewayConfig = {
  upstreams: [{ id: 'anthropic', provider: 'anthropic', base: 'https://api.anthropic.com/v1', key: KEY }],
  plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 10, retryBudgetSeconds: 600 },
  prices: null,
  replay: false,
  adminToken: 'admin-token-xyz',
};

describe('in-cluster gateway manifests', () => {
  const runId = 'MWX4-a1b2c3_long-run-id-that-goes-on-and-on-and-on-beyond-sixty-three-characters';
  const name = gatewayName(runId);
  const secret = gatewaySecretManifest({ name, namespace: 'eval', runId, labels: settings.labels, config });
  const owner = { ...secret, metadata: { ...secret.metadata, uid: '11111111-2222-3333-4444-555555555555' } };
  const deployment = gatewayDeploymentManifest({ name, namespace: 'eval', runId, image: 'registry.example/gaia2-agent:1', settings, owner });
  const service = gatewayServiceManifest({ name, namespace: 'eval', runId, labels: settings.labels, owner });

  it('validate against the schemas; the name is a DNS-1035 label a Service can take', () => {
    expect(name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
    expect(name.length).toBeLessThanOrEqual(63);
    new Secret(secret as ConstructorParameters<typeof Secret>[0]).validate();
    new Deployment(deployment as ConstructorParameters<typeof Deployment>[0]).validate();
    new Service(service as ConstructorParameters<typeof Service>[0]).validate();
    expect(serviceOrigin(name, 'eval')).toBe(`http://${name}.eval.svc:8080`);
  });

  it('only the Secret holds the key; the Pod runs the bundle from the run image with the Secret mounted', () => {
    expect(JSON.parse(Buffer.from(secret.data![CONFIG_KEY]!, 'base64').toString())).toEqual(config);
    expect(JSON.stringify(secret)).not.toContain(KEY); // base64 only
    for (const o of [deployment, service]) expect(JSON.stringify(o)).not.toContain(KEY);
    const pod = deployment.spec!.template.spec!;
    expect(pod.containers[0]).toMatchObject({ image: 'registry.example/gaia2-agent:1', imagePullPolicy: 'Always', command: ['node', GATEWAY_BUNDLE] });
    expect(pod.containers[0]!.env).toBeUndefined();
    expect(pod.containers[0]!.volumeMounts).toEqual([{ name: 'config', mountPath: CONFIG_DIR, readOnly: true }]);
    expect(pod.volumes).toEqual([{ name: 'config', secret: { secretName: name, defaultMode: 0o400 } }]);
    expect(pod).toMatchObject({ automountServiceAccountToken: false, enableServiceLinks: false, nodeSelector: { pool: 'cpu' } });
  });

  it('the Service selects the Deployment’s Pods; both are owned by the Secret and carry the run labels', () => {
    expect(service.spec!.selector).toEqual(deployment.spec!.selector.matchLabels);
    expect(deployment.spec!.template.metadata!.labels).toMatchObject(deployment.spec!.selector.matchLabels!);
    expect(service.spec!.selector![GATEWAY_LABEL]).toBe(name);
    for (const o of [deployment, service]) {
      expect(o.metadata!.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Secret', name, uid: owner.metadata.uid, blockOwnerDeletion: false, controller: false }]);
      expect(o.metadata!.labels).toMatchObject({ team: 'evals', 'gaia2.role': 'gateway' });
    }
    expect(secret.metadata!.labels).toMatchObject({ 'gaia2.managed': '1', 'gaia2.role': 'gateway', team: 'evals' });
    expect(service.spec!.ports).toEqual([{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }]);
  });
});
