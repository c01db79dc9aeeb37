// `--dry-run --manifests DIR`: every object a run would create, one YAML file per scenario run,
// each object validated against the Kubernetes schemas (kubernetes-models). The run goes
// through the real orchestrator and scenario-run code with an engine that writes manifests
// instead of talking to a cluster; secret values are replaced before anything is written.
import { dumpYaml, type V1Secret } from '@kubernetes/client-node';
import { Pod, Secret } from 'kubernetes-models/v1';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesSettings } from './settings.js';
import { EngineError } from '../errors.js';
import { LABELS } from '../labels.js';
import type { ManifestOutput, ContainerHandle, EngineCapabilities, ContainerSpec, EngineDescription, RunNeeds, RunScope, RunScopeOptions } from '../types.js';
import { checkRunNeeds } from '../preflight.js';
import { KUBERNETES_CAPABILITIES } from './capabilities.js';
import { runSecretManifest, splitEnv, unitManifests, assertPodSpec } from './manifests.js';

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
    if ((o as { kind?: string }).kind === 'Pod') new Pod(o as ConstructorParameters<typeof Pod>[0]).validate();
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
    const unit = unitManifests(spec, this.settings, namespace, { ...parent, metadata: { ...parent.metadata, uid: PLACEHOLDER_UID } }, shared);
    const objects = [redactSecret(parent), redactSecret(unit.unitSecret), unit.pod];
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
