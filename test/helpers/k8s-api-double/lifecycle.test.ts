// Pod lifecycle in the double with the fake runtime: a whole runner-shaped run against the
// fake adapter through the pod proxy, restarts by restartPolicy, scheduling by resources,
// missing Secrets, eviction and node loss, request counting, and admission errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFailure, clientFor, fetchWithCa, hook, runningAfterRestarts, until } from './client.js';
import { fakeAdapter } from './runtime/fake-adapter.js';
import { FakeRuntime, loopbackAddress } from './runtime/fake.js';
import { startDouble, type RunningDouble } from './server.js';

let d: RunningDouble;
let api: ReturnType<typeof clientFor>;
const ns = 'bench';

const pod = (name: string, extra: Partial<V1Pod['spec']> = {}): V1Pod => ({
  metadata: { name, labels: { 'gaia2.run': 'l' } },
  spec: { restartPolicy: 'Never', containers: [{ name: 'gaia2', image: 'localhost/gaia2-agent:x', ports: [{ containerPort: 8090 }] }], ...extra },
});

const read = (name: string): Promise<V1Pod> => api.core.readNamespacedPod({ namespace: ns, name });
const phase = (name: string, want: string): Promise<V1Pod> =>
  until(async () => { const p = await read(name); return p.status?.phase === want ? p : undefined; }, `${name} ${want}`);

beforeAll(async () => {
  d = await startDouble({ runtime: new FakeRuntime(fakeAdapter({ runMs: 100 })) });
  api = clientFor(d);
});
afterAll(async () => { await d.close(); });

