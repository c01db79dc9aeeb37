// What a Pod's status says about its unit, in the engine's terms: running or not, the exit
// code, and a typed infrastructure failure when the cluster (not the workload) is the cause.
import type { V1Pod } from '@kubernetes/client-node';
import type { UnitState } from '../types.js';

const PULL_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable']);
const CREATE_FAILURES = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);
const NODE_GONE = new Set(['NodeLost', 'NodeShutdown', 'Terminated', 'UnexpectedAdmissionError']);

/** Failure of a Pod that is still Pending once pending_timeout has passed. */
export function pendingFailure(pod: V1Pod, pendingTimeoutS: number): NonNullable<UnitState['failure']> {
  const sched = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (sched?.status === 'False')
    return { kind: 'pod_unschedulable', message: `Pod ${pod.metadata?.name} was not scheduled within ${pendingTimeoutS}s: ${sched.reason ?? 'Unschedulable'}${sched.message ? ` (${sched.message})` : ''}` };
  const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting;
  return {
    kind: 'pod_pending_timeout',
    message: `Pod ${pod.metadata?.name} still Pending after ${pendingTimeoutS}s${waiting?.reason ? ` (${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''})` : ''}`,
  };
}

/** The unit's state; `deleted` when the Pod is gone (null). */
export function unitStateOf(pod: V1Pod | null): UnitState {
  if (!pod) return { status: 'removed', running: false, exitCode: null };
  const name = pod.metadata?.name ?? '?';
  const phase = pod.status?.phase ?? 'Pending';
  const cs = pod.status?.containerStatuses?.[0];
  const terminated = cs?.state?.terminated ?? null;
  const waiting = cs?.state?.waiting ?? null;
  const exitCode = terminated ? terminated.exitCode : null;
  const base: UnitState = { status: phase.toLowerCase(), running: phase === 'Running' && !terminated, exitCode, oomKilled: terminated?.reason === 'OOMKilled' };
  const reason = pod.status?.reason ?? '';
  if (reason === 'Evicted') return { ...base, running: false, failure: { kind: 'pod_evicted', message: `Pod ${name} was evicted: ${pod.status?.message ?? 'node pressure'}` } };
  if (NODE_GONE.has(reason) || phase === 'Unknown')
    return { ...base, running: false, failure: { kind: 'node_lost', message: `Pod ${name} lost its node (${reason || 'phase Unknown'}${pod.status?.message ? `: ${pod.status.message}` : ''})` } };
  if (waiting?.reason && PULL_FAILURES.has(waiting.reason))
    return { ...base, failure: { kind: 'image_pull_failed', message: `Pod ${name}: ${waiting.reason} for image ${cs?.image ?? pod.spec?.containers[0]?.image}${waiting.message ? `: ${waiting.message}` : ''}` } };
  if (waiting?.reason && CREATE_FAILURES.has(waiting.reason))
    return { ...base, failure: { kind: 'container_start_failed', message: `Pod ${name}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}` } };
  if (terminated?.reason === 'OOMKilled')
    return { ...base, running: false, failure: { kind: 'oom_killed', message: `Pod ${name} was killed for exceeding its memory limit (OOMKilled, exit ${terminated.exitCode})` } };
  return base;
}

/** Pending: not yet running and not yet ended. */
export function isPending(pod: V1Pod): boolean {
  return (pod.status?.phase ?? 'Pending') === 'Pending';
}
