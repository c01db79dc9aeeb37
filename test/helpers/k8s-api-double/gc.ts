// The garbage collector's part the runner relies on: when an object is deleted, the objects
// in its namespace whose ownerReferences name its uid are deleted too (Background and
// Foreground propagation; the double does not hold the owner back for Foreground), or lose
// that reference (Orphan).
import type { Kubelet } from './kubelet.js';
import type { Store } from './store.js';
import type { KObject, Resource } from './types.js';

export type Propagation = 'Background' | 'Foreground' | 'Orphan';

export function collectDependents(store: Store, kubelet: Kubelet, owner: KObject, policy: Propagation): void {
  const uid = owner.metadata.uid;
  const ns = owner.metadata.namespace;
  const owns = (o: KObject): boolean => (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid);
  for (const resource of ['deployments', 'services', 'networkpolicies', 'pods', 'secrets'] as Resource[]) {
    for (const dep of store.list(resource, ns, owns)) {
      const name = dep.metadata.name!;
      if (policy === 'Orphan') {
        store.update(resource, ns!, name, (o) => {
          o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
          if (!o.metadata.ownerReferences.length) delete o.metadata.ownerReferences;
        });
        continue;
      }
      if (resource === 'pods') kubelet.delete(ns!, name);
      else collectDependents(store, kubelet, store.remove(resource, ns!, name), 'Background');
    }
  }
}
