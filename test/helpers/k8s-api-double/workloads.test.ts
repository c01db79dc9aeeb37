// The double's Deployments and Services over @kubernetes/client-node, with the in-process pod
// runtime: a Deployment keeps its Pods (owner references, template labels, replacement of a
// deleted or evicted Pod; an ended container restarted in its own Pod, with crash-loop back-off)
// and reports readiness in its status; a Service gets a ClusterIP and its names resolve, in Pods
// started afterwards, to a ready Pod it selects; deleting an owner removes Deployments,
// Services and their Pods.
import { AppsV1Api, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, clientFor, fetchWithCa, hook, runningAfterRestarts, until } from './client.js';
import { FakeRuntime, idleApp } from './runtime/fake.js';
import { startDouble, type RunningDouble } from './server.js';
import type { Pod } from './types.js';

let d: RunningDouble;
let api: ReturnType<typeof clientFor>;
let apps: AppsV1Api;
const ns = 'gw';
/** The Pod each started container was given (the played copy, hostAliases included). */
const played = new Map<string, Pod>();

const deployment = (name: string, extra: Partial<V1Deployment['metadata']> = {}): V1Deployment => ({
  metadata: { name, labels: { app: name }, ...extra },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'gateway', image: 'localhost/x:1', ports: [{ containerPort: 8080 }] }] } },
  },
});

const podsOf = async (name: string) => (await api.core.listNamespacedPod({ namespace: ns, labelSelector: `app=${name}` })).items;

beforeAll(async () => {
  d = await startDouble({
    runtime: new FakeRuntime((pod, secrets) => {
      played.set(pod.metadata.name!, pod);
      return idleApp(pod, secrets);
    }),
  });
  api = clientFor(d);
  apps = api.kc.makeApiClient(AppsV1Api);
});
afterAll(async () => {
  await d.close();
});

