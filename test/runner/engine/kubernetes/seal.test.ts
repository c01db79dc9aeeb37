// A sealed run on the kubernetes backend against the API-server double in process: the Pod
// adds NET_ADMIN, the run's NetworkPolicy is written (owned by the run's Secret) and removed
// with the run; a namespace whose Pod Security admission refuses NET_ADMIN stops the run before
// its first Pod with an error naming the ways out, or, with unsealed_fallback, runs its Pods
// unsealed and says why; a Role without NetworkPolicy rights leaves the run sealed by the filter.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../../../agent-image/src/contract/paths.js';
import { resolveBackend } from '../../../../runner/src/engine/registry.js';
import type { KubernetesSettings } from '../../../../runner/src/engine/kubernetes/settings.js';
import { connectKubernetes, type KubernetesEngine } from '../../../../runner/src/engine/kubernetes/index.js';
import { LABELS, type ContainerSpec } from '../../../../runner/src/engine/index.js';
import { hook } from '../../../helpers/k8s-api-double/client.js';
import { writeKubeconfig } from '../../../helpers/k8s-api-double/kubeconfig.js';
import { fakeAdapter } from '../../../helpers/k8s-api-double/runtime/fake-adapter.js';
import { FakeRuntime } from '../../../helpers/k8s-api-double/runtime/fake.js';
import { startDouble, type RunningDouble } from '../../../helpers/k8s-api-double/server.js';
import type { KObject, NetworkPolicy, Pod } from '../../../helpers/k8s-api-double/types.js';

let d: RunningDouble;
let kubeconfig: string;
const GW = 'gaia2-gw-run-s.open.svc';
const ALLOW = [`${GW}:8080`];

const settings = (namespace: string, o: Partial<KubernetesSettings> = {}): KubernetesSettings => {
  const b = resolveBackend('kubernetes', { kubernetes: { kubeconfig, namespace, pending_timeout: 30 } }, (p: string) => p);
  if (b.kind !== 'kubernetes') throw new Error('unreachable');
  return { ...b, ...o };
};

/** A unit as the scenario run asks for it when sealed: NET_ADMIN and the allow list. */
const sealedSpec = (runId: string): ContainerSpec => ({
  image: 'registry.example/gaia2-agent:1',
  name: 'gaia2-unit',
  env: { [ENV.adapterPort]: '8090', [ENV.adapterToken]: 'tok-abcdef123', [ENV.scenarioReady]: '/var/gaia2/scenario.ready', [ENV.sealAllow]: ALLOW.join(','), BASE_URL: `http://${GW}:8080/openai-compat/v1` },
  labels: { [LABELS.managed]: '1', [LABELS.runId]: runId, [LABELS.scenarioId]: 'scn_1', [LABELS.runIndex]: '1' },
  entrypoint: ['bash'],
  cmd: ['/opt/gaia2-init-entrypoint.sh'],
  network: 'bridge',
  capAdd: ['NET_ADMIN'],
});

const openSealed = (engine: KubernetesEngine, runId: string, log?: (l: string) => void) =>
  engine.openRun({ runId, env: { BASE_URL: `http://${GW}:8080/openai-compat/v1` }, network: 'bridge', seal: { allow: ALLOW, image: 'registry.example/gaia2-agent:1' }, ...(log ? { log } : {}) });

const stored = <T extends KObject>(resource: 'pods' | 'networkpolicies', ns: string) => d.ctx.store.list<T>(resource, ns);

beforeAll(async () => {
  d = await startDouble({ runtime: new FakeRuntime(fakeAdapter({ runMs: 200 })), podSecurity: { baseline: 'baseline' } });
  kubeconfig = join(mkdtempSync(join(tmpdir(), 'k8s-seal-')), 'kubeconfig');
  writeKubeconfig(kubeconfig, d.url, d.token, d.ca);
});
afterAll(async () => {
  await d?.close();
});

