// One scenario run's Pod as a ContainerHandle. The Pod is created by the engine; start()
// waits on the run's watch until it runs (or fails typed: unschedulable, image pull, …);
// the adapter is reached through the API server's pod proxy (or the Pod IP from inside the
// cluster); the runner hands the scenario to the adapter itself (POST /files).
import type { V1Pod } from '@kubernetes/client-node';
import { acceptsConnections } from '../../net/accepts-connections.js';
import { urlHost } from '../../net/gateway.js';
import { EngineError } from '../errors.js';
import type { AdapterEndpoint, ContainerHandle, UnitState } from '../types.js';
import { apiStatus, kubeError, proxyCredentials, type KubeAccess } from './client.js';
import { CONTAINER_NAME } from './manifests.js';
import type { PodWatch } from './pod-watch.js';
import { isPending, pendingFailure, unitStateOf } from './pod-state.js';

export interface PodHandleOptions {
  access: KubeAccess;
  watch: PodWatch;
  name: string;
  unitSecret: string;
  env: Record<string, string>;
  pendingTimeoutS: number;
  /** Why this unit runs unsealed although its run asked for a seal (ContainerHandle.unsealed). */
  unsealed?: string;
}

export class KubernetesPod implements ContainerHandle {
  readonly id: string;
  readonly name: string;
  readonly unsealed?: string;
  private podIP: string | null = null;

  constructor(private readonly o: PodHandleOptions) {
    this.id = o.name;
    this.name = o.name;
    if (o.unsealed) this.unsealed = o.unsealed;
  }

  async start(): Promise<void> {
    const { watch, pendingTimeoutS } = this.o;
    const outcome = await watch.waitFor<{ pod: V1Pod | null; timedOut: boolean }>(
      this.name,
      (pod) => {
        if (pod === undefined) return undefined;
        if (pod === null || !isPending(pod) || unitStateOf(pod).failure) return { pod, timedOut: false };
        return undefined;
      },
      pendingTimeoutS * 1000,
      () => ({ pod: watch.get(this.name) ?? null, timedOut: true }),
    );
    const pod = outcome.pod;
    if (!pod) throw new EngineError('container_start_failed', `Pod ${this.name} was deleted before it ran`);
    const failure = unitStateOf(pod).failure ?? (outcome.timedOut ? pendingFailure(pod, pendingTimeoutS) : undefined);
    if (failure) throw new EngineError(failure.kind, failure.message);
    this.podIP = pod.status?.podIP ?? null;
  }

  async adapter(port: number): Promise<AdapterEndpoint> {
    const { access } = this.o;
    if (access.inCluster) {
      const ip = this.podIP ?? this.o.watch.get(this.name)?.status?.podIP;
      if (!ip) throw new EngineError('container_start_failed', `Pod ${this.name} has no IP yet`);
      const host = urlHost(ip);
      return { url: `http://${host}:${port}`, tokenHeader: 'own', accepting: () => acceptsConnections(ip, port) };
    }
    // The API server's credentials, exactly as the client library applies them; its TLS
    // material as one context shared by every unit of the engine.
    const { headers, tls } = await proxyCredentials(access);
    return {
      url: `${access.server}/api/v1/namespaces/${access.namespace}/pods/${this.name}:${port}/proxy`,
      headers,
      ...(tls ? { tls } : {}),
      tokenHeader: 'own',
    };
  }

  /**
   * No archive API in a cluster: artifacts come from the adapter's GET /artifacts, a universe
   * chain's carry from its GET /carry (no readTree here).
   */
  async readFile(): Promise<Buffer | null> {
    return null;
  }

  async readFiles(): Promise<Map<string, Buffer>> {
    return new Map();
  }

  async state(): Promise<UnitState> {
    const seen = this.o.watch.get(this.name);
    if (seen !== undefined) return unitStateOf(seen);
    try {
      return unitStateOf(await this.o.access.core.readNamespacedPod({ name: this.name, namespace: this.o.access.namespace }));
    } catch (e) {
      if (apiStatus(e) === 404) return unitStateOf(null);
      throw kubeError(e, `reading Pod ${this.name}`);
    }
  }

  /** A Pod has no signal API: killing it is deleting it at once. */
  async kill(): Promise<void> {
    await this.delete(0);
  }

  async logs(tail = 50): Promise<string> {
    try {
      return await this.o.access.core.readNamespacedPodLog({ name: this.name, namespace: this.o.access.namespace, container: CONTAINER_NAME, tailLines: tail });
    } catch {
      return '';
    }
  }

  async remove(): Promise<void> {
    const { core, namespace } = this.o.access;
    await this.delete(0);
    try {
      await core.deleteNamespacedSecret({ name: this.o.unitSecret, namespace });
    } catch (e) {
      if (apiStatus(e) !== 404) throw kubeError(e, `deleting Secret ${this.o.unitSecret}`);
    }
    this.o.watch.forget(this.name);
  }

  private async delete(gracePeriodSeconds: number): Promise<void> {
    try {
      await this.o.access.core.deleteNamespacedPod({ name: this.name, namespace: this.o.access.namespace, gracePeriodSeconds, propagationPolicy: 'Background' });
    } catch (e) {
      if (apiStatus(e) !== 404) throw kubeError(e, `deleting Pod ${this.name}`);
    }
  }
}
