// The double's Pod Security admission, for the one check a client of ours can trip: a namespace
// enforcing "baseline" (or "restricted") refuses a Pod whose containers add a capability outside
// baseline's default set, with the 403 Forbidden and the message the real admission plugin gives
// (dry-run creates included, as admission runs for them too). Levels are set per namespace when
// the double starts (DoubleOptions.podSecurity), standing for the namespace's
// `pod-security.kubernetes.io/enforce` label; the other checks of those levels are not modelled.
import { ApiError } from './status.js';
import type { Pod } from './types.js';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** Capabilities baseline lets a container add (the runtime's default set). */
const BASELINE_CAPS = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

/** Throws 403 when the namespace's level refuses the Pod's added capabilities. */
export function admitPodSecurity(level: PodSecurityLevel | undefined, p: Pod): void {
  if (!level || level === 'privileged') return;
  const bad: string[] = [];
  for (const c of p.spec.containers) {
    const caps = ((c.securityContext as { capabilities?: { add?: string[] } } | undefined)?.capabilities?.add ?? []).filter((x) => !BASELINE_CAPS.has(x));
    if (caps.length) bad.push(`container "${c.name}" must not include ${caps.map((x) => `"${x}"`).join(', ')} in securityContext.capabilities.add`);
  }
  if (!bad.length) return;
  throw new ApiError(403, 'Forbidden', `pods "${p.metadata.name ?? ''}" is forbidden: violates PodSecurity "${level}:latest": non-default capabilities (${bad.join('; ')})`, { name: p.metadata.name ?? '', kind: 'pods' });
}
