// The objects a run creates: keys only in Secrets (never literal env), labels and owner
// references, settings applied, and every object valid against the Kubernetes schemas.
import { Pod, Secret } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import type { KubernetesSettings } from '../../../../runner/src/engine/kubernetes/settings.js';
import { registerSecret } from '../../../../runner/src/secrets/redact.js';
import {
  dnsLabel,
  isSecretVar,
  labelValue,
  ownerRef,
  podManifest,
  runSecretManifest,
  splitEnv,
  unitSecretManifest,
} from '../../../../runner/src/engine/kubernetes/manifests.js';

const SETTINGS: KubernetesSettings = {
  kubeconfig: null,
  context: null,
  namespace: 'ns',
  imagePullPolicy: 'Never',
  resources: { requests: { cpu: '500m' }, limits: { memory: '2Gi' } },
  nodeSelector: { pool: 'eval' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'eval', effect: 'NoSchedule' }],
  serviceAccount: 'runner-units',
  labels: { team: 'agents' },
  pendingTimeout: 30,
  unsealedFallback: false,
};

const CANARY = 'sk-canary-0123456789abcdef';

describe('kubernetes manifests', () => {
  it('splits env: keys to the run Secret, the adapter token to the unit Secret, the rest literal', () => {
    registerSecret('custom-registered-value');
    const env = { API_KEY: CANARY, OPENAI_API_KEY: CANARY, GAIA2_ADAPTER_TOKEN: 'tok', PROVIDER: 'openai', X_URL: 'custom-registered-value', GAIA2_AGENT: 'default' };
    const first = splitEnv(env, null);
    expect(first).toEqual({
      plain: { PROVIDER: 'openai', GAIA2_AGENT: 'default' },
      run: { API_KEY: CANARY, OPENAI_API_KEY: CANARY, X_URL: 'custom-registered-value' },
      unit: { GAIA2_ADAPTER_TOKEN: 'tok' },
    });
    // a later unit whose key differs from the run's keeps it in its own Secret
    expect(splitEnv({ ...env, API_KEY: 'other-key-999999' }, first.run).unit).toEqual({ GAIA2_ADAPTER_TOKEN: 'tok', API_KEY: 'other-key-999999' });
    // model-gateway tokens are the unit's own, even the first unit's: the run's Secret is mounted into every unit
    const gw = splitEnv({ ...env, API_KEY: 'g2gw-first-unit-token', GAIA2_JUDGE_API_KEY: 'g2gw-first-unit-judge' }, null);
    expect(gw.unit).toEqual({ GAIA2_ADAPTER_TOKEN: 'tok', API_KEY: 'g2gw-first-unit-token', GAIA2_JUDGE_API_KEY: 'g2gw-first-unit-judge' });
    expect(gw.run).not.toHaveProperty('API_KEY');
    expect(isSecretVar('GAIA2_JUDGE_API_KEY', 'x')).toBe(true);
    expect(isSecretVar('MODEL', 'gpt')).toBe(false);
  });

  it('builds a valid Secret/Secret/Pod set with no key in the Pod', () => {
    const env = splitEnv({ API_KEY: CANARY, GAIA2_ADAPTER_TOKEN: 'tok-abcdef', PROVIDER: 'openai', GAIA2_ADAPTER_PORT: '8090' }, null);
    const run = runSecretManifest({ namespace: 'ns', runId: 'g2-20260101T000000-abc123', data: env.run, labels: SETTINGS.labels });
    run.metadata!.uid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    const owner = ownerRef(run);
    const labels = { 'gaia2.run': 'g2-20260101T000000-abc123', 'gaia2.scenario': 'scn_1' };
    const unit = unitSecretManifest({ namespace: 'ns', name: 'gaia2-scn-1-abcdef', data: env.unit, labels, owner });
    const pod = podManifest({
      namespace: 'ns',
      name: 'gaia2-scn-1-abcdef',
      spec: { image: 'registry.example/gaia2-agent:1', env: {}, labels: {}, entrypoint: ['bash'], cmd: ['/opt/gaia2-init-entrypoint.sh'], network: 'bridge' },
      settings: SETTINGS,
      port: 8090,
      env: env.plain,
      runSecret: run.metadata!.name!,
      unitSecret: unit.metadata!.name!,
      owner,
      labels,
      scenarioId: 'scn_1',
    });
    for (const o of [run, unit]) new Secret(o as ConstructorParameters<typeof Secret>[0]).validate();
    new Pod(pod as ConstructorParameters<typeof Pod>[0]).validate();

    expect(run.metadata!.name).toBe('gaia2-run-g2-20260101t000000-abc123');
    expect(Buffer.from(run.data!.API_KEY!, 'base64').toString()).toBe(CANARY);
    expect(unit.metadata!.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Secret', name: run.metadata!.name, uid: run.metadata!.uid, blockOwnerDeletion: false, controller: false }]);
    expect(JSON.stringify(pod)).not.toContain(CANARY);
    expect(JSON.stringify(pod)).not.toContain('tok-abcdef');
    const spec = pod.spec!;
    expect(spec.restartPolicy).toBe('Never');
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.serviceAccountName).toBe('runner-units');
    expect(spec.nodeSelector).toEqual({ pool: 'eval' });
    expect(spec.tolerations).toEqual(SETTINGS.tolerations);
    const c = spec.containers[0]!;
    expect(c.imagePullPolicy).toBe('Never');
    expect(c.resources).toEqual({ requests: { cpu: '500m' }, limits: { memory: '2Gi' } });
    expect(c.env).toEqual([
      { name: 'PROVIDER', value: 'openai' },
      { name: 'GAIA2_ADAPTER_PORT', value: '8090' },
      { name: 'GAIA2_SECRETS_DIR', value: '/run/gaia2-secrets' },
    ]);
    expect(spec.volumes).toEqual([
      { name: 'run-secrets', secret: { secretName: run.metadata!.name, defaultMode: 0o400 } },
      { name: 'unit-secrets', secret: { secretName: 'gaia2-scn-1-abcdef', defaultMode: 0o400 } },
    ]);
    expect(c.volumeMounts!.map((m) => m.mountPath)).toEqual(['/run/gaia2-secrets/run', '/run/gaia2-secrets/unit']);
    expect(pod.metadata!.labels).toMatchObject({ 'gaia2.run': 'g2-20260101T000000-abc123', 'gaia2.scenario': 'scn_1', 'gaia2.role': 'unit' });
    expect(c.securityContext).toBeUndefined(); // nothing added unless the run is sealed
  });

  it('names and label values follow Kubernetes rules', () => {
    expect(dnsLabel('gaia2-Scenario_Universe.21-0a1b')).toBe('gaia2-scenario-universe-21-0a1b');
    expect(dnsLabel('x'.repeat(80))).toHaveLength(63);
    expect(labelValue('_weird id/with spaces_')).toBe('weird_id_with_spaces');
    expect(labelValue('a'.repeat(70))).toHaveLength(63);
  });
});
