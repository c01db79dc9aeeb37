// One watch per run: the latest state of every Pod of the run, kept from a single LIST and a
// WATCH that resumes from the last resourceVersion (a relist when the server says it is too
// old). Units wait on it for their phase changes; nobody polls the API server.
import { Watch, type CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { kubeError } from './client.js';

type Listener = () => void;

export class PodWatch {
  /** name → latest Pod; null once deleted. */
  private readonly pods = new Map<string, V1Pod | null>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private resourceVersion = '';
  private controller: AbortController | null = null;
  private closed = false;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly namespace: string,
    private readonly labelSelector: string,
  ) {}

  /** Lists, then watches from the list's resourceVersion; resolves once the watch is open. */
  start(): Promise<void> {
    this.ready ??= this.relist().catch((e: unknown) => {
      this.ready = null; // the next unit tries again
      throw e;
    });
    return this.ready;
  }

  /** The latest known Pod; undefined when the watch has not seen it (yet). */
  get(name: string): V1Pod | null | undefined {
    return this.pods.get(name);
  }

  /**
   * Resolves with the Pod once `done` says so (checked now and on every change of that Pod),
   * or with `onTimeout`'s value after timeoutMs.
   */
  waitFor<T>(name: string, done: (pod: V1Pod | null | undefined) => T | undefined, timeoutMs: number, onTimeout: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      const check = (): boolean => {
        const r = done(this.pods.get(name));
        if (r === undefined) return false;
        finish(r);
        return true;
      };
      const set = this.listeners.get(name) ?? new Set<Listener>();
      const finish = (r: T) => {
        clearTimeout(timer);
        set.delete(listener);
        if (set.size === 0) this.listeners.delete(name);
        resolve(r);
      };
      const listener = () => void check();
      const timer = setTimeout(() => finish(onTimeout()), timeoutMs);
      timer.unref();
      if (check()) return;
      set.add(listener);
      this.listeners.set(name, set);
    });
  }

  /** Forgets a removed Pod (the map would otherwise grow with every run). */
  forget(name: string): void {
    this.pods.delete(name);
  }

  close(): void {
    this.closed = true;
    this.controller?.abort();
  }

  private set(pod: V1Pod | null, name: string): void {
    this.pods.set(name, pod);
    for (const l of [...(this.listeners.get(name) ?? [])]) l();
  }

  private async relist(): Promise<void> {
    try {
      const list = await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: this.labelSelector });
      const seen = new Set<string>();
      for (const p of list.items) {
        seen.add(p.metadata!.name!);
        this.set(p, p.metadata!.name!);
      }
      // Pods that vanished while no watch was open.
      for (const [name, p] of this.pods) if (p && !seen.has(name)) this.set(null, name);
      this.resourceVersion = list.metadata?.resourceVersion ?? '';
    } catch (e) {
      throw kubeError(e, `listing Pods (${this.labelSelector})`);
    }
    await this.watch();
  }

  private async watch(): Promise<void> {
    if (this.closed) return;
    let gone = false;
    this.controller = await new Watch(this.kc).watch(
      `/api/v1/namespaces/${this.namespace}/pods`,
      { labelSelector: this.labelSelector, resourceVersion: this.resourceVersion, allowWatchBookmarks: true },
      (type: string, obj: V1Pod & { code?: number }) => {
        if (type === 'ERROR') {
          if (obj.code === 410) gone = true;
          return;
        }
        const rv = obj.metadata?.resourceVersion;
        if (rv) this.resourceVersion = rv;
        if (type === 'BOOKMARK') return;
        const name = obj.metadata?.name;
        if (!name) return;
        // A Pod already forgotten (removed by us) stays forgotten.
        if (type === 'DELETED' && !this.pods.has(name) && !this.listeners.has(name)) return;
        this.set(type === 'DELETED' ? null : obj, name);
      },
      (err: unknown) => {
        if (this.closed) return;
        const status = (err as { statusCode?: number } | null)?.statusCode;
        // Servers end watches after a while; a 410 means our resourceVersion is too old.
        this.reconnect(gone || status === 410, err ? 1000 : 0);
      },
    );
  }

  /** Opens the watch again (after a relist when needed); keeps trying while the run lasts. */
  private reconnect(relist: boolean, pauseMs: number): void {
    setTimeout(() => {
      if (this.closed) return;
      (relist ? this.relist() : this.watch()).catch(() => this.reconnect(true, 2000));
    }, pauseMs).unref();
  }
}
