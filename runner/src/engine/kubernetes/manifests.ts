// The objects a scenario run creates in the cluster, as plain Kubernetes JSON: the run's
// Secret (the API keys, parent of everything else: deleting it garbage-collects the rest),
// one Secret per unit (its adapter token) and one Pod per unit. Pure functions, so the live
// backend and `--dry-run --manifests` produce the same objects.
import type { V1OwnerReference, V1Pod, V1Secret } from '@kubernetes/client-node';
import { ENV } from '@gaia2/contract/paths';
import { randomBytes } from 'node:crypto';
import type { KubernetesSettings } from './settings.js';
import { GATEWAY_TOKEN_PREFIX } from '../../plan/gateway.js';
import { redact } from '../../secrets/redact.js';
import { EngineError } from '../errors.js';
import { LABELS } from '../labels.js';
import type { ContainerSpec } from '../types.js';

/** Labels of this backend on top of LABELS: selectors for one run and one scenario. */
export const K8S_LABELS = { run: 'gaia2.run', scenario: 'gaia2.scenario', role: 'gaia2.role' } as const;
/** Full (unshortened) scenario id: label values stop at 63 characters. */
export const SCENARIO_ANNOTATION = 'gaia2.scenario-id';
/** Where the Secret volumes go; the entrypoint loads every file below it (ENV.secretsDir). */
export const SECRETS_MOUNT = '/run/gaia2-secrets';
export const CONTAINER_NAME = 'gaia2';

/** Variable names that always hold secrets, whatever their value. */
const SECRET_NAME = /(^|_)(API_KEY|TOKEN|SECRET|PASSWORD)$/;

/** True when a variable must travel in a Secret, never as a literal value in the Pod spec. */
export function isSecretVar(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || redact(value) !== value;
}

/**
 * What every Pod of a run gets from the settings: no API token and no service variables (units
 * and the gateway talk to nobody in the cluster), a short grace period, and the settings'
 * service account, node selector and tolerations.
 */
export function podPlacement(s: KubernetesSettings) {
  return {
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: 5,
    ...(s.serviceAccount ? { serviceAccountName: s.serviceAccount } : {}),
    ...(Object.keys(s.nodeSelector).length ? { nodeSelector: s.nodeSelector } : {}),
    ...(s.tolerations.length ? { tolerations: s.tolerations } : {}),
  };
}

/** A DNS-1123 label (≤ 63): what a Pod name must be for its hostname. */
export function dnsLabel(raw: string, max = 63): string {
  const s = raw.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-');
  return s.slice(0, max).replace(/^-+|-+$/g, '') || 'x';
}

/** A valid label value (≤ 63, alphanumeric at both ends). */
export function labelValue(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

export function runSecretName(runId: string): string {
  return dnsLabel(`gaia2-run-${runId}`, 253);
}

function encode(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
}

export function runLabels(runId: string, extra: Record<string, string>): Record<string, string> {
  return { ...extra, [LABELS.managed]: '1', [LABELS.runId]: labelValue(runId), [K8S_LABELS.run]: labelValue(runId) };
}

/** The run's Secret: the values every unit of the run shares (API keys); owner of the rest. */
export function runSecretManifest(o: { namespace: string; runId: string; data: Record<string, string>; labels: Record<string, string> }): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: runSecretName(o.runId), namespace: o.namespace, labels: { ...runLabels(o.runId, o.labels), [K8S_LABELS.role]: 'run' } },
    data: encode(o.data),
  };
}

export function ownerRef(secret: V1Secret): V1OwnerReference {
  return { apiVersion: 'v1', kind: 'Secret', name: secret.metadata!.name!, uid: secret.metadata!.uid ?? '', blockOwnerDeletion: false, controller: false };
}

/** One unit's own secrets (its adapter token, values that differ from the run's). */
export function unitSecretManifest(o: { namespace: string; name: string; data: Record<string, string>; labels: Record<string, string>; owner: V1OwnerReference }): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: o.name, namespace: o.namespace, labels: { ...o.labels, [K8S_LABELS.role]: 'unit' }, ownerReferences: [o.owner] },
    data: encode(o.data),
  };
}

export interface PodInput {
  namespace: string;
  name: string;
  spec: ContainerSpec;
  settings: KubernetesSettings;
  /** The adapter's container port. */
  port: number;
  /** Literal (non-secret) variables. */
  env: Record<string, string>;
  runSecret: string;
  unitSecret: string;
  owner: V1OwnerReference;
  labels: Record<string, string>;
  scenarioId: string;
}

