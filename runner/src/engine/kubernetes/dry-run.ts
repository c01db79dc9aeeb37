// `--dry-run --manifests DIR`: every object a run would create, one YAML file per scenario run,
// each object validated against the Kubernetes schemas (kubernetes-models). The run goes
// through the real orchestrator and scenario-run code with an engine that writes manifests
// instead of talking to a cluster; secret values are replaced before anything is written.
import { dumpYaml, type V1Secret } from '@kubernetes/client-node';
import { Pod, Secret } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { DEFAULT_ADAPTER_PORT, ENV } from '@gaia2/contract/paths';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesSettings } from './settings.js';
import { EngineError } from '../errors.js';
import { LABELS } from '../labels.js';
import type { ManifestOutput, ContainerHandle, EngineCapabilities, ContainerSpec, EngineDescription, RunNeeds, RunScope, RunScopeOptions } from '../types.js';
import { checkRunNeeds } from '../preflight.js';
import { KUBERNETES_CAPABILITIES } from './capabilities.js';
import { ownerRef, runSecretManifest, splitEnv, unitManifests, assertPodSpec } from './manifests.js';
import { networkPolicyManifest } from './network-policy.js';

/** The API server assigns uids; manifests show this one where an owner's uid goes. */
export const PLACEHOLDER_UID = '00000000-0000-0000-0000-000000000000';
const REDACTED = 'cmVkYWN0ZWQ='; // base64("redacted")

/** Thrown by create(): the scenario run stops right there, nothing else is attempted. */
class ManifestWritten extends EngineError {}

function redactSecret(s: V1Secret): V1Secret {
  return { ...s, data: Object.fromEntries(Object.keys(s.data ?? {}).map((k) => [k, REDACTED])) };
}

function validate(o: object, what: string): void {
  try {
    const kind = (o as { kind?: string }).kind;
    if (kind === 'Pod') new Pod(o as ConstructorParameters<typeof Pod>[0]).validate();
    else if (kind === 'NetworkPolicy') new NetworkPolicy(o as ConstructorParameters<typeof NetworkPolicy>[0]).validate();
    else new Secret(o as ConstructorParameters<typeof Secret>[0]).validate();
  } catch (e) {
    throw new EngineError('internal_error', `${what} does not validate against the Kubernetes schema: ${(e as Error).message}`);
  }
}

export class ManifestWriter implements ManifestOutput {
  readonly name = 'kubernetes-manifests';
  readonly capabilities: EngineCapabilities = { ...KUBERNETES_CAPABILITIES, dryRun: true };
  readonly images = null;
  /** Files written, in order. */
  readonly written: string[] = [];
  /** The gateway's Service name → its Pods' labels, as on a cluster (the sealed run's NetworkPolicy). */
  readonly sealPeers = new Map<string, Record<string, string>>();

  constructor(
    private readonly dir: string,
    readonly settings: KubernetesSettings,
  ) {}

  async create(spec: ContainerSpec): Promise<ContainerHandle> {
    assertPodSpec(spec);
    const namespace = this.settings.namespace ?? 'default';
    const runId = spec.labels[LABELS.runId] ?? 'run';
    const shared = splitEnv(spec.env, null).run;
    const parent = runSecretManifest({ namespace, runId, data: shared, labels: this.settings.labels });
    const owned = { ...parent, metadata: { ...parent.metadata, uid: PLACEHOLDER_UID } };
    const unit = unitManifests(spec, this.settings, namespace, owned, shared);
    // a sealed run's fence, as the live backend writes it once per run (engine.ts)
    const allow = spec.capAdd?.length ? spec.env[ENV.sealAllow] : undefined;
    const policy = allow !== undefined
      ? [networkPolicyManifest({ namespace, name: parent.metadata!.name!, runId, labels: this.settings.labels, owner: ownerRef(owned), allow: allow.split(',').filter(Boolean), peers: this.sealPeers, adapterPort: DEFAULT_ADAPTER_PORT })]
      : [];
    const objects = [redactSecret(parent), redactSecret(unit.unitSecret), unit.pod, ...policy];
    for (const o of objects) validate(o, `${o.kind} ${o.metadata?.name}`);
    mkdirSync(this.dir, { recursive: true });
    const base = `${spec.labels[LABELS.scenarioId] ?? unit.name}.run_${spec.labels[LABELS.runIndex] ?? '1'}`.replace(/[^A-Za-z0-9_.-]/g, '_');
    let file = join(this.dir, `${base}.yaml`);
    for (let i = 2; existsSync(file); i++) file = join(this.dir, `${base}.${i}.yaml`);
    writeFileSync(file, objects.map((o) => dumpYaml(o)).join('---\n'));
    this.written.push(file);
    throw new ManifestWritten('interrupted', `manifests written to ${file}`);
  }

  async describe(): Promise<EngineDescription> {
    return { kind: 'kubernetes', version: null, apiVersion: 'v1', endpoint: `manifests in ${this.dir}`, remote: true };
  }
  /** Host networking and loopback services are refused (the Pods are elsewhere). */
  preflight(needs: RunNeeds): Promise<void> {
    return checkRunNeeds(this, needs);
  }

  /** Nothing to relay (preflight refused any loopback service) and nothing kept per run. */
  async openRun(o: RunScopeOptions): Promise<RunScope> {
    return { env: { ...o.env }, close: async () => {} };
  }
  async ping(): Promise<void> {}
  async listByLabels(): Promise<[]> {
    return [];
  }
  async remove(): Promise<void> {}
  async close(): Promise<void> {}
}
