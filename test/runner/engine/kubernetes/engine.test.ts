// KubernetesEngine against the API-server double in-process (lightweight Pods that answer like
// our adapter): a unit's life through the pod proxy, the run's objects and their cleanup,
// typed failures (unschedulable, forbidden), loopback model endpoints refused, one watch.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '@gaia2/contract/paths';
import { resolveBackend } from '../../../../runner/src/engine/registry.js';
import type { KubernetesSettings } from '../../../../runner/src/engine/kubernetes/settings.js';
import { connectKubernetes, type KubernetesEngine } from '../../../../runner/src/engine/kubernetes/index.js';
import { LABELS, type ContainerSpec } from '../../../../runner/src/engine/index.js';
import { AdapterClient } from '../../../../runner/src/run/adapter-client.js';
import { hook } from '../../../helpers/k8s-api-double/client.js';
import { writeKubeconfig } from '../../../helpers/k8s-api-double/kubeconfig.js';
import { fakeAdapter } from '../../../helpers/k8s-api-double/runtime/fake-adapter.js';
import { FakeRuntime } from '../../../helpers/k8s-api-double/runtime/fake.js';
import { startDouble, type RunningDouble } from '../../../helpers/k8s-api-double/server.js';

let d: RunningDouble;
let kubeconfig: string;
const CANARY = 'sk-canary-engine-0123456789';

/** The [kubernetes] defaults (as the config resolves them) with this double's kubeconfig. */
const settings = (o: Partial<KubernetesSettings> = {}): KubernetesSettings => {
  const b = resolveBackend('kubernetes', { kubernetes: { kubeconfig, namespace: 'default', pending_timeout: 30 } }, (p: string) => p);
  if (b.kind !== 'kubernetes') throw new Error('unreachable');
  return { ...b, ...o };
};

const spec = (runId: string, token = 'tok-abcdef123'): ContainerSpec => ({
  image: 'registry.example/gaia2-agent:1',
  name: 'gaia2-unit',
  env: { [ENV.adapterPort]: '8090', [ENV.adapterToken]: token, [ENV.scenarioReady]: '/var/gaia2/scenario.ready', API_KEY: CANARY, PROVIDER: 'openai' },
  labels: { [LABELS.managed]: '1', [LABELS.runId]: runId, [LABELS.scenarioId]: 'scn_1', [LABELS.runIndex]: '1' },
  entrypoint: ['bash'],
  cmd: ['/opt/gaia2-init-entrypoint.sh'],
  network: 'bridge',
});

beforeAll(async () => {
  d = await startDouble({ runtime: new FakeRuntime(fakeAdapter({ runMs: 200 })) });
  kubeconfig = join(mkdtempSync(join(tmpdir(), 'k8s-engine-')), 'kubeconfig');
  writeKubeconfig(kubeconfig, d.url, d.token, d.ca);
});
afterAll(async () => {
  await d?.close();
});

/** The run's scope, as the orchestrator opens it before the run's first unit. */
const open = (engine: KubernetesEngine, runId: string) => engine.openRun({ runId, env: spec(runId).env, network: 'bridge' });