export function podManifest(p: PodInput): V1Pod {
  const s = p.settings;
  const env = { ...p.env, [ENV.secretsDir]: SECRETS_MOUNT };
  const resources = {
    ...(Object.keys(s.resources.requests).length ? { requests: s.resources.requests } : {}),
    ...(Object.keys(s.resources.limits).length ? { limits: s.resources.limits } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: { ...p.labels, [K8S_LABELS.role]: 'unit' },
      annotations: { [SCENARIO_ANNOTATION]: p.scenarioId },
      ownerReferences: [p.owner],
    },
    spec: {
      restartPolicy: 'Never',
      ...podPlacement(s),
      containers: [
        {
          name: CONTAINER_NAME,
          image: p.spec.image,
          imagePullPolicy: s.imagePullPolicy,
          ...(p.spec.entrypoint ? { command: p.spec.entrypoint } : {}),
          ...(p.spec.cmd ? { args: p.spec.cmd } : {}),
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          ports: [{ name: 'adapter', containerPort: p.port, protocol: 'TCP' }],
          ...(Object.keys(resources).length ? { resources } : {}),
          // NET_ADMIN lets the entrypoint install the sealed network's filter in the Pod's own
          // network namespace before the agent starts (docs/contract.md, "Sealed network").
          ...(p.spec.capAdd?.length ? { securityContext: { capabilities: { add: p.spec.capAdd } } } : {}),
          volumeMounts: [
            { name: 'run-secrets', mountPath: `${SECRETS_MOUNT}/run`, readOnly: true },
            { name: 'unit-secrets', mountPath: `${SECRETS_MOUNT}/unit`, readOnly: true },
          ],
        },
      ],
      volumes: [
        // 0400, owned by root: only the entrypoint reads them (the daemon and the agent run as other users).
        { name: 'run-secrets', secret: { secretName: p.runSecret, defaultMode: 0o400 } },
        { name: 'unit-secrets', secret: { secretName: p.unitSecret, defaultMode: 0o400 } },
      ],
    },
  };
}

/** Splits a unit's environment: literal variables, values the run shares, and the unit's own secrets. */
export function splitEnv(env: Record<string, string>, runShared: Record<string, string> | null): { plain: Record<string, string>; run: Record<string, string>; unit: Record<string, string> } {
  const plain: Record<string, string> = {};
  const run: Record<string, string> = {};
  const unit: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!isSecretVar(k, v)) plain[k] = v;
    // a unit's own gateway tokens never go to the run's Secret (mounted into every unit)
    else if (k === ENV.adapterToken || v.startsWith(GATEWAY_TOKEN_PREFIX)) unit[k] = v;
    else if (runShared === null || runShared[k] === v) run[k] = v;
    else unit[k] = v;
  }
  return { plain, run, unit };
}

export interface UnitObjects {
  name: string;
  unitSecret: V1Secret;
  pod: V1Pod;
}

/**
 * What the run's preflight already refused (capabilities.filesAtCreate: files to copy in, an
 * image that does not take the scenario after start) cannot reach a Pod: a spec that does is a
 * wiring bug, failed loudly rather than run without its files.
 */
export function assertPodSpec(spec: ContainerSpec): void {
  if (spec.files?.length || !spec.env[ENV.scenarioReady])
    throw new EngineError('internal_error', `a unit with files to copy in (${(spec.files ?? []).map((f) => f.path).join(', ') || 'none'}) or without ${ENV.scenarioReady} reached the kubernetes backend; the run's preflight refuses such runs`);
}

/** A unit's Secret and Pod for a container spec, owned by the run's Secret. */

export function unitManifests(spec: ContainerSpec, settings: KubernetesSettings, namespace: string, parent: V1Secret, shared: Record<string, string>): UnitObjects {
  const runId = spec.labels[LABELS.runId] ?? '';
  const name = dnsLabel(`${(spec.name ?? 'gaia2').slice(0, 50)}-${randomBytes(3).toString('hex')}`);
  const scenarioId = spec.labels[LABELS.scenarioId] ?? '';
  const labels = {
    ...settings.labels,
    ...Object.fromEntries(Object.entries(spec.labels).map(([k, v]) => [k, labelValue(v)])),
    ...runLabels(runId, {}),
    [K8S_LABELS.scenario]: labelValue(scenarioId),
  };
  const env = splitEnv(spec.env, shared);
  const owner = ownerRef(parent);
  const pod = podManifest({
    namespace,
    name,
    spec,
    settings,
    port: Number(spec.env[ENV.adapterPort]),
    env: env.plain,
    runSecret: parent.metadata!.name!,
    unitSecret: name,
    owner,
    labels,
    scenarioId,
  });
  return { name, unitSecret: unitSecretManifest({ namespace, name, data: env.unit, labels, owner }), pod };
}
