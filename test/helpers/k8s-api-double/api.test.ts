// Wire compatibility of the double's API, driven by @kubernetes/client-node itself, with the
// in-process (fake) pod runtime: objects, selectors, watches, errors, deletion and GC.
import { makeInformer, Watch, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, clientFor, fetchWithCa, hook, until } from './client.js';
import { FakeRuntime } from './runtime/fake.js';
import { startDouble, type RunningDouble } from './server.js';

let d: RunningDouble;
let api: ReturnType<typeof clientFor>;
const ns = 'gaia2';

const pod = (name: string, labels: Record<string, string> = {}, extra: Partial<V1Pod['spec']> = {}): V1Pod => ({
  metadata: { name, labels },
  spec: { restartPolicy: 'Never', containers: [{ name: 'agent', image: 'localhost/x:1', ports: [{ containerPort: 8090 }] }], ...extra },
});



beforeAll(async () => {
  d = await startDouble({ runtime: new FakeRuntime(), bookmarkMs: 200 });
  api = clientFor(d);
});
afterAll(async () => { await d.close(); });

describe('k8s API double over client-node', () => {
  it('creates, gets and lists pods and secrets with label selectors', async () => {
    const s = await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'gaia2-run-a', labels: { 'gaia2.run': 'a' } }, stringData: { key: 'v1' } } });
    expect(s.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.data).toEqual({ key: Buffer.from('v1').toString('base64') });
    expect(s.metadata?.resourceVersion).toMatch(/^\d+$/);
    await api.core.createNamespacedPod({ namespace: ns, body: pod('p1', { 'gaia2.run': 'a', 'gaia2.scenario': 's1' }) });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('p2', { 'gaia2.run': 'b' }) });
    const got = await api.core.readNamespacedPod({ namespace: ns, name: 'p1' });
    expect(got.spec?.containers[0]?.imagePullPolicy).toBe('IfNotPresent');
    expect((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run=a' })).items.map((p) => p.metadata?.name)).toEqual(['p1']);
    expect((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run' })).items).toHaveLength(2);
    expect((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run,gaia2.scenario=s1' })).items).toHaveLength(1);
    expect((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run!=a' })).items.map((p) => p.metadata?.name)).toEqual(['p2']);
    expect((await api.core.listNamespacedSecret({ namespace: ns, labelSelector: 'gaia2.run=a' })).items).toHaveLength(1);
    const running = await until(async () => {
      const p = await api.core.readNamespacedPod({ namespace: ns, name: 'p1' });
      return p.status?.phase === 'Running' ? p : undefined;
    }, 'p1 running');
    expect(running.status?.podIP).toMatch(/^127\.([1-9]\d*)\.\d+\.\d+$/);
    expect(running.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('answers Status errors with real reason codes', async () => {
    const dup = await apiFailure(api.core.createNamespacedPod({ namespace: ns, body: pod('p1') }));
    expect(dup).toMatchObject({ code: 409, body: { kind: 'Status', reason: 'AlreadyExists', details: { name: 'p1', kind: 'pods' } } });
    expect(await apiFailure(api.core.readNamespacedPod({ namespace: ns, name: 'nope' }))).toMatchObject({ code: 404, body: { reason: 'NotFound' } });
    const bad = await apiFailure(api.core.createNamespacedPod({ namespace: ns, body: pod('Bad_Name') }));
    expect(bad).toMatchObject({ code: 422, body: { reason: 'Invalid' } });
    expect(JSON.stringify(bad.body)).toContain('metadata.name');
    const anon = clientFor({ ...d, token: 'wrong' });
    expect((await apiFailure(anon.core.listNamespacedPod({ namespace: ns }))).code).toBe(401);
    const raw = await fetchWithCa(d, `/api/v1/namespaces/${ns}/pods`, { headers: { authorization: 'Bearer wrong' } });
    expect({ code: raw.status, body: await raw.json() }).toMatchObject({ code: 401, body: { kind: 'Status', reason: 'Unauthorized', code: 401 } });
    await hook(d, 'POST', 'tokens', { token: 'runner-token', user: 'runner' });
    await hook(d, 'PUT', 'rbac', { user: 'runner', deny: ['delete pods', 'get pods/proxy'] });
    const runner = clientFor({ ...d, token: 'runner-token' });
    expect((await runner.core.listNamespacedPod({ namespace: ns })).items.length).toBeGreaterThan(0);
    const denied = await apiFailure(runner.core.deleteNamespacedPod({ namespace: ns, name: 'p1' }));
    expect(denied).toMatchObject({ code: 403, body: { reason: 'Forbidden' } });
    expect(denied.body.message).toContain('cannot delete resource "pods"');
    const proxied = await fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/p1:8090/proxy/health`, { headers: { authorization: 'Bearer runner-token' } });
    expect({ code: proxied.status, body: await proxied.json() }).toMatchObject({ code: 403, body: { reason: 'Forbidden', details: { kind: 'pods/proxy' } } });
    const hooked = await fetchWithCa(d, '/_k8sd/requests', { headers: { authorization: 'Bearer runner-token' } });
    expect(hooked.status).toBe(403);
  });

  it('watches from a resourceVersion with ADDED, MODIFIED, DELETED and BOOKMARK, and 410 for a compacted one', async () => {
    const start = (await api.core.listNamespacedPod({ namespace: ns })).metadata!.resourceVersion!;
    const events: string[] = [];
    const w = await new Watch(api.kc).watch(`/api/v1/namespaces/${ns}/pods`, { resourceVersion: start, labelSelector: 'w=1', allowWatchBookmarks: true },
      (type, obj: V1Pod) => events.push(`${type} ${obj.metadata?.name ?? ''} ${obj.status?.phase ?? ''}`), () => {});
    await api.core.createNamespacedPod({ namespace: ns, body: pod('w1', { w: '1' }) });
    await until(async () => (events.some((e) => e.startsWith('MODIFIED w1 Running')) ? true : undefined), 'w1 running event');
    await api.core.deleteNamespacedPod({ namespace: ns, name: 'w1', gracePeriodSeconds: 0 });
    await until(async () => (events.some((e) => e.startsWith('DELETED w1')) ? true : undefined), 'w1 deleted event');
    await until(async () => (events.some((e) => e.startsWith('BOOKMARK')) ? true : undefined), 'a bookmark');
    expect(events[0]).toMatch(/^ADDED w1 Pending/);
    expect(events.filter((e) => !e.startsWith('BOOKMARK')).every((e) => e.includes(' w1 '))).toBe(true);
    w.abort();

    await hook(d, 'POST', 'compact');
    const errors: unknown[] = [];
    await new Watch(api.kc).watch(`/api/v1/namespaces/${ns}/pods`, { resourceVersion: start }, (type, obj) => { if (type === 'ERROR') errors.push(obj); }, () => {});
    const e = await until(async () => errors[0], 'the 410 event');
    expect(e).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
  });

  it('deletes a running Pod gracefully: deletionTimestamp first, then DELETED; status subresource and all-namespace list', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: pod('grace', { g: '1' }) });
    await until(async () => ((await api.core.readNamespacedPodStatus({ namespace: ns, name: 'grace' })).status?.phase === 'Running' ? true : undefined), 'grace running');
    expect((await api.core.listPodForAllNamespaces({ labelSelector: 'g=1' })).items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual([`${ns}/grace`]);
    const events: { type: string; p: V1Pod }[] = [];
    const from = (await api.core.readNamespacedPod({ namespace: ns, name: 'grace' })).metadata!.resourceVersion!;
    const w = await new Watch(api.kc).watch(`/api/v1/namespaces/${ns}/pods`, { resourceVersion: from, labelSelector: 'g=1' }, (type, p: V1Pod) => events.push({ type, p }), () => {});
    const answer = await api.core.deleteNamespacedPod({ namespace: ns, name: 'grace', gracePeriodSeconds: 1 });
    expect(answer.metadata?.deletionTimestamp).toBeDefined();
    expect(answer.metadata?.deletionGracePeriodSeconds).toBe(1);
    await until(async () => (events.some((e) => e.type === 'DELETED') ? true : undefined), 'DELETED');
    w.abort();
    expect(events[0]?.type).toBe('MODIFIED');
    expect(events[0]?.p.metadata?.deletionTimestamp).toBeDefined();
    expect(await apiFailure(api.core.readNamespacedPod({ namespace: ns, name: 'grace' }))).toMatchObject({ code: 404 });
  });

  it("serves client-node's informer (list, then watch from the list's resourceVersion)", async () => {
    const informer = makeInformer(api.kc, `/api/v1/namespaces/${ns}/pods`, () => api.core.listNamespacedPod({ namespace: ns, labelSelector: 'inf=1' }), 'inf=1');
    const seen: string[] = [];
    informer.on('add', (p: V1Pod) => seen.push(`add ${p.metadata?.name}`));
    informer.on('delete', (p: V1Pod) => seen.push(`delete ${p.metadata?.name}`));
    await api.core.createNamespacedPod({ namespace: ns, body: pod('inf-a', { inf: '1' }) });
    await informer.start();
    await api.core.createNamespacedPod({ namespace: ns, body: pod('inf-b', { inf: '1' }) });
    await api.core.deleteNamespacedPod({ namespace: ns, name: 'inf-a', gracePeriodSeconds: 0 });
    await until(async () => (seen.includes('delete inf-a') ? true : undefined), 'the informer to see the delete');
    await informer.stop();
    expect(seen).toEqual(['add inf-a', 'add inf-b', 'delete inf-a']);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['inf-b']);
  });

  it('deletes by label and garbage-collects pods owned by a deleted secret', async () => {
    const owner = await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'gaia2-run-gc', labels: { 'gaia2.run': 'gc' } }, data: {} } });
    const ref = { apiVersion: 'v1', kind: 'Secret', name: 'gaia2-run-gc', uid: owner.metadata!.uid! };
    for (const n of ['gc1', 'gc2']) await api.core.createNamespacedPod({ namespace: ns, body: { ...pod(n, { 'gaia2.run': 'gc' }), metadata: { name: n, labels: { 'gaia2.run': 'gc' }, ownerReferences: [ref] } } });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('keep', { 'gaia2.run': 'gc-other' }) });
    await api.core.deleteNamespacedSecret({ namespace: ns, name: 'gaia2-run-gc', propagationPolicy: 'Background' });
    await until(async () => ((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run=gc' })).items.length === 0 ? true : undefined), 'owned pods collected');
    expect((await api.core.readNamespacedPod({ namespace: ns, name: 'keep' })).metadata?.name).toBe('keep');
    const removed = await api.core.deleteCollectionNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run=gc-other', gracePeriodSeconds: 0 });
    expect(removed).toBeDefined();
    expect((await api.core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.run=gc-other' })).items).toHaveLength(0);
  });

  it('proxies any method with body to the pod and does not forward the API token', async () => {
    const seen: Record<string, unknown>[] = [];
    const echo = await startDouble({
      runtime: new FakeRuntime(() => ({
        handler: (req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => {
            const body = Buffer.concat(chunks);
            seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, token: req.headers['x-gaia2-adapter-token'], bytes: body.length });
            res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
          });
        },
      })),
    });
    try {
      const c = clientFor(echo);
      await c.core.createNamespacedPod({ namespace: ns, body: pod('px') });
      await until(async () => ((await c.core.readNamespacedPod({ namespace: ns, name: 'px' })).status?.podIP ? true : undefined), 'px ip');
      const big = Buffer.alloc(5 * 1024 * 1024, 7);
      const r = await fetchWithCa(echo, `/api/v1/namespaces/${ns}/pods/px:8090/proxy/upload?x=1`, {
        method: 'POST', headers: { authorization: `Bearer ${echo.token}`, 'x-gaia2-adapter-token': 'adapter-secret' }, body: big,
      });
      expect(r.status).toBe(200);
      expect(Buffer.from(await r.arrayBuffer()).equals(big)).toBe(true);
      expect(seen[0]).toEqual({ method: 'POST', url: '/upload?x=1', auth: undefined, token: 'adapter-secret', bytes: big.length });
      const none = await fetchWithCa(echo, `/api/v1/namespaces/${ns}/pods/missing:8090/proxy/`, { headers: { authorization: `Bearer ${echo.token}` } });
      expect(none.status).toBe(404);
    } finally {
      await echo.close();
    }
  });
});
