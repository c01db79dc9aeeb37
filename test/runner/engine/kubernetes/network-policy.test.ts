// A sealed run's objects on Kubernetes: the Pod's NET_ADMIN and the run's NetworkPolicy, valid
// against the Kubernetes schemas, with egress only where the in-Pod filter lets the agent go.
import { Pod } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { describe, expect, it } from 'vitest';
import { podManifest } from '../../../../runner/src/engine/kubernetes/manifests.js';
import { egressRules, networkPolicyManifest } from '../../../../runner/src/engine/kubernetes/network-policy.js';
import { resolveKubernetes } from '../../../../runner/src/engine/kubernetes/settings.js';

const OWNER = { apiVersion: 'v1', kind: 'Secret', name: 'gaia2-run-r1', uid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', blockOwnerDeletion: false, controller: false };
const GW = 'gaia2-gw-r1.eval.svc';

describe('sealed network manifests (kubernetes)', () => {
  it('the Pod adds exactly the capabilities asked for, in its container securityContext', () => {
    const pod = podManifest({
      namespace: 'eval', name: 'gaia2-scn-abc', settings: resolveKubernetes({}, (x) => x), port: 8090, env: {}, runSecret: 'gaia2-run-r1', unitSecret: 'gaia2-scn-abc', owner: OWNER, labels: {}, scenarioId: 'scn',
      spec: { image: 'img:1', env: {}, labels: {}, network: 'bridge', capAdd: ['NET_ADMIN'] },
    });
    new Pod(pod as ConstructorParameters<typeof Pod>[0]).validate();
    expect(pod.spec!.containers[0]!.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN'] } });
  });

  it("the run's NetworkPolicy: its unit Pods, the adapter's port in, the gateway's Pods and DNS out; owned by the run's Secret", () => {
    const np = networkPolicyManifest({
      namespace: 'eval', name: 'gaia2-run-r1', runId: 'R1', labels: { team: 'agents' }, owner: OWNER, allow: [`${GW}:8080`], peers: new Map([[GW, { 'gaia2.gateway': 'gaia2-gw-r1' }]]), adapterPort: 8090,
    });
    new NetworkPolicy(np as ConstructorParameters<typeof NetworkPolicy>[0]).validate();
    expect(np.metadata).toMatchObject({ name: 'gaia2-run-r1', namespace: 'eval', labels: { team: 'agents', 'gaia2.managed': '1', 'gaia2.run': 'R1', 'gaia2.role': 'seal' }, ownerReferences: [OWNER] });
    expect(np.spec).toEqual({
      podSelector: { matchLabels: { 'gaia2.run': 'R1', 'gaia2.role': 'unit' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ port: 8090, protocol: 'TCP' }] }],
      egress: [
        { to: [{ podSelector: { matchLabels: { 'gaia2.gateway': 'gaia2-gw-r1' } } }], ports: [{ port: 8080, protocol: 'TCP' }] },
        { ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
      ],
    });
  });

  it('direct mode: an IP literal is one address (no DNS needed), a name outside the cluster its port anywhere plus DNS', () => {
    expect(egressRules(['10.1.2.3:8000', 'fd00::5:443'], new Map())).toEqual([
      { to: [{ ipBlock: { cidr: '10.1.2.3/32' } }], ports: [{ port: 8000, protocol: 'TCP' }] },
      { to: [{ ipBlock: { cidr: 'fd00::5/128' } }], ports: [{ port: 443, protocol: 'TCP' }] },
    ]);
    expect(egressRules(['api.example.com:443'], new Map())).toEqual([
      { ports: [{ port: 443, protocol: 'TCP' }] },
      { ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
    ]);
    // nothing allowed: no egress at all (the policy then refuses every connection out)
    expect(egressRules([], new Map())).toEqual([]);
  });
});
