// The double's scheduler + kubelet for its single node: binds each new Pod when it fits
// (or leaves it Pending/Unschedulable), waits for the Secrets its volumes need, hands it to
// the runtime, and turns runtime observations into Pod status the way a kubelet reports it.
// Deletion is graceful like on a cluster: deletionTimestamp first (MODIFIED), the container
// is stopped within the grace period, then the object disappears (DELETED). An ended container
// whose restartPolicy says so starts again in the same Pod (restarts.ts).
import { clusterDnsAliases } from './cluster-dns.js';
import { demand, unschedulableReason, type NodeModel } from './node.js';
import { backOffSeconds, crashLoopMessage, restartsAfter } from './restarts.js';
import type { Observation, PodRuntime } from './runtime/types.js';
import type { Store } from './store.js';
import { now, type ContainerState, type Pod, type PodCondition, type PodStatus, type Secret } from './types.js';

const DEFAULT_GRACE_SECONDS = 30;
const terminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

function condition(type: string, ok: boolean, reason?: string, message?: string): PodCondition {
  return { type, status: ok ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now(), ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** Sets a condition, keeping its transition time when its status did not change. */
function setCondition(s: PodStatus, c: PodCondition): void {
  const list = (s.conditions ??= []);
  const i = list.findIndex((x) => x.type === c.type);
  if (i < 0) { list.push(c); return; }
  const old = list[i]!;
  list[i] = old.status === c.status ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
}

function qosClass(p: Pod): string {
  const rs = p.spec.containers.map((c) => c.resources ?? {});
  if (rs.every((r) => !r.requests && !r.limits)) return 'BestEffort';
  const guaranteed = rs.every((r) => r.limits?.cpu && r.limits?.memory
    && (r.requests?.cpu ?? r.limits.cpu) === r.limits.cpu && (r.requests?.memory ?? r.limits.memory) === r.limits.memory);
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export class Kubelet {
  private readonly unscheduled = new Set<string>();
  /** Pods (uid) whose ended container waits for its restart: one end, one restart, however often it is reported. */
  private readonly restartDue = new Set<string>();
  private stopped = false;

  constructor(private readonly store: Store, readonly runtime: PodRuntime, readonly node: NodeModel) {
    store.listeners.push((resource, e) => {
      if (resource === 'pods' && e.type === 'ADDED') this.admit(e.object as Pod);
      if (resource === 'pods' && (e.type === 'DELETED' || terminal(e.object as Pod))) this.retryUnscheduled();
    });
  }

  /** The status a Pod is created with (the API server stores it before any scheduling). */
  static initialStatus(p: Pod): PodStatus {
    return { phase: 'Pending', qosClass: qosClass(p) };
  }

  private admit(p: Pod): void {
    this.trySchedule(p.metadata.namespace!, p.metadata.name!);
  }

  /** Requests of every pod bound to the node and not finished. */
  private inUse(): { cpu: number; memory: number; count: number } {
    let cpu = 0, memory = 0, count = 0;
    for (const p of this.store.list<Pod>('pods', undefined, (o) => !!(o as Pod).spec.nodeName && !terminal(o as Pod))) {
      const d = demand(p);
      cpu += d.cpu; memory += d.memory; count++;
    }
    return { cpu, memory, count };
  }

  private trySchedule(ns: string, name: string): void {
    const p = this.store.peek<Pod>('pods', ns, name);
    if (!p || p.spec.nodeName || p.metadata.deletionTimestamp) return;
    const use = this.inUse();
    const why = unschedulableReason(this.node, p, use, use.count);
    const key = `${ns}/${name}`;
    if (why) {
      this.unscheduled.add(key);
      this.store.update<Pod>('pods', ns, name, (o) => {
        setCondition(o.status!, condition('PodScheduled', false, 'Unschedulable', why));
      });
      return;
    }
    this.unscheduled.delete(key);
    const bound = this.store.update<Pod>('pods', ns, name, (o) => {
      o.spec.nodeName = this.node.name;
      const s = o.status!;
      s.hostIP = '127.0.0.1';
      s.startTime = now();
      setCondition(s, condition('PodScheduled', true));
      setCondition(s, condition('Initialized', true));
      setCondition(s, condition('Ready', false, 'ContainersNotReady', `containers with unready status: [${o.spec.containers[0]!.name}]`));
      setCondition(s, condition('ContainersReady', false, 'ContainersNotReady', `containers with unready status: [${o.spec.containers[0]!.name}]`));
      s.containerStatuses = o.spec.containers.map((c) => ({
        name: c.name, image: c.image, imageID: '', ready: false, started: false, restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } }, lastState: {},
      }));
    });
    void this.run(bound);
  }

  /** Re-tries pending pods in creation order (after a pod finished or the node changed). */
  retryUnscheduled(): void {
    for (const key of [...this.unscheduled]) {
      const [ns, name] = key.split('/') as [string, string];
      if (!this.store.peek('pods', ns, name)) { this.unscheduled.delete(key); continue; }
      this.trySchedule(ns, name);
    }
  }

  private async run(p: Pod): Promise<void> {
    const ns = p.metadata.namespace!;
    const secrets = new Map<string, Secret>();
    for (;;) {
      const missing: string[] = [];
      for (const v of p.spec.volumes ?? []) {
        if (!v.secret) continue;
        const s = this.store.peek<Secret>('secrets', ns, v.secret.secretName);
        if (s) secrets.set(v.secret.secretName, s);
        else if (!v.secret.optional) missing.push(v.secret.secretName);
        else secrets.set(v.secret.secretName, { metadata: { name: v.secret.secretName }, data: {} });
      }
      if (!missing.length) break;
      // A kubelet keeps the container in ContainerCreating and retries the mount.
      this.observe(p, { state: { waiting: { reason: 'ContainerCreating', message: `MountVolume.SetUp failed: secret "${missing[0]}" not found` } } });
      await new Promise((r) => setTimeout(r, 1000).unref());
      if (this.stopped || !this.alive(p)) return;
    }
    if (this.stopped) return;
    try {
      // The played copy resolves the cluster's Service names (cluster-dns.ts).
      const dns = clusterDnsAliases(this.store, ns);
      const played = dns.length ? { ...p, spec: { ...p.spec, hostAliases: [...((p.spec.hostAliases as unknown[]) ?? []), ...dns] } } : p;
      await this.runtime.start(played, secrets, (o) => this.observe(p, o));
    } catch (err) {
      this.observe(p, { state: { terminated: { exitCode: 128, reason: 'StartError', message: String((err as Error).message), finishedAt: now() } } });
    }
  }

  private alive(p: Pod): boolean {
    const cur = this.store.peek<Pod>('pods', p.metadata.namespace!, p.metadata.name!);
    return !!cur && cur.metadata.uid === p.metadata.uid;
  }

  /** Folds one runtime observation into the Pod's status; an end the Pod restarts after is scheduled. */
  observe(p: Pod, o: Observation): void {
    if (!this.alive(p)) return;
    if (o.state.terminated && this.restartDue.has(p.metadata.uid!)) return; // that end is known and handled
    let restartIn: number | null = null;
    this.store.update<Pod>('pods', p.metadata.namespace!, p.metadata.name!, (cur) => {
      const s = cur.status!;
      if (s.reason === 'Evicted' || s.reason === 'NodeLost') return;
      if (terminal(cur)) return;
      const cs = s.containerStatuses![0]!;
      if (o.imageID) cs.imageID = o.imageID;
      if (o.containerID) cs.containerID = o.containerID;
      if (o.podIP) { s.podIP = o.podIP; s.podIPs = [{ ip: o.podIP }]; }
      cs.state = o.state;
      const ended = o.state.terminated;
      const restarts = !!ended && !this.stopped && !cur.metadata.deletionTimestamp && restartsAfter(cur.spec.restartPolicy, ended.exitCode);
      if (restarts) {
        restartIn = backOffSeconds(cs.restartCount);
        // In back-off the kubelet shows the wait, with the run that ended as lastState.
        if (restartIn) {
          cs.lastState = { terminated: ended };
          cs.state = { waiting: { reason: 'CrashLoopBackOff', message: crashLoopMessage(restartIn, cs.name, { name: cur.metadata.name!, namespace: cur.metadata.namespace!, uid: cur.metadata.uid! }) } };
        }
      }
      const ready = !!o.state.running;
      cs.ready = ready;
      cs.started = ready;
      const name = cs.name;
      const notReady = (reason: string): [boolean, string, string] => [false, reason, `containers with unready status: [${name}]`];
      const [ok, reason, message] = ready ? [true, '', ''] : notReady(ended && !restarts ? 'PodCompleted' : 'ContainersNotReady');
      setCondition(s, condition('Ready', ok, reason || undefined, message || undefined));
      setCondition(s, condition('ContainersReady', ok, reason || undefined, message || undefined));
      // A container that will start again keeps its Pod Running, as a kubelet's phase rule has it.
      if (o.state.running || restarts) s.phase = 'Running';
      else if (ended) s.phase = ended.exitCode === 0 ? 'Succeeded' : 'Failed';
      else s.phase = 'Pending';
    });
    if (restartIn !== null) this.restartLater(p, o.state.terminated!, restartIn);
  }

  /**
   * Starts the ended container again in the same Pod after the back-off: restartCount counts
   * the new start and lastState keeps the run that ended (a start that fails ends again, so a
   * container that cannot start backs off like any other).
   */
  private restartLater(p: Pod, last: NonNullable<ContainerState['terminated']>, seconds: number): void {
    this.restartDue.add(p.metadata.uid!);
    setTimeout(() => {
      this.restartDue.delete(p.metadata.uid!);
      const cur = this.store.peek<Pod>('pods', p.metadata.namespace!, p.metadata.name!);
      if (this.stopped || !cur || cur.metadata.uid !== p.metadata.uid || cur.metadata.deletionTimestamp) return;
      this.store.update<Pod>('pods', p.metadata.namespace!, p.metadata.name!, (o) => {
        const cs = o.status!.containerStatuses![0]!;
        cs.restartCount += 1;
        cs.lastState = { terminated: last };
        cs.state = { waiting: { reason: 'ContainerCreating' } };
      });
      this.runtime.restart(p).catch((err: unknown) => {
        this.observe(p, { state: { terminated: { exitCode: 128, reason: 'StartError', message: String((err as Error).message), finishedAt: now() } } });
      });
    }, seconds * 1000).unref();
  }

  /** API delete: graceful unless grace is 0 or the pod never reached the node. Returns the object as the API returns it. */
  delete(ns: string, name: string, graceSeconds?: number): Pod {
    const p = this.store.get<Pod>('pods', ns, name);
    if (p.metadata.deletionTimestamp) return p;
    const grace = graceSeconds ?? (typeof p.spec.terminationGracePeriodSeconds === 'number' ? p.spec.terminationGracePeriodSeconds : DEFAULT_GRACE_SECONDS);
    if (grace <= 0 || !p.spec.nodeName) {
      const gone = this.store.remove<Pod>('pods', ns, name);
      void this.runtime.remove(p, 0);
      return gone;
    }
    const marked = this.store.update<Pod>('pods', ns, name, (o) => {
      o.metadata.deletionTimestamp = new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      o.metadata.deletionGracePeriodSeconds = grace;
    });
    void (async () => {
      await this.runtime.remove(p, terminal(p) ? 0 : grace).catch(() => {});
      const cur = this.store.peek<Pod>('pods', ns, name);
      if (cur && cur.metadata.uid === p.metadata.uid) this.store.remove('pods', ns, name);
    })();
    return marked;
  }

  /** The double is shutting down: nothing new is started. */
  stop(): void {
    this.stopped = true;
  }

  // ---- test hooks -------------------------------------------------------------------------

  async kill(ns: string, name: string): Promise<void> {
    await this.runtime.kill(this.store.get<Pod>('pods', ns, name));
  }

  /** Ends the pod like a kubelet eviction or a lost node: the status says why, the container is gone. */
  async fail(ns: string, name: string, reason: 'Evicted' | 'NodeLost'): Promise<void> {
    const p = this.store.get<Pod>('pods', ns, name);
    const message = reason === 'Evicted'
      ? 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi.'
      : `Node ${this.node.name} which was running pod ${name} is unresponsive`;
    this.store.update<Pod>('pods', ns, name, (o) => {
      const s = o.status!;
      s.phase = reason === 'Evicted' ? 'Failed' : 'Unknown';
      s.reason = reason;
      s.message = message;
      setCondition(s, condition('Ready', false, reason === 'Evicted' ? 'PodFailed' : 'NodeLost', message));
      if (reason === 'Evicted' && s.containerStatuses?.[0]) {
        s.containerStatuses[0].state = { terminated: { exitCode: 137, reason: 'Error', finishedAt: now() } };
        s.containerStatuses[0].ready = false;
      }
    });
    await this.runtime.kill(p);
    this.retryUnscheduled();
  }

  setNode(change: Partial<Omit<NodeModel, 'name'>>): void {
    if (change.labels) this.node.labels = change.labels;
    if (change.taints) this.node.taints = change.taints;
    if (change.allocatable) this.node.allocatable = { ...this.node.allocatable, ...change.allocatable };
    this.retryUnscheduled();
  }
}
