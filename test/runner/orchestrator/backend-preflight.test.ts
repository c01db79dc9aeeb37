// What a backend cannot do is refused once, by the run's preflight, from the capabilities the
// backend declares — not while the config is read, not per unit at create. The kubernetes
// backend here is the one `--dry-run --manifests` uses (the registry's manifest writer): the
// same declarations as the live cluster, no API server needed.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_FEATURES, IMAGE_FEATURES_LABEL } from '@gaia2/contract/features';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { manifestOutput } from '../../../runner/src/engine/registry.js';
import { preflightRun } from '../../../runner/src/orchestrator/preflight.js';
import { ConfigError } from '../../../runner/src/plan/errors.js';
import { fakeEngine } from './fakes.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'backend-preflight-'));
  mkdirSync(join(dir, 'data'));
});

function k8sConfig(run = '') {
  writeFileSync(
    join(dir, 'c.toml'),
    `[target]\ndataset_root = "data"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "K"\nimage = "registry.example/gaia2-agent:1"\n` +
      `[run]\nbackend = "kubernetes"\n${run}[kubernetes]\nnamespace = "eval"\n`,
  );
  return loadRunConfig(join(dir, 'c.toml'), { K: 'sk-k' });
}

/** The kubernetes backend's manifest writer, counting how often it is asked to describe itself (each refusal does). */
async function k8sBackend(plan: ReturnType<typeof k8sConfig>) {
  const out = join(dir, 'm');
  const backend = await manifestOutput(plan.run.backend, out);
  const asked = { describe: 0 };
  const describe = backend.describe.bind(backend);
  backend.describe = () => (asked.describe++, describe());
  return { backend, asked, out };
}

describe('the preflight refuses what the backend declares it cannot do', () => {
  it('network = "host" on kubernetes: the config reads, the summary prints, the preflight refuses it naming the option', async () => {
    const plan = k8sConfig('network = "host"\n');
    expect(plan.run.network).toBe('host');
    expect(formatSummary(plan, 1)).toContain('Backend: kubernetes (namespace eval, pull IfNotPresent, pending timeout 300s)');
    const { backend, asked, out } = await k8sBackend(plan);
    const e = await preflightRun(plan, backend, { K: 'sk-k' }, () => {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(/^network = "host" \(--network host\) is not possible on the remote kubernetes backend at manifests in .*: its units do not share this machine's network; use network = "bridge"$/);
    expect(asked.describe).toBe(1);
    expect(readdirSync(dir)).not.toContain(basename(out)); // nothing written before the refusal
  });

  it('a file to copy in at create (GAIA2_CA_BUNDLE) on kubernetes names the setting; the same plan passes on a backend that copies files', async () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    const plan = k8sConfig();
    const { backend } = await k8sBackend(plan);
    await expect(preflightRun(plan, backend, { K: 'sk-k', GAIA2_CA_BUNDLE: ca }, () => {})).rejects.toThrow(
      /^the kubernetes backend cannot copy files into its units \(\/etc\/ssl\/certs\/gaia2-host-ca-bundle\.crt, asked for by GAIA2_CA_BUNDLE\); only files under \/var\/gaia2\/ reach them, through the adapter: unset GAIA2_CA_BUNDLE for this backend$/,
    );
    const local = fakeEngine();
    const pre = await preflightRun({ ...plan, run: { ...plan.run, backend: { kind: 'local' } } }, local, { K: 'sk-k', GAIA2_CA_BUNDLE: ca }, () => {});
    expect(pre.base.files.map((f) => f.setting)).toEqual(['GAIA2_CA_BUNDLE']);
  });

  it('a backend that copies no files in needs an image that takes the scenario after start, checked before any unit', async () => {
    const plan = k8sConfig();
    const engine = fakeEngine();
    Object.assign(engine, { capabilities: { ...engine.capabilities, filesAtCreate: false } });
    engine.images.labels = async () => ({ [IMAGE_FEATURES_LABEL]: IMAGE_FEATURES.noise });
    await expect(preflightRun(plan, engine, { K: 'sk-k' }, () => {})).rejects.toThrow(
      /image registry\.example\/gaia2-agent:1 does not implement the fake backend \(it copies no files into its units: the scenario goes in through the adapter\) \(its gaia2\.features label lacks "scenario-after-start"\)/,
    );
    engine.images.labels = async () => ({ [IMAGE_FEATURES_LABEL]: `${IMAGE_FEATURES.scenarioAfterStart},${IMAGE_FEATURES.filesRoute}` });
    await expect(preflightRun(plan, engine, { K: 'sk-k' }, () => {})).resolves.toMatchObject({ gateway: { on: true } });
    expect(engine.containers).toEqual([]);
  });
});
