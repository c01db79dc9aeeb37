// Turns an API Pod into the Pod YAML handed to `podman kube play` (podman 4.3), changing only
// what podman cannot take as is. Every adaptation is listed here:
//  1. metadata.name gets the double's instance prefix (podman pod names are machine-global;
//     two doubles or a leftover must not collide); spec.hostname keeps the Pod's own name,
//     which is what a kubelet would set.
//  2. Secret volumes: podman 4.3 reads a secret volume from a *podman secret* whose content is
//     a Kubernetes Secret document, but writes its `data` values to the files verbatim (no
//     base64 decoding) and ignores `stringData`; so the double materialises each referenced
//     Secret as a podman secret whose `data` holds the already decoded text. `items` become
//     renamed keys. `optional` is always written out: 4.3 dereferences it unconditionally and
//     panics when it is absent. Podman keeps a named volume per secret; the runtime removes it.
//     Podman also ignores defaultMode and items[].mode (files are 0644): the runtime plays the
//     Pod stopped, sets the modes in that volume, then starts it.
//  3. imagePullPolicy: the double resolves the image itself first (so a missing image gives
//     ErrImagePull/ImagePullBackOff instead of a blocking play), then tells podman not to pull.
//  4. containerPort entries without a hostPort are dropped: podman 4.3 publishes every
//     containerPort on the host at the same number, so two Pods declaring 8090 would collide
//     (and the second never starts). On a cluster ports are informational; the Pod's IP on
//     the double's network reaches any port, which is what the pod proxy uses.
//  5. Fields podman has no use for (ownerReferences, nodeSelector, tolerations,
//     serviceAccountName) are dropped from the played copy: they were acted on by the double.
//  6. restartPolicy becomes Never: the double's kubelet restarts an ended container itself
//     (restarts.ts), which it could not observe or count if podman restarted it first.
// Everything else goes as is: a container's securityContext among it, whose capabilities.add
// podman 4.3 honours (NET_ADMIN for the sealed network's filter works as on a cluster).
import type { Pod, Secret, VolumeSpec } from '../types.js';

export interface PlayedSecret { podmanName: string; document: string }

const decode = (b64: string): string => Buffer.from(b64, 'base64').toString('utf8');

/** The podman secret standing for one secret volume of one pod. */
export function playedSecret(podmanName: string, v: VolumeSpec, secret: Secret): PlayedSecret {
  const all: Record<string, string> = {};
  for (const [k, b64] of Object.entries(secret.data ?? {})) all[k] = decode(b64);
  let data = all;
  if (v.secret?.items?.length) {
    data = {};
    for (const it of v.secret.items) if (it.key in all) data[it.path] = all[it.key]!;
  }
  const doc = { apiVersion: 'v1', kind: 'Secret', metadata: { name: podmanName }, type: secret.type ?? 'Opaque', data };
  return { podmanName, document: JSON.stringify(doc) };
}

export function playedPod(pod: Pod, podmanName: string, secretNames: Map<string, string>): string {
  const spec = structuredClone(pod.spec);
  delete spec.nodeSelector;
  delete spec.tolerations;
  delete spec.serviceAccountName;
  delete spec.nodeName;
  spec.hostname = typeof spec.hostname === 'string' ? spec.hostname : pod.metadata.name;
  spec.restartPolicy = 'Never';
  for (const c of spec.containers) {
    c.imagePullPolicy = 'Never';
    const published = (c.ports ?? []).filter((p) => p.hostPort);
    if (published.length) c.ports = published;
    else delete c.ports;
  }
  spec.volumes = (spec.volumes ?? []).map((v) => {
    if (!v.secret) return v;
    return { name: v.name, secret: { secretName: secretNames.get(v.name)!, optional: false, ...(v.secret.defaultMode !== undefined ? { defaultMode: v.secret.defaultMode } : {}) } };
  });
  const doc = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: podmanName, labels: { ...(pod.metadata.labels ?? {}) }, annotations: { 'k8sd.uid': pod.metadata.uid ?? '' } },
    spec,
  };
  return JSON.stringify(doc);
}
