// UnitBackend on a Kubernetes cluster: one Pod per scenario run, the run's API keys in
// one Secret (parent of every object the run creates), one watch per run for Pod phases.
// Images are pulled by the cluster from a registry (`build-image --push`); nothing is built here.
import type { V1Secret } from '@kubernetes/client-node';
import type { KubernetesSettings } from './settings.js';
import { EngineError } from '../errors.js';
import { LABELS } from '../labels.js';
import type { UnitBackend, ContainerHandle, ContainerInfo, ContainerSpec, EngineCapabilities, EngineDescription, RunNeeds, RunScope, RunScopeOptions } from '../types.js';
import { apiStatus, kubeError, type KubeAccess } from './client.js';
import { checkRunNeeds } from '../preflight.js';
import { KUBERNETES_CAPABILITIES } from './capabilities.js';
import { K8S_LABELS, labelValue, runSecretManifest, runSecretName, splitEnv, unitManifests, assertPodSpec } from './manifests.js';
import { KubernetesPod } from './pod-handle.js';
import { PodWatch } from './pod-watch.js';

/** Prefix of the ids listByLabels gives a run's Secret (removing it removes the whole run). */
const SECRET_ID = 'secret/';

interface RunObjects {
  secret: Promise<V1Secret>;
  /** The values the run's Secret holds (units with other values get them in their own Secret). */
  shared: Record<string, string>;
  watch: PodWatch;
  /** Settles once the Secret exists and the watch runs. */
  ready: Promise<void>;
}

export class KubernetesEngine implements UnitBackend {
  readonly name = 'kubernetes';
  readonly capabilities: EngineCapabilities = KUBERNETES_CAPABILITIES;
  /** The cluster pulls images from a registry (`build-image --push`): no image store here. */
  readonly images = null;
  private readonly runs = new Map<string, RunObjects>();

  constructor(
    readonly access: KubeAccess,
    readonly settings: KubernetesSettings,
  ) {}

  async describe(): Promise<EngineDescription> {
    const v = await this.access.version.getCode().catch(() => null);
    return { kind: 'kubernetes', version: v?.gitVersion ?? null, apiVersion: 'v1', endpoint: `${this.access.server} (namespace ${this.access.namespace})`, remote: true };
  }

  /** Host networking and loopback services are refused (the Pods are elsewhere). */
  preflight(needs: RunNeeds): Promise<void> {
    return checkRunNeeds(this, needs);
  }

  /**
   * The run's Secret (holding the keys its units share, and parent of every object the run
   * creates) and its Pod watch, made before the first unit; close() stops the watch and
   * deletes the Secret, which garbage-collects whatever the run left. Nothing to relay:
   * preflight refused any loopback service.
   */
  async openRun(o: RunScopeOptions): Promise<RunScope> {
    const run = this.runObjects(o.runId, o.env);
    await run.ready;
    return { env: { ...o.env }, close: () => this.closeRun(o.runId) };
  }

  private async closeRun(runId: string): Promise<void> {
    const r = this.runs.get(runId);
    if (!r) return;
    this.runs.delete(runId);
    r.watch.close();
    const s = await r.secret.catch(() => null);
    if (s) await this.remove(SECRET_ID + s.metadata!.name!).catch(() => {});
  }

  async ping(): Promise<void> {
    try {
      await this.access.version.getCode();
    } catch (e) {
      throw kubeError(e, `connecting to the cluster at ${this.access.server}`);
    }
  }



  async create(spec: ContainerSpec): Promise<ContainerHandle> {
    assertPodSpec(spec);
    const runId = spec.labels[LABELS.runId];
    if (!runId) throw new EngineError('internal_error', `a unit for the kubernetes backend needs the ${LABELS.runId} label`);
    const run = this.runs.get(runId);
    if (!run) throw new EngineError('internal_error', `no run scope is open for run ${runId} (openRun before creating its units)`);
    await run.ready;
    const parent = await run.secret;
    const { namespace, core } = this.access;
    const { name, unitSecret, pod } = unitManifests(spec, this.settings, namespace, parent, run.shared);
    try {
      await core.createNamespacedSecret({ namespace, body: unitSecret });
    } catch (e) {
      throw kubeError(e, `creating Secret ${name}`, 'container_start_failed');
    }
    const handle = new KubernetesPod({ access: this.access, watch: run.watch, name, unitSecret: name, env: spec.env, pendingTimeoutS: this.settings.pendingTimeout });
    try {
      await core.createNamespacedPod({ namespace, body: pod });
    } catch (e) {
      await handle.remove().catch(() => {});
      throw kubeError(e, `creating Pod ${name}`, 'container_start_failed');
    }
    return handle;
  }

  /** The run's Secret and watch, made once per run id. */
  private runObjects(runId: string, env: Record<string, string>): RunObjects {
    let run = this.runs.get(runId);
    if (!run) {
      const { namespace, core, kc } = this.access;
      const shared = splitEnv(env, null).run;
      const secret = core.createNamespacedSecret({ namespace, body: runSecretManifest({ namespace, runId, data: shared, labels: this.settings.labels }) }).catch((e: unknown) => {
        this.runs.delete(runId);
        throw kubeError(e, `creating Secret ${runSecretName(runId)}`, 'container_start_failed');
      });
      const watch = new PodWatch(kc, core, namespace, `${K8S_LABELS.run}=${labelValue(runId)}`);
      run = { secret, shared, watch, ready: Promise.all([secret, watch.start()]).then(() => {}) };
      this.runs.set(runId, run);
    }
    return run;
  }

  async listByLabels(labels: Record<string, string>): Promise<ContainerInfo[]> {
    const labelSelector = Object.entries(labels)
      .map(([k, v]) => (v === '' ? k : `${k}=${labelValue(v)}`))
      .join(',');
    const { core, namespace } = this.access;
    try {
      const [pods, secrets] = await Promise.all([core.listNamespacedPod({ namespace, labelSelector }), core.listNamespacedSecret({ namespace, labelSelector })]);
      const units = pods.items.map((p) => ({
        id: p.metadata!.name!,
        name: p.metadata!.name!,
        image: p.spec?.containers[0]?.image ?? '',
        state: (p.status?.phase ?? 'Pending').toLowerCase(),
        labels: p.metadata?.labels ?? {},
      }));
      // The run's Secret is listed too: removing it garbage-collects whatever the run left.
      const parents = secrets.items
        .filter((s) => ['run', 'gateway'].includes(s.metadata?.labels?.[K8S_LABELS.role] ?? ''))
        .map((s) => ({ id: SECRET_ID + s.metadata!.name!, name: s.metadata!.name!, image: '', state: 'secret', labels: s.metadata?.labels ?? {} }));
      return [...units, ...parents];
    } catch (e) {
      throw kubeError(e, `listing Pods (${labelSelector})`);
    }
  }

  async remove(id: string): Promise<void> {
    const { core, namespace } = this.access;
    try {
      if (id.startsWith(SECRET_ID)) await core.deleteNamespacedSecret({ name: id.slice(SECRET_ID.length), namespace, propagationPolicy: 'Background' });
      else await core.deleteNamespacedPod({ name: id, namespace, gracePeriodSeconds: 0, propagationPolicy: 'Background' });
    } catch (e) {
      if (apiStatus(e) !== 404) throw kubeError(e, `deleting ${id}`);
    }
  }



  /** Closes every run scope still open (a run that threw before closing its own). */
  async close(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.closeRun(id)));
  }
}
