// The REST semantics of pods and secrets, independent of HTTP: defaulting and validation on
// create, list bodies, and deletion with grace periods and owner propagation.
import { randomInt } from 'node:crypto';
import { collectDependents, type Propagation } from './gc.js';
import { Kubelet } from './kubelet.js';
import { badRequest, success, type Status } from './status.js';
import type { Store } from './store.js';
import { API_VERSIONS, KINDS, type Deployment, type KObject, type Pod, type Resource, type Secret, type Service } from './types.js';
import { validate } from './validation.js';
import { admitPodSecurity, type PodSecurityLevel } from './pod-security.js';

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export interface DeleteOptions { gracePeriodSeconds?: number; propagationPolicy?: Propagation; dryRun?: boolean }

/** What the API server's defaulting adds to a Pod a client did not spell out. */
function defaultPod(p: Pod): void {
  const s = p.spec;
  s.restartPolicy ??= 'Always';
  s.terminationGracePeriodSeconds ??= 30;
  s.dnsPolicy ??= 'ClusterFirst';
  s.schedulerName ??= 'default-scheduler';
  s.serviceAccountName ??= 'default';
  s.securityContext ??= {};
  for (const c of s.containers) {
    const tag = c.image.includes('@') ? 'digest' : (/:([^/:]+)$/.exec(c.image)?.[1] ?? 'latest');
    c.imagePullPolicy ??= tag === 'latest' ? 'Always' : 'IfNotPresent';
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.resources ??= {};
  }
}

export class Resources {
  constructor(private readonly store: Store, private readonly kubelet: Kubelet, private readonly podSecurity: Record<string, PodSecurityLevel> = {}) {}

  create(resource: Resource, ns: string, body: unknown, dryRun = false): KObject {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of the request was in an unknown format');
    const o = body as KObject;
    const kind = KINDS[resource];
    if (o.kind !== undefined && o.kind !== kind) throw badRequest(`the API version in the data (${o.apiVersion}) does not match the expected API version (v1) or kind ${o.kind} is not ${kind}`);
    o.metadata ??= {};
    if (o.metadata.namespace !== undefined && o.metadata.namespace !== ns) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (!o.metadata.name && o.metadata.generateName) {
      o.metadata.name = o.metadata.generateName + Array.from({ length: 5 }, () => GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)]).join('');
    }
    validate(resource, o);
    if (resource === 'pods') admitPodSecurity(this.podSecurity[ns], o as Pod);
    delete o.metadata.resourceVersion;
    delete o.metadata.uid;
    if (resource === 'secrets') {
      const s = o as Secret;
      s.type ??= 'Opaque';
      if (s.stringData) {
        s.data = { ...(s.data ?? {}) };
        for (const [k, v] of Object.entries(s.stringData)) s.data[k] = Buffer.from(String(v)).toString('base64');
        delete s.stringData;
      }
    }
    if (resource === 'pods') {
      const p = o as Pod;
      delete p.spec.nodeName;
      defaultPod(p);
      p.status = Kubelet.initialStatus(p);
    }
    if (resource === 'services') this.defaultService(o as Service);
    if (resource === 'deployments') {
      const d = o as Deployment;
      d.spec.replicas ??= 1;
      d.spec.template.spec.restartPolicy ??= 'Always';
      d.metadata.generation = 1;
      d.status = {};
    }
    if (dryRun) return { ...o, apiVersion: API_VERSIONS[resource], kind, metadata: { ...o.metadata, namespace: ns } };
    return this.store.create(resource, ns, o);
  }

  /** A ClusterIP from the service range (10.96.0.0/12, as kubeadm's default), unique in the double. */
  private defaultService(s: Service): void {
    s.spec.type ??= 'ClusterIP';
    if (s.spec.type === 'ClusterIP' && s.spec.clusterIP !== 'None') {
      const used = new Set(this.store.list<Service>('services', undefined).map((x) => x.spec.clusterIP));
      let ip: string;
      do ip = `10.96.${randomInt(0, 16)}.${randomInt(1, 255)}`;
      while (used.has(ip));
      s.spec.clusterIP = ip;
      s.spec.clusterIPs = [ip];
    }
    for (const p of s.spec.ports ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
    s.status = { loadBalancer: {} };
  }

  get(resource: Resource, ns: string, name: string): KObject {
    return this.store.get(resource, ns, name);
  }

  list(resource: Resource, ns: string | undefined, match: (o: KObject) => boolean): Record<string, unknown> {
    const items = this.store.list(resource, ns, match).map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    return { kind: `${KINDS[resource]}List`, apiVersion: API_VERSIONS[resource], metadata: { resourceVersion: this.store.resourceVersion }, items };
  }

  delete(resource: Resource, ns: string, name: string, o: DeleteOptions): KObject | Status {
    if (o.dryRun) return this.store.get(resource, ns, name);
    const policy = o.propagationPolicy ?? 'Background';
    if (resource === 'pods') {
      const before = this.store.get(resource, ns, name);
      const out = this.kubelet.delete(ns, name, o.gracePeriodSeconds);
      collectDependents(this.store, this.kubelet, before, policy);
      return out;
    }
    const gone = this.store.remove(resource, ns, name);
    collectDependents(this.store, this.kubelet, gone, policy);
    return success(resource, name, gone.metadata.uid);
  }

  deleteCollection(resource: Resource, ns: string, match: (o: KObject) => boolean, o: DeleteOptions): Record<string, unknown> {
    const items = this.store.list(resource, ns, match).map((x) => this.delete(resource, ns, x.metadata.name!, o));
    return { kind: `${KINDS[resource]}List`, apiVersion: API_VERSIONS[resource], metadata: { resourceVersion: this.store.resourceVersion }, items };
  }
}
