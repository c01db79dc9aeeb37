// The Kubernetes API-server double with real Pods: each Pod is played by podman from its own
// spec. Driven by @kubernetes/client-node, like the runner's Kubernetes backend: a Pod serving
// HTTP through the pod proxy with its Secret mounted as files, exit codes and kills as Pod
// phases, image pull failures, unschedulable Pods, OOM, owner GC, and nothing left behind.
import { execFileSync } from 'node:child_process';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { clientFor, fetchWithCa, hook, runningAfterRestarts, until as poll } from '../helpers/k8s-api-double/client.js';
import { startDouble, type RunningDouble } from '../helpers/k8s-api-double/server.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const ns = 'gaia2';
let d: RunningDouble;
let api: ReturnType<typeof clientFor>;

// A tiny HTTP server in the Pod: echoes method, path, the Authorization header it got, the
// secret file and the body size, and exits with the code POSTed to /exit. (It must not start
// with a newline: podman 4.3's YAML round trip breaks strings that do, see docs.)
const SERVER = `const http = require('http'), fs = require('fs');
http.createServer((q, s) => {
  let n = 0; q.on('data', (c) => { n += c.length; });
  q.on('end', () => {
    if (q.url.startsWith('/exit/')) { s.end('bye'); setTimeout(() => process.exit(Number(q.url.slice(6))), 100); return; }
    let secret = '', mode = 0; try { secret = fs.readFileSync('/run/keys/api-key', 'utf8'); mode = fs.statSync('/run/keys/api-key').mode & 0o777; } catch {}
    let writable = true; try { fs.writeFileSync('/run/keys/x', '1'); } catch { writable = false; }
    s.setHeader('content-type', 'application/json');
    s.end(JSON.stringify({ method: q.method, url: q.url, auth: q.headers.authorization ?? null, token: q.headers['x-token'] ?? null, secret, mode, writable, bytes: n, host: require('os').hostname() }));
  });
}).listen(8090, '0.0.0.0');`;

function serverPod(name: string, extra: Partial<V1Pod['spec']> = {}, labels: Record<string, string> = { 'gaia2.run': 'e2e' }): V1Pod {
  return {
    metadata: { name, labels },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{
        name: 'agent', image, imagePullPolicy: 'IfNotPresent', command: ['node', '-e', SERVER],
        ports: [{ containerPort: 8090, name: 'adapter' }],
        volumeMounts: [{ name: 'keys', mountPath: '/run/keys', readOnly: true }],
      }],
      volumes: [{ name: 'keys', secret: { secretName: 'gaia2-run-e2e', defaultMode: 0o400 } }],
      ...extra,
    },
  };
}

/** Real containers start in seconds, not milliseconds: poll for up to a minute. */
const until = <T>(f: () => Promise<T | undefined>, what: string): Promise<T> => poll(f, what, { tries: 240, everyMs: 250 });
const read = (name: string): Promise<V1Pod> => api.core.readNamespacedPod({ namespace: ns, name });
const phase = (name: string, want: string): Promise<V1Pod> =>
  until(async () => { const p = await read(name); return p.status?.phase === want ? p : undefined; }, `${name} ${want}`);
/** Names of podman pods, secrets and volumes made by the double with this prefix. */
const podmanNames = (prefix: string): string =>
  [['pod', 'ps'], ['secret', 'ls'], ['volume', 'ls']]
    .map(([kind, verb]) => execFileSync('podman', [kind!, verb!, '--format', '{{.Name}}'], { encoding: 'utf8' }))
    .join('\n').split('\n').filter((n) => n.startsWith(`${prefix}-`)).join(' ');

beforeAll(async () => {
  d = await startDouble();
  api = clientFor(d);
  await api.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'gaia2-run-e2e', labels: { 'gaia2.run': 'e2e' } }, stringData: { 'api-key': 'sk-test-value\nline2' } } });
});
afterAll(async () => {
  const prefix = d.prefix;
  await d.close();
  expect(podmanNames(prefix)).toBe('');
});