describe('KubernetesEngine', () => {
  it('runs a unit: start waits for Running, files and status through the pod proxy, remove and close leave nothing', async () => {
    const engine: KubernetesEngine = await connectKubernetes(settings());
    expect((await engine.describe()).kind).toBe('kubernetes');
    await expect(engine.create(spec('run-a'))).rejects.toMatchObject({ kind: 'internal_error', message: expect.stringMatching(/no run scope is open for run run-a/) });
    const scope = await open(engine, 'run-a');
    expect(scope.env.API_KEY).toBe(CANARY); // nothing to relay: the environment as given
    const unit = await engine.create(spec('run-a'));
    await unit.start();
    expect((await unit.state()).running).toBe(true);
    const ep = await unit.adapter(8090);
    expect(ep.url).toBe(`${d.url}/api/v1/namespaces/default/pods/${unit.name}:8090/proxy`);
    expect(ep.tokenHeader).toBe('own');
    const client = new AdapterClient(ep, 'tok-abcdef123');
    await client.putFiles([{ path: '/var/gaia2/custom_scenario.json', content: '{}' }, { path: '/var/gaia2/scenario.ready', content: '' }]);
    for (let i = 0; i < 100 && (await client.status()).status !== 'complete'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await client.status()).status).toBe('complete');
    expect((await client.artifacts()).files.has('events.jsonl')).toBe(true);
    await client.close();
    // the run's Secret is listed too (removing it removes the run)
    const listed = await engine.listByLabels({ [LABELS.runId]: 'run-a' });
    expect(listed.map((x) => x.id).sort()).toEqual([unit.name, 'secret/gaia2-run-run-a'].sort());
    const pod = (await d.ctx.store.list('pods', 'default')) as Array<{ metadata: { name: string }; spec: unknown }>;
    expect(JSON.stringify(pod)).not.toContain(CANARY);
    await unit.remove();
    await engine.close();
    expect(await engine.listByLabels({ [LABELS.managed]: '1' })).toEqual([]);
    expect(await (await connectKubernetes(settings())).listByLabels({ [LABELS.runId]: 'run-a' })).toEqual([]);
  });

  it('units of one run share one watch and one run Secret', async () => {
    const engine = await connectKubernetes(settings());
    await hook(d, 'DELETE', 'requests');
    await open(engine, 'run-b');
    const units = await Promise.all([1, 2, 3].map((i) => engine.create(spec('run-b', `tok-${i}-abcdefgh`))));
    await Promise.all(units.map((u) => u.start()));
    const counts = (await hook(d, 'GET', 'requests')) as Record<string, number>;
    expect(counts['watch pods']).toBe(1);
    expect(counts['list pods']).toBe(1);
    expect(counts['create secrets']).toBe(4); // the run's + one per unit
    expect(counts['get pods'] ?? 0).toBe(0); // phases come from the watch, not from polling
    await engine.close();
  });

  it('an unschedulable Pod fails start() with pod_unschedulable after pending_timeout', async () => {
    const engine = await connectKubernetes(settings({ nodeSelector: { pool: 'none' }, pendingTimeout: 1 }));
    await open(engine, 'run-c');
    const unit = await engine.create(spec('run-c'));
    await expect(unit.start()).rejects.toMatchObject({ kind: 'pod_unschedulable', message: expect.stringMatching(/not scheduled within 1s: Unschedulable/) });
    await engine.close();
  });

  it('a refused request is engine_unavailable naming the Role; loopback model endpoints are refused', async () => {
    await hook(d, 'POST', 'tokens', { token: 'limited-token-123', user: 'limited' });
    await hook(d, 'PUT', 'rbac', { user: 'limited', deny: ['create pods'] });
    const limited = join(mkdtempSync(join(tmpdir(), 'k8s-engine-')), 'kubeconfig');
    writeKubeconfig(limited, d.url, 'limited-token-123', d.ca);
    const engine = await connectKubernetes(settings({ kubeconfig: limited }));
    await open(engine, 'run-d');
    await expect(engine.create(spec('run-d'))).rejects.toMatchObject({ kind: 'engine_unavailable', message: expect.stringMatching(/HTTP 403.*docs\/kubernetes\.md/) });
    const bridge = (env: Record<string, string>) => engine.preflight({ network: 'bridge', env });
    await expect(bridge({ BASE_URL: 'http://127.0.0.1:8000/v1' })).rejects.toThrow(/BASE_URL points at the runner's own machine.*\[agent\]\.base_url/);
    await expect(bridge({ GAIA2_JUDGE_BASE_URL: 'http://localhost:9/v1' })).rejects.toThrow(/\[judge\]\.base_url/);
    await expect(bridge({ BASE_URL: 'https://llm.example.com/v1' })).resolves.toBeUndefined();
    await expect(engine.preflight({ network: 'host', env: {} })).rejects.toThrow(/network = "host" \(--network host\) is not possible on the remote kubernetes backend at .*: its units do not share this machine.s network/);
    await engine.close();
  });
});