describe('pod lifecycle in the double (fake runtime)', () => {
  it('runs a runner-shaped unit: upload, status, artifacts of a real run, shutdown → Succeeded', async () => {
    await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'unit-1' }, stringData: { GAIA2_ADAPTER_TOKEN: 'tok-1' } } });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('unit-1', { volumes: [{ name: 'u', secret: { secretName: 'unit-1' } }] }) });
    await phase('unit-1', 'Running');
    const call = (method: string, path: string, body?: string, token = 'tok-1'): Promise<Response> =>
      fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/unit-1:8090/proxy${path}`, {
        method, headers: { authorization: `Bearer ${d.token}`, 'x-gaia2-adapter-token': token }, ...(body ? { body } : {}),
      });
    expect((await call('POST', '/files', '{"files":[]}', 'wrong')).status).toBe(401);
    expect((await call('POST', '/files', '{"files":[]}')).status).toBe(400);
    expect(await (await call('GET', '/health')).json()).toMatchObject({ connected: false });
    const up = await call('POST', '/files', JSON.stringify({ files: [{ path: '/var/gaia2/custom_scenario.json', content: 'e30=' }] }));
    expect({ code: up.status, body: await up.json() }).toEqual({ code: 200, body: { ok: true, written: 1 } });
    const final = await until(async () => {
      const s = (await (await call('GET', '/status')).json()) as { status: string };
      return s.status === 'complete' ? s : undefined;
    }, 'complete');
    expect(final).toMatchObject({ status: 'complete', judgment: { success: true } });
    const art = (await (await call('GET', '/artifacts')).json()) as { files: Record<string, string>; missing: string[] };
    const fixture = readFileSync(join(import.meta.dirname, '../../fixtures/k8s-double/oracle-run/events.jsonl'));
    expect(Buffer.from(art.files['events.jsonl']!, 'base64').equals(fixture)).toBe(true);
    expect((await call('POST', '/shutdown')).status).toBe(200);
    const done = await phase('unit-1', 'Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('restartPolicy OnFailure: a killed container runs again in the same Pod; a clean exit ends it Succeeded', async () => {
    const env = [{ name: 'GAIA2_ADAPTER_TOKEN', value: 'tok-r' }];
    await api.core.createNamespacedPod({ namespace: ns, body: pod('onfail', { restartPolicy: 'OnFailure', containers: [{ name: 'gaia2', image: 'localhost/gaia2-agent:x', ports: [{ containerPort: 8090 }], env }] }) });
    const first = await phase('onfail', 'Running');
    await hook(d, 'POST', `pods/${ns}/onfail/kill`);
    const again = await until(async () => runningAfterRestarts(await read('onfail'), 1), 'restarted in place');
    expect(again.metadata?.uid).toBe(first.metadata?.uid);
    expect(again.status).toMatchObject({ phase: 'Running', podIP: first.status?.podIP });
    expect(again.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(again.status?.containerStatuses?.[0]?.containerID).not.toBe(first.status?.containerStatuses?.[0]?.containerID);
    const shutdown = await fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/onfail:8090/proxy/shutdown`, { method: 'POST', headers: { authorization: `Bearer ${d.token}`, 'x-gaia2-adapter-token': 'tok-r' } });
    expect(shutdown.status).toBe(200);
    const done = await phase('onfail', 'Succeeded');
    expect(done.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 1, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
  });

  it('schedules by requested resources and keeps the rest Pending until capacity frees', async () => {
    await hook(d, 'PUT', 'node', { allocatable: { cpu: '1', memory: '1Gi' } });
    const req = (cpu: string): Partial<V1Pod['spec']> => ({ containers: [{ name: 'gaia2', image: 'i:1', resources: { requests: { cpu, memory: '100Mi' } } }] });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('too-big', req('2')) });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('first', req('600m')) });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('second', req('600m')) });
    await phase('first', 'Running');
    const sched = async (n: string) => (await read(n)).status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(await sched('too-big')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect((await sched('too-big'))?.message).toContain('Insufficient cpu');
    expect(await sched('second')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    await api.core.deleteNamespacedPod({ namespace: ns, name: 'first', gracePeriodSeconds: 0 });
    await phase('second', 'Running');
    expect((await read('too-big')).status?.phase).toBe('Pending');
    await hook(d, 'PUT', 'node', { allocatable: { cpu: '64', memory: '64Gi' } });
  });

  it('waits in ContainerCreating for a missing Secret and starts once it exists', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: pod('needs-secret', { volumes: [{ name: 's', secret: { secretName: 'late' } }] }) });
    const w = await until(async () => (await read('needs-secret')).status?.containerStatuses?.[0]?.state?.waiting?.message, 'mount failure');
    expect(w).toContain('secret "late" not found');
    await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'late' }, data: {} } });
    await phase('needs-secret', 'Running');
  });

  it('ends an evicted Pod as Failed/Evicted and a lost node as Unknown/NodeLost', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: pod('ev') });
    await api.core.createNamespacedPod({ namespace: ns, body: pod('lost') });
    await phase('ev', 'Running');
    await phase('lost', 'Running');
    await hook(d, 'POST', `pods/${ns}/ev/evict`);
    await hook(d, 'POST', `pods/${ns}/lost/node-lost`);
    expect((await read('ev')).status).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
    expect((await read('lost')).status).toMatchObject({ phase: 'Unknown', reason: 'NodeLost' });
  });

  it('refuses bad objects like the API server', async () => {
    const big = { metadata: { name: 'huge' }, data: { k: Buffer.alloc(1024 * 1024 + 1).toString('base64') } };
    expect(await apiFailure(api.core.createNamespacedSecret({ namespace: ns, body: big }))).toMatchObject({ code: 422, body: { reason: 'Invalid' } });
    const badLabel = await apiFailure(api.core.createNamespacedPod({ namespace: ns, body: { ...pod('x'), metadata: { name: 'x', labels: { a: 'not ok!' } } } }));
    expect(badLabel).toMatchObject({ code: 422, body: { reason: 'Invalid' } });
    const other = await apiFailure(api.core.createNamespacedPod({ namespace: ns, body: { ...pod('y'), metadata: { name: 'y', namespace: 'elsewhere' } } }));
    expect(other).toMatchObject({ code: 400, body: { reason: 'BadRequest' } });
    const noContainers = await apiFailure(api.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'z' }, spec: { containers: [] } } }));
    expect(JSON.stringify(noContainers.body)).toContain('spec.containers');
    await api.core.createNamespacedPod({ namespace: ns, body: pod('waits', { nodeSelector: { never: 'x' } }) });
    expect(await apiFailure(api.core.readNamespacedPodLog({ namespace: ns, name: 'waits' }))).toMatchObject({ code: 400 });
  });

  it('counts API requests by verb and resource', async () => {
    await hook(d, 'DELETE', 'requests');
    await api.core.listNamespacedPod({ namespace: ns });
    await api.core.listNamespacedPod({ namespace: ns });
    await api.core.readNamespacedSecret({ namespace: ns, name: 'late' });
    expect(await hook(d, 'GET', 'requests')).toEqual({ 'list pods': 2, 'get secrets': 1 });
  });

  it('gives every fake pod its own loopback address', () => {
    const seen = new Set(Array.from({ length: 70_000 }, (_, n) => loopbackAddress(n)));
    expect(seen.size).toBe(70_000);
    expect([...seen].every((a) => /^127\.\d+\.\d+\.\d+$/.test(a) && !a.endsWith('.0') && !a.endsWith('.255'))).toBe(true);
  });
});