describe('Deployments', () => {
  it('makes its Pods from the template, owned by it, and reports them ready', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gw-a') });
    expect(created).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1 } });
    const ready = await until(async () => {
      const x = await apps.readNamespacedDeployment({ namespace: ns, name: 'gw-a' });
      return x.status?.readyReplicas === 1 ? x : undefined;
    }, 'deployment ready');
    expect(ready.status).toMatchObject({ replicas: 1, availableReplicas: 1, observedGeneration: 1 });
    expect(ready.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    const [pod, ...more] = await podsOf('gw-a');
    expect(more).toHaveLength(0);
    expect(pod!.metadata?.name).toMatch(/^gw-a-[0-9a-f]{10}-[a-z0-9]{5}$/);
    expect(pod!.metadata?.labels?.['pod-template-hash']).toMatch(/^[0-9a-f]{10}$/);
    expect(pod!.metadata?.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'gw-a', uid: created.metadata!.uid!, controller: true, blockOwnerDeletion: true }]);
    expect(pod!.spec?.restartPolicy).toBe('Always');
    const listed = await apps.listNamespacedDeployment({ namespace: ns });
    expect(listed.items.map((x) => x.metadata?.name)).toContain('gw-a');
  });

  it('replaces a Pod that is deleted, and its Pods go with it', async () => {
    const [first] = await podsOf('gw-a');
    await api.core.deleteNamespacedPod({ namespace: ns, name: first!.metadata!.name!, gracePeriodSeconds: 0 });
    const replaced = await until(async () => {
      const ps = (await podsOf('gw-a')).filter((p) => p.metadata?.name !== first!.metadata!.name && p.status?.phase === 'Running');
      return ps.length === 1 ? ps[0] : undefined;
    }, 'replacement pod');
    expect(replaced!.metadata?.ownerReferences?.[0]?.name).toBe('gw-a');
    await apps.deleteNamespacedDeployment({ namespace: ns, name: 'gw-a' });
    await until(async () => ((await podsOf('gw-a')).length === 0 ? true : undefined), 'pods of a deleted deployment gone');
    expect((await apiFailure(apps.readNamespacedDeployment({ namespace: ns, name: 'gw-a' }))).code).toBe(404);
  });

  it('restarts an ended container in its own Pod (restartPolicy Always), then backs off; no Pod is replaced', async () => {
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gw-r') });
    const first = await until(async () => (await podsOf('gw-r')).find((p) => p.status?.phase === 'Running'), 'gw-r running');
    const name = first.metadata!.name!;
    const status = async () => (await api.core.readNamespacedPod({ namespace: ns, name })).status!;
    await hook(d, 'POST', `pods/${ns}/${name}/kill`);
    const again = (await until(async () => runningAfterRestarts(await api.core.readNamespacedPod({ namespace: ns, name }), 1), 'restarted in place')).status!;
    expect(again).toMatchObject({ phase: 'Running', podIP: first.status?.podIP });
    expect(again.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    // A second end within the back-off: the kubelet waits 10 s, the Pod stays Running but not Ready.
    await hook(d, 'POST', `pods/${ns}/${name}/kill`);
    const waiting = await until(async () => {
      const s = await status();
      return s.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff' ? s : undefined;
    }, 'crash-loop back-off');
    expect(waiting.containerStatuses?.[0]?.state?.waiting?.message).toBe(`back-off 10s restarting failed container=gateway pod=${name}_${ns}(${first.metadata!.uid})`);
    expect(waiting.containerStatuses?.[0]).toMatchObject({ restartCount: 1, ready: false, lastState: { terminated: { exitCode: 137 } } });
    expect(waiting.phase).toBe('Running');
    expect(waiting.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect((await podsOf('gw-r')).map((p) => p.metadata?.name)).toEqual([name]);
    const dep = await until(async () => {
      const x = await apps.readNamespacedDeployment({ namespace: ns, name: 'gw-r' });
      return x.status?.readyReplicas === undefined ? x : undefined;
    }, 'deployment unavailable');
    expect(dep.status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('False');
  });

  it('replaces an evicted Pod with a new one and leaves the evicted one Failed', async () => {
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gw-e') });
    const first = await until(async () => (await podsOf('gw-e')).find((p) => p.status?.phase === 'Running'), 'gw-e running');
    await hook(d, 'POST', `pods/${ns}/${first.metadata!.name}/evict`);
    const next = await until(async () => (await podsOf('gw-e')).find((p) => p.metadata?.name !== first.metadata!.name && p.status?.phase === 'Running'), 'replacement');
    expect(next.metadata?.ownerReferences?.[0]?.name).toBe('gw-e');
    const evicted = (await podsOf('gw-e')).find((p) => p.metadata?.name === first.metadata!.name);
    expect(evicted?.status).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
  });

  it('refuses a selector that does not match the template, naming the field', async () => {
    const bad = deployment('gw-bad');
    bad.spec!.selector = { matchLabels: { app: 'other' } };
    const f = await apiFailure(apps.createNamespacedDeployment({ namespace: ns, body: bad }));
    expect(f).toMatchObject({ code: 422, body: { reason: 'Invalid', details: { kind: 'Deployment' } } });
    expect(JSON.stringify(f.body)).toContain('spec.template.metadata.labels');
  });
});

describe('Services', () => {
  it('get a ClusterIP; Pods started later resolve their names to a ready Pod they select', async () => {
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gw-b') });
    const svc = await api.core.createNamespacedService({ namespace: ns, body: { metadata: { name: 'gw-b' }, spec: { selector: { app: 'gw-b' }, ports: [{ name: 'http', port: 8080 }] } } });
    expect(svc.spec?.type).toBe('ClusterIP');
    expect(svc.spec?.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(svc.spec?.ports?.[0]).toMatchObject({ port: 8080, targetPort: 8080, protocol: 'TCP' });
    const endpoint = await until(async () => (await podsOf('gw-b')).find((p) => p.status?.phase === 'Running'), 'endpoint running');
    await api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'client' }, spec: { containers: [{ name: 'c', image: 'localhost/x:1', ports: [{ containerPort: 8090 }] }] } } });
    await api.core.createNamespacedPod({ namespace: 'elsewhere', body: { metadata: { name: 'client2' }, spec: { containers: [{ name: 'c', image: 'localhost/x:1', ports: [{ containerPort: 8090 }] }] } } });
    await until(async () => (played.has('client') && played.has('client2') ? true : undefined), 'clients started');
    expect(played.get('client')!.spec.hostAliases).toEqual([{ ip: endpoint.status!.podIP, hostnames: ['gw-b.gw.svc.cluster.local', 'gw-b.gw.svc', 'gw-b.gw', 'gw-b'] }]);
    // From another namespace only the qualified names resolve, as with a cluster's search path.
    expect(played.get('client2')!.spec.hostAliases).toEqual([{ ip: endpoint.status!.podIP, hostnames: ['gw-b.gw.svc.cluster.local', 'gw-b.gw.svc', 'gw-b.gw'] }]);
    // The stored Pod is the client's own spec.
    expect((await api.core.readNamespacedPod({ namespace: ns, name: 'client' })).spec?.hostAliases).toBeUndefined();
    const r = await fetchWithCa(d, `/api/v1/namespaces/${ns}/services/gw-b`, { headers: { authorization: `Bearer ${d.token}` } });
    expect(await r.json()).toMatchObject({ kind: 'Service', apiVersion: 'v1', metadata: { name: 'gw-b' } });
  });

  it('refuses a name that is not a DNS-1035 label, and a Service without ports', async () => {
    expect(await apiFailure(api.core.createNamespacedService({ namespace: ns, body: { metadata: { name: '1bad' }, spec: { ports: [{ port: 80 }] } } }))).toMatchObject({ code: 422, body: { details: { kind: 'Service' } } });
    const f = await apiFailure(api.core.createNamespacedService({ namespace: ns, body: { metadata: { name: 'noports' }, spec: {} } }));
    expect(JSON.stringify(f.body)).toContain('spec.ports');
  });

  it('go, with Deployments and their Pods, when the Secret that owns them is deleted', async () => {
    const owner = await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'gw-owner' }, stringData: { k: 'v' } } });
    const ref = { apiVersion: 'v1', kind: 'Secret', name: 'gw-owner', uid: owner.metadata!.uid! };
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gw-c', { ownerReferences: [ref] }) });
    await api.core.createNamespacedService({ namespace: ns, body: { metadata: { name: 'gw-c', ownerReferences: [ref] }, spec: { selector: { app: 'gw-c' }, ports: [{ port: 8080 }] } } });
    await until(async () => ((await podsOf('gw-c')).some((p) => p.status?.phase === 'Running') ? true : undefined), 'gw-c running');
    await api.core.deleteNamespacedSecret({ namespace: ns, name: 'gw-owner' });
    await until(async () => ((await podsOf('gw-c')).length === 0 ? true : undefined), 'gw-c pods gone');
    expect((await apiFailure(apps.readNamespacedDeployment({ namespace: ns, name: 'gw-c' }))).code).toBe(404);
    expect((await apiFailure(api.core.readNamespacedService({ namespace: ns, name: 'gw-c' }))).code).toBe(404);
  });
});