describe('k8s API double with podman pods', () => {
  it('runs a Pod whose Secret is a read-only 0400 file and reaches it through the pod proxy', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: serverPod('web') });
    const p = await phase('web', 'Running');
    expect(p.status?.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(p.status?.containerStatuses?.[0]?.state?.running?.startedAt).toBeDefined();
    const big = Buffer.alloc(3 * 1024 * 1024, 65);
    const answer = await until(async () => {
      const r = await fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/web:8090/proxy/upload?q=1`, {
        method: 'POST', headers: { authorization: `Bearer ${d.token}`, 'x-token': 'adapter' }, body: big,
      });
      return r.status === 200 ? (await r.json()) as Record<string, unknown> : undefined;
    }, 'the pod to answer');
    expect(answer).toEqual({ method: 'POST', url: '/upload?q=1', auth: null, token: 'adapter', secret: 'sk-test-value\nline2', mode: 0o400, writable: false, bytes: big.length, host: 'web' });
    const named = await fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/web:adapter/proxy/x`, { headers: { authorization: `Bearer ${d.token}` } });
    expect(((await named.json()) as { url: string }).url).toBe('/x');
  });

  it('reports exit codes as Succeeded and Failed, and a killed container as exit 137', async () => {
    const exit = (name: string, code: number): Promise<Response> =>
      fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/${name}:8090/proxy/exit/${code}`, { method: 'POST', headers: { authorization: `Bearer ${d.token}` } });
    for (const n of ['ok', 'bad', 'killed']) await api.core.createNamespacedPod({ namespace: ns, body: serverPod(n) });
    for (const n of ['ok', 'bad', 'killed']) await phase(n, 'Running');
    await until(async () => ((await exit('ok', 0)).status === 200 ? true : undefined), 'ok to answer');
    await until(async () => ((await exit('bad', 3)).status === 200 ? true : undefined), 'bad to answer');
    await hook(d, 'POST', `pods/${ns}/killed/kill`);
    const ok = await phase('ok', 'Succeeded');
    expect(ok.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const bad = await phase('bad', 'Failed');
    expect(bad.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    const killed = await phase('killed', 'Failed');
    expect(killed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    const log = await api.core.readNamespacedPodLog({ namespace: ns, name: 'bad', tailLines: 10 });
    expect(typeof log).toBe('string');
  });

  it('runs an ended container again in its own Pod under restartPolicy Always: same Pod, restartCount 1', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: serverPod('again', { restartPolicy: 'Always' }) });
    const first = await phase('again', 'Running');
    const call = (path: string, method = 'GET'): Promise<Response> =>
      fetchWithCa(d, `/api/v1/namespaces/${ns}/pods/again:8090/proxy${path}`, { method, headers: { authorization: `Bearer ${d.token}` } });
    // Answering first, then told to exit once: a second POST (after a lost answer) would end the
    // restarted container too, and restartCount would never be 1.
    await until(async () => ((await call('/x')).status === 200 ? true : undefined), 'again to answer');
    expect((await call('/exit/3', 'POST')).status).toBe(200);
    const back = await until(async () => runningAfterRestarts(await read('again'), 1), 'the container restarted');
    expect(back.metadata?.uid).toBe(first.metadata?.uid);
    // (Not the same IP here: podman 4.3 stops a played pod's network with its last container; docs/kubernetes-double.md.)
    expect(back.status?.phase).toBe('Running');
    expect(back.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(await until(async () => { const r = await call('/x'); return r.status === 200 ? ((await r.json()) as { url: string }).url : undefined; }, 'served again')).toBe('/x');
    await api.core.deleteNamespacedPod({ namespace: ns, name: 'again', gracePeriodSeconds: 0 });
  });

  it('ends a container that cannot start as StartError with exit code 128', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: {
      metadata: { name: 'nostart' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'agent', image, imagePullPolicy: 'IfNotPresent', command: ['/no/such/binary'] }] },
    } });
    const p = await phase('nostart', 'Failed');
    expect(p.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 128, reason: 'StartError' });
    expect(p.status?.containerStatuses?.[0]?.state?.terminated?.message).toContain('/no/such/binary');
  });

  it('ends an out-of-memory container as OOMKilled', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: {
      metadata: { name: 'oom' },
      spec: { restartPolicy: 'Never', containers: [{
        name: 'agent', image, imagePullPolicy: 'IfNotPresent', resources: { limits: { memory: '64Mi' } },
        command: ['node', '-e', 'const a = []; for (;;) a.push(Buffer.alloc(8 << 20, 1));'],
      }] },
    } });
    const p = await phase('oom', 'Failed');
    expect(p.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('reports a missing image as ErrImagePull then ImagePullBackOff, and ErrImageNeverPull for Never', async () => {
    const missing = (name: string, policy: string): V1Pod => ({
      metadata: { name }, spec: { restartPolicy: 'Never', containers: [{ name: 'agent', image: 'registry.invalid/gaia2/none:1', imagePullPolicy: policy }] },
    });
    await api.core.createNamespacedPod({ namespace: ns, body: missing('nopull', 'IfNotPresent') });
    await api.core.createNamespacedPod({ namespace: ns, body: missing('never', 'Never') });
    const reasons = new Set<string>();
    await until(async () => {
      const r = (await read('nopull')).status?.containerStatuses?.[0]?.state?.waiting?.reason;
      if (r) reasons.add(r);
      return reasons.has('ImagePullBackOff') ? true : undefined;
    }, 'ImagePullBackOff');
    expect([...reasons]).toContain('ErrImagePull');
    expect((await read('nopull')).status?.phase).toBe('Pending');
    const never = await until(async () => (await read('never')).status?.containerStatuses?.[0]?.state?.waiting, 'never waiting');
    expect(never.reason).toBe('ErrImageNeverPull');
    await api.core.deleteCollectionNamespacedPod({ namespace: ns, fieldSelector: 'status.phase=Pending', gracePeriodSeconds: 0 });
  });

  it('keeps a Pod whose nodeSelector does not match Pending/Unschedulable until the node gets the label', async () => {
    await api.core.createNamespacedPod({ namespace: ns, body: serverPod('picky', { nodeSelector: { 'gaia2.pool': 'agents' } }) });
    const p = await until(async () => {
      const x = await read('picky');
      return x.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    }, 'PodScheduled=False');
    expect(p.reason).toBe('Unschedulable');
    expect(p.message).toContain("didn't match Pod's node affinity/selector");
    expect((await read('picky')).status?.phase).toBe('Pending');
    const node = (await hook(d, 'GET', 'node')) as { labels: Record<string, string> };
    await hook(d, 'PUT', 'node', { labels: { ...node.labels, 'gaia2.pool': 'agents' } });
    await phase('picky', 'Running');
  });

  it('garbage-collects the Pods owned by the run Secret and removes their podman pods', async () => {
    const owner = await api.core.readNamespacedSecret({ namespace: ns, name: 'gaia2-run-e2e' });
    const owned = serverPod('owned');
    owned.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Secret', name: 'gaia2-run-e2e', uid: owner.metadata!.uid! }];
    await api.core.createNamespacedPod({ namespace: ns, body: owned });
    await phase('owned', 'Running');
    await api.core.deleteNamespacedSecret({ namespace: ns, name: 'gaia2-run-e2e' });
    await until(async () => ((await api.core.listNamespacedPod({ namespace: ns, fieldSelector: 'metadata.name=owned' })).items.length === 0 ? true : undefined), 'owned pod gone');
    await until(async () => (podmanNames(d.prefix).includes(`${d.prefix}-${ns}-owned`) ? undefined : true), 'podman pod removed');
  });
});
