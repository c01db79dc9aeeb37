// The backend registry (engine/registry.ts): every kind the plan names has one provider,
// registered under its name, declaring what its units can do; the engine classes carry those
// declarations; and what depends on the backend (its table, summary line, doctor advice,
// manifests) is answered by the provider, with the messages users saw before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DockerApiEngine } from '../../../runner/src/engine/docker-api.js';
import { BACKEND_PROVIDERS, BACKEND_REGISTRY, backendProvider, manifestOutput, resolveBackend } from '../../../runner/src/engine/registry.js';
import type { EngineCapabilities } from '../../../runner/src/engine/types.js';
import { BACKENDS } from '../../../runner/src/plan/backend.js';
import { ConfigError } from '../../../runner/src/plan/errors.js';

const CAPABILITY_NAMES: Array<keyof EngineCapabilities> = ['hostNetwork', 'hostServices', 'dryRun', 'filesAtCreate', 'gatewayBesideUnits', 'capAdd'];
const same = (p: string) => p;

describe('the backend registry', () => {
  it('registers every kind of the plan under its own name, each declaring every capability', () => {
    expect(Object.keys(BACKEND_REGISTRY).sort()).toEqual([...BACKENDS].sort());
    for (const kind of BACKENDS) {
      const p = backendProvider(kind);
      expect(p.kind).toBe(kind);
      expect(Object.keys(p.capabilities).sort()).toEqual([...CAPABILITY_NAMES].sort());
      for (const c of CAPABILITY_NAMES) expect(typeof p.capabilities[c]).toBe('boolean');
    }
    expect(BACKEND_PROVIDERS.map((p) => p.kind)).toEqual([...BACKENDS]);
  });

  it('declares what differs: the cluster shares no network, relays nothing back, copies no files in, and hosts the gateway', () => {
    expect(backendProvider('local').capabilities).toMatchObject({ hostNetwork: true, hostServices: true, filesAtCreate: true, gatewayBesideUnits: false, dryRun: false });
    expect(backendProvider('kubernetes').capabilities).toMatchObject({ hostNetwork: false, hostServices: false, filesAtCreate: false, gatewayBesideUnits: true, dryRun: false });
  });

  it('the engines carry their provider’s declaration (the manifest writer adds only that it creates nothing)', async () => {
    const local = new DockerApiEngine({ socketPath: '/nonexistent.sock', source: 'unix:///nonexistent.sock' });
    expect(local.capabilities).toEqual(backendProvider('local').capabilities);
    await local.close();
    const settings = resolveBackend('kubernetes', {}, same);
    const writer = await manifestOutput(settings, mkdtempSync(join(tmpdir(), 'registry-')));
    expect(writer.capabilities).toEqual({ ...backendProvider('kubernetes').capabilities, dryRun: true });
    expect(writer.written).toEqual([]);
  });

  it('each provider reads its own table; a table of a backend the run does not use is refused', () => {
    expect(resolveBackend(undefined, {}, same)).toEqual({ kind: 'local' });
    const k = resolveBackend('kubernetes', { kubernetes: { namespace: 'eval', kubeconfig: 'kc' } }, (p) => `/abs/${p}`);
    expect(k).toMatchObject({ kind: 'kubernetes', namespace: 'eval', kubeconfig: '/abs/kc', imagePullPolicy: 'IfNotPresent' });
    expect(() => resolveBackend('local', { kubernetes: { namespace: 'x' } }, same)).toThrow(
      new ConfigError('[kubernetes] is set but [run].backend is not "kubernetes" (add backend = "kubernetes" to [run], or remove the table)'),
    );
    expect(backendProvider('kubernetes').table?.keys['kubernetes.resources']).toEqual(['requests', 'limits']);
    expect(backendProvider('local').table).toBeNull();
  });

  it('each backend describes itself: the summary line and the doctor’s advice', () => {
    const k = resolveBackend('kubernetes', { kubernetes: { context: 'prod', pending_timeout: 60n } }, same);
    expect(backendProvider('kubernetes').summary(k, 'bridge')).toBe('Backend: kubernetes (context prod, namespace from the kubeconfig, pull IfNotPresent, pending timeout 60s)');
    expect(backendProvider('local').summary({ kind: 'local' }, 'host')).toBe('Network: host');
    expect(backendProvider('kubernetes').doctorHint(k, {})).toMatch(/^check \[kubernetes\] kubeconfig\/context/);
    expect(backendProvider('local').doctorHint({ kind: 'local' }, { DOCKER_HOST: 'tcp://10.0.0.9:2375' })).toMatch(/^check DOCKER_HOST/);
    expect(backendProvider('local').doctorHint({ kind: 'local' }, {})).toMatch(/^start one: npm run setup-engine/);
  });

  it('--manifests is an output only some backends have; the others are refused naming those that do', async () => {
    await expect(manifestOutput({ kind: 'local' }, '/tmp/unused')).rejects.toThrow(new ConfigError('--manifests needs [run].backend = "kubernetes" (the local engine has no manifests)'));
  });
});
