// A sealed run on Kubernetes (docs/kubernetes.md, "Sealed network"): before the first Pod, the
// API server is asked (server-side dry run, nothing is created) whether it admits a Pod that
// adds NET_ADMIN, which the in-Pod filter needs. Pod Security admission at "baseline" or
// "restricted" (and policy engines such as Gatekeeper or Kyverno) refuse it; the run then stops
// with an error saying what to change, or, with `[kubernetes] unsealed_fallback = true`, runs
// unsealed: its Pods lose NET_ADMIN and GAIA2_SEAL_ALLOW, and each result says
// `network_sealed: false`. The run's NetworkPolicy is written in either case.
import type { V1Pod } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { ENV } from '@gaia2/contract/paths';
import { EngineError } from '../errors.js';
import type { ContainerSpec } from '../types.js';
import { apiMessage, apiStatus, kubeError, type KubeAccess } from './client.js';
import { CONTAINER_NAME, podPlacement } from './manifests.js';
import type { KubernetesSettings } from './settings.js';

export const SEAL_CAPABILITY = 'NET_ADMIN';

/** True when the API server refused a Pod because of the capability it adds (admission, a policy engine). */
export function refusedCapability(e: unknown): boolean {
  const status = apiStatus(e);
  return (status === 400 || status === 403 || status === 422) && /NET_ADMIN|capabilit/i.test(apiMessage(e));
}

/** The error a sealed run stops with when the cluster refuses NET_ADMIN, naming the ways out. */
export function refusalError(namespace: string, message: string): EngineError {
  return new EngineError(
    'container_start_failed',
    `the cluster refused a Pod with the ${SEAL_CAPABILITY} capability, which the sealed network's filter needs (${message}). ` +
      `Allow it in namespace ${namespace} (Pod Security "privileged", or your policy engine's exception), ` +
      `or run unsealed: [run] network = "open" (--network open), or [kubernetes] unsealed_fallback = true to fall back to unsealed runs (network_sealed: false) whenever the cluster refuses it`,
  );
}

/** Asks the API server whether it admits a Pod adding NET_ADMIN; the refusal's message, or null when admitted. */
export async function checkSealAdmitted(access: KubeAccess, settings: KubernetesSettings, image: string): Promise<string | null> {
  const { core, namespace } = access;
  const body: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `gaia2-seal-check-${randomBytes(3).toString('hex')}`, namespace },
    spec: {
      restartPolicy: 'Never',
      ...podPlacement(settings),
      containers: [{ name: CONTAINER_NAME, image, imagePullPolicy: settings.imagePullPolicy, command: ['true'], securityContext: { capabilities: { add: [SEAL_CAPABILITY] } } }],
    },
  };
  try {
    await core.createNamespacedPod({ namespace, body, dryRun: 'All' });
    return null;
  } catch (e) {
    if (refusedCapability(e)) return apiMessage(e);
    throw kubeError(e, 'checking that the cluster admits the sealed network (a dry-run Pod)', 'container_start_failed');
  }
}

/** The same unit, unsealed: no NET_ADMIN, no GAIA2_SEAL_ALLOW (the entrypoint would refuse to start without the capability). */
export function unsealedSpec(spec: ContainerSpec): ContainerSpec {
  const { [ENV.sealAllow]: _allow, ...env } = spec.env;
  const { capAdd: _cap, ...rest } = spec;
  return { ...rest, env };
}
