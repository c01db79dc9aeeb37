// The double's etcd: objects by resource/namespace/name, one global resourceVersion counter,
// and a bounded event history that watches replay from. Like a real API server, a watch from
// a resourceVersion older than the history answers 410 Expired, and every stored change
// (create, status update, delete) is one event with a fresh resourceVersion.
import { randomUUID } from 'node:crypto';
import { alreadyExists, expired, notFound } from './status.js';
import { API_VERSIONS, KINDS, now, type KObject, type Resource } from './types.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export interface WatchEvent { type: EventType; object: KObject }
interface Recorded extends WatchEvent { rv: number; resource: Resource }

export interface WatchFilter {
  resource: Resource;
  namespace?: string;
  match: (o: KObject) => boolean;
}

interface Watcher extends WatchFilter { send: (e: WatchEvent) => void }

const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
const keyOf = (resource: Resource, ns: string, name: string): string => `${resource}/${ns}/${name}`;

export class Store {
  private rv = 0;
  private compactedRv = 0;
  private readonly objects = new Map<string, KObject>();
  private history: Recorded[] = [];
  private readonly watchers = new Set<Watcher>();
  /** Called after each change, e.g. by the garbage collector and the pod runtime. */
  readonly listeners: ((resource: Resource, e: WatchEvent) => void)[] = [];

  constructor(private readonly maxHistory = 5000) {}

  get resourceVersion(): string { return String(this.rv); }

  create<T extends KObject>(resource: Resource, ns: string, input: T): T {
    const name = input.metadata.name!;
    const key = keyOf(resource, ns, name);
    if (this.objects.has(key)) throw alreadyExists(resource, name);
    const obj = clone(input);
    obj.apiVersion = API_VERSIONS[resource];
    obj.kind = KINDS[resource];
    obj.metadata = {
      ...obj.metadata, namespace: ns, uid: randomUUID(), creationTimestamp: now(),
    };
    delete obj.metadata.deletionTimestamp;
    delete obj.metadata.generateName;
    if (input.metadata.generateName) obj.metadata.generateName = input.metadata.generateName;
    this.objects.set(key, obj);
    this.record(resource, 'ADDED', obj);
    return clone(obj);
  }

  get<T extends KObject>(resource: Resource, ns: string, name: string): T {
    const o = this.objects.get(keyOf(resource, ns, name));
    if (!o) throw notFound(resource, name);
    return clone(o) as T;
  }

  /** The live object (no copy) or undefined: for the runtime's own bookkeeping. */
  peek<T extends KObject>(resource: Resource, ns: string, name: string): T | undefined {
    return this.objects.get(keyOf(resource, ns, name)) as T | undefined;
  }

  list<T extends KObject>(resource: Resource, ns: string | undefined, match: (o: KObject) => boolean = () => true): T[] {
    const out: T[] = [];
    for (const [k, o] of this.objects) {
      if (!k.startsWith(`${resource}/`)) continue;
      if (ns !== undefined && o.metadata.namespace !== ns) continue;
      if (match(o)) out.push(clone(o) as T);
    }
    return out.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
  }

  /** Applies `change` to the stored object and records a MODIFIED event (if it changed anything). */
  update<T extends KObject>(resource: Resource, ns: string, name: string, change: (o: T) => void): T {
    const o = this.objects.get(keyOf(resource, ns, name)) as T | undefined;
    if (!o) throw notFound(resource, name);
    const before = JSON.stringify(o);
    change(o);
    if (JSON.stringify(o) !== before) this.record(resource, 'MODIFIED', o);
    return clone(o);
  }

  remove<T extends KObject>(resource: Resource, ns: string, name: string): T {
    const key = keyOf(resource, ns, name);
    const o = this.objects.get(key) as T | undefined;
    if (!o) throw notFound(resource, name);
    this.objects.delete(key);
    this.record(resource, 'DELETED', o);
    return clone(o);
  }

  /**
   * Streams events to `send`: with no (or "0") resourceVersion, first a synthetic ADDED per
   * existing object; otherwise every recorded change after it. Returns the unsubscribe.
   */
  watch(filter: WatchFilter, fromRv: string | undefined, send: (e: WatchEvent) => void): () => void {
    const inScope = (r: Resource, o: KObject): boolean =>
      r === filter.resource && (filter.namespace === undefined || o.metadata.namespace === filter.namespace) && filter.match(o);
    if (!fromRv || fromRv === '0') {
      for (const o of this.list(filter.resource, filter.namespace, filter.match)) send({ type: 'ADDED', object: o });
    } else {
      const from = Number(fromRv);
      if (!Number.isInteger(from) || from < this.compactedRv) throw expired(fromRv, this.compactedRv);
      for (const e of this.history) if (e.rv > from && inScope(e.resource, e.object)) send({ type: e.type, object: clone(e.object) });
    }
    const w: Watcher = { ...filter, send };
    this.watchers.add(w);
    return () => { this.watchers.delete(w); };
  }

  /** Forgets the event history: watches from any earlier resourceVersion get 410 (a test hook). */
  compact(): void {
    this.compactedRv = this.rv;
    this.history = [];
  }

  get watcherCount(): number { return this.watchers.size; }

  private record(resource: Resource, type: EventType, live: KObject): void {
    this.rv += 1;
    live.metadata.resourceVersion = String(this.rv);
    const object = clone(live);
    this.history.push({ rv: this.rv, resource, type, object });
    if (this.history.length > this.maxHistory) {
      const dropped = this.history.splice(0, this.history.length - this.maxHistory);
      this.compactedRv = dropped[dropped.length - 1]!.rv;
    }
    for (const w of this.watchers) {
      if (w.resource !== resource || (w.namespace !== undefined && object.metadata.namespace !== w.namespace)) continue;
      if (w.match(object)) w.send({ type, object: clone(object) });
    }
    for (const l of this.listeners) l(resource, { type, object });
  }
}
