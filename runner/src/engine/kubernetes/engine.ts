// UnitBackend on a Kubernetes cluster: one Pod per scenario run, the run's API keys in
// one Secret (parent of every object the run creates), one watch per run for Pod phases.
// Images are pulled by the cluster from a registry (`build-image --push`); nothing is built here.
import { NetworkingV1Api, type V1Secret } from '@kubernetes/client-node';
import { DEFAULT_ADAPTER_PORT } from '@gaia2/contract/paths';
import type { KubernetesSettings } from './settings.js';
import { EngineError } from '../errors.js';
import { LABELS } from '../labels.js';
import type { UnitBackend, ContainerHandle, ContainerInfo, ContainerSpec, EngineCapabilities, EngineDescription, RunNeeds, RunScope, RunScopeOptions } from '../types.js';
import { apiStatus, kubeError, type KubeAccess } from './client.js';
import { checkRunNeeds } from '../preflight.js';
import { KUBERNETES_CAPABILITIES } from './capabilities.js';
import { K8S_LABELS, labelValue, ownerRef, runSecretManifest, runSecretName, splitEnv, unitManifests, assertPodSpec } from './manifests.js';
import { networkPolicyManifest } from './network-policy.js';
import { checkSealAdmitted, refusalError, refusedCapability, unsealedSpec } from './seal.js';
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
  /** Why this sealed run's Pods go unsealed (the cluster refused NET_ADMIN; unsealed_fallback); null: as asked. */
  unsealed: string | null;
  /** The run's NetworkPolicy (a sealed run), removed with the run. */
  policy: string | null;
}

export class KubernetesEngine implements UnitBackend {
  readonly name = 'kubernetes';
  readonly capabilities: EngineCapabilities = KUBERNETES_CAPABILITIES;
  /** The cluster pulls images from a registry (`build-image --push`): no image store here. */
  readonly images = null;
  private readonly runs = new Map<string, RunObjects>();
  /**
   * Pod labels serving an address a sealed run's units may reach, by host name: the run's model
   * gateway registers its Service's name here (gateway/cluster/), so the run's NetworkPolicy
   * lets the units reach exactly its Pods.
   */
  readonly sealPeers = new Map<string, Record<string, string>>();

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
    if (o.seal) await this.sealRun(run, o.runId, o.seal, o.log);
    return { env: { ...o.env }, close: () => this.closeRun(o.runId) };
  }

  /**
   * A sealed run: does the cluster admit NET_ADMIN (a dry-run Pod; refused: an error, or with
   * unsealed_fallback the run's Pods go unsealed), and the run's NetworkPolicy, owned by its
   * Secret. A runner whose Role may not write NetworkPolicies goes on without one, saying so:
   * the in-Pod filter is what seals.
   */
  private async sealRun(run: RunObjects, runId: string, seal: NonNullable<RunScopeOptions['seal']>, log?: (l: string) => void): Promise<void> {
    const { namespace, kc } = this.access;
    const refused = await checkSealAdmitted(this.access, this.settings, seal.image);
    if (refused !== null) {
      if (!this.settings.unsealedFallback) throw refusalError(namespace, refused);
      run.unsealed = `the cluster refused NET_ADMIN (${refused}); [kubernetes] unsealed_fallback = true`;
      log?.(`Sealed network: not on this cluster: ${run.unsealed}. This run's Pods run unsealed (network_sealed: false)`);
    }
    const parent = await run.secret;
    const body = networkPolicyManifest({
      namespace, name: parent.metadata!.name!, runId, labels: this.settings.labels, owner: ownerRef(parent),
      allow: seal.allow, peers: this.sealPeers, adapterPort: DEFAULT_ADAPTER_PORT,
    });
    try {
      await kc.makeApiClient(NetworkingV1Api).createNamespacedNetworkPolicy({ namespace, body });
      run.policy = body.metadata!.name!;
    } catch (e) {
      log?.(`Sealed network: NetworkPolicy ${body.metadata!.name} not written (${kubeError(e, 'creating it').message}); the filter inside each Pod still seals its agent`);
    }
  }

  private async closeRun(runId: string): Promise<void> {
    const r = this.runs.get(runId);
    if (!r) return;
    this.runs.delete(runId);
    r.watch.close();
    if (r.policy) await this.access.kc.makeApiClient(NetworkingV1Api).deleteNamespacedNetworkPolicy({ name: r.policy, namespace: this.access.namespace }).catch(() => {});
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



  async create(asked: ContainerSpec): Promise<ContainerHandle> {
    assertPodSpec(asked);
    const runId = asked.labels[LABELS.runId];
    if (!runId) throw new EngineError('internal_error', `a unit for the kubernetes backend needs the ${LABELS.runId} label`);
    const run = this.runs.get(runId);
    if (!run) throw new EngineError('internal_error', `no run scope is open for run ${runId} (openRun before creating its units)`);
    await run.ready;
    const sealAsked = !!asked.capAdd?.length;
    const spec = sealAsked && run.unsealed ? unsealedSpec(asked) : asked;
    const parent = await run.secret;
    const { namespace, core } = this.access;
    const { name, unitSecret, pod } = unitManifests(spec, this.settings, namespace, parent, run.shared);
    try {
      await core.createNamespacedSecret({ namespace, body: unitSecret });
    } catch (e) {
      throw kubeError(e, `creating Secret ${name}`, 'container_start_failed');
    }
    const handle = new KubernetesPod({ access: this.access, watch: run.watch, name, unitSecret: name, env: spec.env, pendingTimeoutS: this.settings.pendingTimeout, ...(sealAsked && run.unsealed ? { unsealed: run.unsealed } : {}) });
    try {
      await core.createNamespacedPod({ namespace, body: pod });
    } catch (e) {
      await handle.remove().catch(() => {});
      // admitted by the dry run, refused now (a policy changed mid-run): the same clear error
      if (sealAsked && !run.unsealed && refusedCapability(e)) throw refusalError(namespace, kubeError(e, `creating Pod ${name}`).message);
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
      run = { secret, shared, watch, ready: Promise.all([secret, watch.start()]).then(() => {}), unsealed: null, policy: null };
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
