// `run-config --dry-run --manifests DIR` through the real orchestrator: one YAML file per
// scenario run, Secret + Secret + Pod (+ the sealed run's NetworkPolicy) each valid against the Kubernetes schemas, no key value
// anywhere, a loopback base URL refused with the option named.
import { loadAllYaml } from '@kubernetes/client-node';
import { Pod } from 'kubernetes-models/v1';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeManifests } from '../../../runner/src/cli/manifests.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { writeScenario } from '../dataset/make-scenario.js';

const CANARY = 'sk-canary-5f1e2d3c4b5a69788796';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'manifests-'));
  writeScenario(join(dir, 'data/search/s1.json'), 's1');
  writeScenario(join(dir, 'data/time/s2.json'), 's2');
});

async function dryRun(extra = '', hostEnv: Record<string, string> = {}, runExtra = '') {
  writeFileSync(
    join(dir, 'c.toml'),
    `[target]\ndataset_root = "data"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "CANARY"\nimage = "registry.example/gaia2-agent:1"\n${extra}` +
      `[run]\nbackend = "kubernetes"\npass_at = 2\noutput_dir = "out"\n${runExtra}[kubernetes]\nnamespace = "eval"\nimage_pull_policy = "Always"\n`,
  );
  const env = { CANARY, ...hostEnv };
  const plan = loadRunConfig(join(dir, 'c.toml'), env);
  const ds = await resolveDataset(plan.target, { env, log: () => {} });
  const out: string[] = [];
  await writeManifests(plan, ds, join(dir, 'm'), { out: (s) => out.push(s), err: () => {}, env });
  return out.join('');
}

describe('--dry-run --manifests', () => {
  it('writes one valid Secret/Secret/Pod file per scenario run, without key values', async () => {
    expect(await dryRun()).toMatch(/Manifests: 4 file\(s\)/);
    const files = readdirSync(join(dir, 'm')).sort();
    expect(files).toEqual(['s1.run_1.yaml', 's1.run_2.yaml', 's2.run_1.yaml', 's2.run_2.yaml']);
    for (const f of files) {
      const text = readFileSync(join(dir, 'm', f), 'utf8');
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(Buffer.from(CANARY).toString('base64'));
      const objs = loadAllYaml(text) as Array<{ kind: string; metadata: { name: string; labels: Record<string, string> }; data?: Record<string, string> }>;
      expect(objs.map((o) => o.kind)).toEqual(['Secret', 'Secret', 'Pod', 'NetworkPolicy']);
      // With the model gateway (the default) the run's Secret holds no key; each unit's Secret
      // holds its adapter token and its own gateway token.
      expect(Object.keys(objs[0]!.data!)).not.toContain('API_KEY');
      expect(Object.keys(objs[1]!.data!).sort()).toEqual(['API_KEY', 'GAIA2_ADAPTER_TOKEN', 'OPENAI_API_KEY']);
      const pod = objs[2] as unknown as NonNullable<ConstructorParameters<typeof Pod>[0]>;
      new Pod(pod).validate();
      expect(pod.metadata!.labels!['gaia2.scenario']).toBe(f.split('.')[0]);
      expect(pod.spec!.containers[0]!.image).toBe('registry.example/gaia2-agent:1');
      expect(pod.spec!.containers[0]!.imagePullPolicy).toBe('Always');
      expect(pod.spec!.containers[0]!.env!.map((e) => e.name)).not.toContain('API_KEY');
      // sealed (network = "bridge", the default): NET_ADMIN for the in-Pod filter, and the run's
      // NetworkPolicy letting its Pods reach the gateway's Pods (and DNS) only
      expect(pod.spec!.containers[0]!.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN'] } });
      const seal = pod.spec!.containers[0]!.env!.find((e) => e.name === 'GAIA2_SEAL_ALLOW');
      expect(seal?.value).toMatch(/^gaia2-gw-[a-z0-9-]+\.eval\.svc:8080$/);
      const np = objs[3] as unknown as { spec: { egress: unknown[]; podSelector: unknown } };
      expect(np.spec.egress[0]).toEqual({ to: [{ podSelector: { matchLabels: { 'gaia2.gateway': seal!.value!.split('.')[0] } } }], ports: [{ port: 8080, protocol: 'TCP' }] });
    }
    expect(readdirSync(dir)).not.toContain('out'); // a dry run leaves no run outputs
  });

  it('network = "open": no NET_ADMIN, no NetworkPolicy', async () => {
    await dryRun('', {}, 'network = "open"\n');
    const objs = loadAllYaml(readFileSync(join(dir, 'm', 's1.run_1.yaml'), 'utf8')) as Array<{ kind: string; spec?: { containers?: Array<{ securityContext?: unknown; env?: Array<{ name: string }> }> } }>;
    expect(objs.map((o) => o.kind)).toEqual(['Secret', 'Secret', 'Pod']);
    expect(objs[2]!.spec!.containers![0]!.securityContext).toBeUndefined();
    expect(objs[2]!.spec!.containers![0]!.env!.map((e) => e.name)).not.toContain('GAIA2_SEAL_ALLOW');
  });

  it('refuses what the cluster would refuse (a CA bundle to copy into the Pods) in the preflight, instead of writing manifests for it', async () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nabc\n');
    await expect(dryRun('', { GAIA2_CA_BUNDLE: ca })).rejects.toThrow(
      /the kubernetes backend cannot copy files into its units \(\/etc\/ssl\/certs\/gaia2-host-ca-bundle\.crt, asked for by GAIA2_CA_BUNDLE\).*unset GAIA2_CA_BUNDLE/,
    );
    expect(existsSync(join(dir, 'm'))).toBe(false);
  });

  it('refuses a loopback base URL, naming the option', async () => {
    await expect(dryRun('base_url = "http://127.0.0.1:8000/v1"\n')).rejects.toThrow(/BASE_URL points at the runner's own machine.*\[agent\]\.base_url/);
  });
});
