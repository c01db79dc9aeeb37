// restartPolicy as a kubelet applies it to an ended container: whether it starts again in the
// same Pod (phase stays Running, restartCount counts up, lastState keeps the ended run), and
// the crash-loop back-off before it does.

const MAX_BACKOFF_S = 300;
const FIRST_BACKOFF_S = 10;

/** Always restarts any end, OnFailure only a non-zero exit, Never none (the API defaults to Always). */
export function restartsAfter(policy: string | undefined, exitCode: number): boolean {
  const p = policy ?? 'Always';
  return p === 'Always' || (p === 'OnFailure' && exitCode !== 0);
}

/**
 * Seconds before the next start, given the restarts so far: the kubelet starts an ended
 * container at once the first time, then backs off 10 s, doubling up to 5 min. (A kubelet
 * forgets the back-off after 10 minutes of running; the double's Pods never run that long.)
 */
export function backOffSeconds(restartsSoFar: number): number {
  return restartsSoFar === 0 ? 0 : Math.min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2 ** (restartsSoFar - 1));
}

/** The waiting message of a container in back-off, worded as the kubelet words it. */
export function crashLoopMessage(seconds: number, container: string, pod: { name: string; namespace: string; uid: string }): string {
  const wait = seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
  return `back-off ${wait} restarting failed container=${container} pod=${pod.name}_${pod.namespace}(${pod.uid})`;
}
