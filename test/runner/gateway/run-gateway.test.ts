// The run's gateway decision and set-up on the kubernetes backend: on by default there as on
// the other backends (direct stays an explicit opt-out), units pointed at the gateway Service's
// in-cluster name with the keys taken out of their environment, and a provider endpoint on the
// runner's loopback refused (the gateway Pod could not reach it); without a cluster only when the
// backend says it is a dry run. Where the gateway runs is the engine's declaration
// (capabilities.gatewayBesideUnits), never the plan's backend kind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromDatasetFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { ManifestWriter } from '../../../runner/src/engine/kubernetes/dry-run.js';
import { resolveKubernetes, type KubernetesSettings } from '../../../runner/src/engine/kubernetes/settings.js';
import { buildBaseEnv } from '../../../runner/src/env/container-env.js';
import { gatewayDecision, startRunGateway } from '../../../runner/src/gateway/index.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { fakeEngine } from '../orchestrator/fakes.js';

const root = join(import.meta.dirname, '..', '..', '..');
const KEY = 'sk-run-gateway-canary-123456';

function k8sPlan(f: Partial<DatasetFlags> = {}): RunPlan {
  const p = planFromDatasetFlags(
    {
      dataset: join(root, 'examples/scenarios'), image: 'registry.example/gaia2-agent:1', runtime: 'podman', adapterPort: '8090', timeout: '300', healthTimeout: '60',
      thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', concurrency: '1', passAt: '1', revision: 'main',
      agent: 'default', provider: 'openai-compat', model: 'm', apiKeyEnv: 'K', baseUrl: 'https://llm.example/v1', ...f,
    } as DatasetFlags,
    { K: KEY },
  );
  p.run.backend = { kind: 'kubernetes', ...resolveKubernetes({ namespace: 'eval' }, (x) => x) };
  return p;
}

/** The backend of `--dry-run --manifests`: it creates nothing, and says so. */
const dryRunEngine = (p: RunPlan) => new ManifestWriter(mkdtempSync(join(tmpdir(), 'gw-manifests-')), p.run.backend as KubernetesSettings);

describe('the gateway on the kubernetes backend', () => {
  it('is on by default; --no-gateway is the opt-out', () => {
    const p = k8sPlan();
    const routes = buildBaseEnv(p, { K: KEY }, { withholdKeys: true }).routes;
    expect(gatewayDecision(p, routes)).toEqual({ on: true });
    expect(gatewayDecision({ ...p, gateway: { ...p.gateway!, mode: 'on' } }, routes)).toEqual({ on: true });
    expect(gatewayDecision({ ...p, gateway: { ...p.gateway!, mode: 'off' } }, routes).on).toBe(false);
  });

  it('points the units at the Service by its in-cluster name, without the key (no cluster: a dry run)', async () => {
    const p = k8sPlan();
    const base = buildBaseEnv(p, { K: KEY }, { withholdKeys: true });
    const gw = (await startRunGateway(p, base, { runId: 'g2-20261126T000000-abc123', engine: dryRunEngine(p) }))!;
    expect(base.env.BASE_URL).toBe('http://gaia2-gw-g2-20261126t000000-abc123.eval.svc:8080/openai-compat/v1'); // named after the run
    expect(JSON.stringify(base.env)).not.toContain(KEY);
    const tokens = await gw.tokensFor({ container: 'c1', runId: 'r', dir: null, scenario: 's', runIndex: null, recordKey: 's' });
    expect(tokens.API_KEY).toMatch(/^g2gw-/);
    expect(gw.record).toMatchObject({ mode: 'gateway', upstreams: [{ provider: 'openai-compat', base: 'https://llm.example/v1', roles: ['agent'] }] });
    await gw.close();
  });

  it('refuses a provider endpoint on the runner’s loopback, naming the option', async () => {
    const p = k8sPlan({ baseUrl: 'http://127.0.0.1:8000/v1' });
    await expect(startRunGateway(p, buildBaseEnv(p, { K: KEY }, { withholdKeys: true }), { runId: 'g2-x', engine: dryRunEngine(p) })).rejects.toThrow(/\[agent\]\.base_url \(--base-url\)/);
  });

  it('an engine that declares the gateway beside its units but holds no cluster is a wiring bug, not a dry run', async () => {
    const p = k8sPlan();
    const engine = fakeEngine();
    Object.assign(engine, { capabilities: { ...engine.capabilities, gatewayBesideUnits: true } });
    await expect(startRunGateway(p, buildBaseEnv(p, { K: KEY }, { withholdKeys: true }), { runId: 'g2-x', engine })).rejects.toMatchObject({
      kind: 'internal_error',
      message: expect.stringMatching(/the run's engine is fake$/),
    });
  });

  it('an engine that does not declare it gets the gateway on this machine, whatever the plan names', async () => {
    const p = k8sPlan();
    const base = buildBaseEnv(p, { K: KEY }, { withholdKeys: true });
    const gw = (await startRunGateway(p, base, { runId: 'g2-x', engine: fakeEngine() }))!;
    try {
      expect(base.env.BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\//);
    } finally {
      await gw.close();
    }
  });
});