describe('a sealed run on the kubernetes backend', () => {
  it('the Pod adds NET_ADMIN; the NetworkPolicy (gateway Pods, DNS, adapter in) is written with the run and removed with it', async () => {
    const engine = await connectKubernetes(settings('open'));
    engine.sealPeers.set(GW, { 'gaia2.gateway': 'gaia2-gw-run-s' });
    await openSealed(engine, 'run-s');
    const unit = await engine.create(sealedSpec('run-s'));
    expect(unit.unsealed).toBeUndefined();
    const [pod] = stored<Pod>('pods', 'open');
    expect(pod!.spec.containers[0]!.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN'] } });
    expect(pod!.spec.containers[0]!.env).toContainEqual({ name: ENV.sealAllow, value: ALLOW[0] });
    const [policy] = stored<NetworkPolicy>('networkpolicies', 'open');
    expect(policy!.metadata).toMatchObject({ name: 'gaia2-run-run-s', labels: { 'gaia2.run': 'run-s', 'gaia2.role': 'seal' }, ownerReferences: [{ kind: 'Secret', name: 'gaia2-run-run-s' }] });
    expect(policy!.spec).toEqual({
      podSelector: { matchLabels: { 'gaia2.run': 'run-s', 'gaia2.role': 'unit' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ port: 8090, protocol: 'TCP' }] }],
      egress: [
        { to: [{ podSelector: { matchLabels: { 'gaia2.gateway': 'gaia2-gw-run-s' } } }], ports: [{ port: 8080, protocol: 'TCP' }] },
        { ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
      ],
    });
    // the policy selects the run's Pods
    expect(Object.entries(policy!.spec.podSelector.matchLabels!).every(([k, v]) => pod!.metadata.labels?.[k] === v)).toBe(true);
    await unit.remove();
    await engine.close();
    expect(stored('networkpolicies', 'open')).toEqual([]);
  });

  it('a namespace that refuses NET_ADMIN (Pod Security baseline) stops the run before its first Pod, naming the ways out', async () => {
    const engine = await connectKubernetes(settings('baseline'));
    await expect(openSealed(engine, 'run-r')).rejects.toMatchObject({
      kind: 'container_start_failed',
      message: expect.stringMatching(/refused a Pod with the NET_ADMIN capability.*violates PodSecurity "baseline:latest".*namespace baseline.*network = "open".*unsealed_fallback = true/),
    });
    expect(stored('pods', 'baseline')).toEqual([]); // the check was a dry run
    await engine.close();
  });

  it('with unsealed_fallback the run goes on unsealed: no NET_ADMIN, no GAIA2_SEAL_ALLOW, the reason on the unit and in the log', async () => {
    const engine = await connectKubernetes(settings('baseline', { unsealedFallback: true }));
    const logs: string[] = [];
    await openSealed(engine, 'run-f', (l) => logs.push(l));
    expect(logs.join('\n')).toMatch(/Sealed network: not on this cluster: the cluster refused NET_ADMIN \(.*PodSecurity "baseline:latest".*\).*network_sealed: false/);
    const unit = await engine.create(sealedSpec('run-f'));
    await unit.start();
    expect(unit.unsealed).toMatch(/refused NET_ADMIN/);
    const [pod] = stored<Pod>('pods', 'baseline');
    expect(pod!.spec.containers[0]!.securityContext).toBeUndefined();
    expect(pod!.spec.containers[0]!.env!.map((e) => e.name)).not.toContain(ENV.sealAllow);
    // the fence is written all the same: a cluster that enforces it still keeps the run in
    expect(stored('networkpolicies', 'baseline')).toHaveLength(1);
    await unit.remove();
    await engine.close();
  });

  it('a Role without NetworkPolicy rights: the run goes on sealed by the in-Pod filter, and says so', async () => {
    await hook(d, 'POST', 'tokens', { token: 'no-netpol-token-1', user: 'no-netpol' });
    await hook(d, 'PUT', 'rbac', { user: 'no-netpol', deny: ['create networkpolicies'] });
    const limited = join(mkdtempSync(join(tmpdir(), 'k8s-seal-')), 'kubeconfig');
    writeKubeconfig(limited, d.url, 'no-netpol-token-1', d.ca);
    const engine = await connectKubernetes(settings('open', { kubeconfig: limited }));
    const logs: string[] = [];
    await openSealed(engine, 'run-n', (l) => logs.push(l));
    expect(logs.join('\n')).toMatch(/NetworkPolicy gaia2-run-run-n not written \(.*403.*\); the filter inside each Pod still seals its agent/);
    const unit = await engine.create(sealedSpec('run-n'));
    expect(unit.unsealed).toBeUndefined();
    await unit.remove();
    await engine.close();
  });
});
