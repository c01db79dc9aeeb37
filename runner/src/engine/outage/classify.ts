// Which failures are the engine being away (its API service stopped or restarting) rather than
// something wrong with a run. Only these are waited out and the run restarted (docs/reliability.md):
// a missing image or an agent that fails would fail the same way again, so they are never retried.
import type { ScenarioResult } from '@gaia2/contract/result';

/**
 * Socket-level errors of a client whose server went away: nothing listens (ECONNREFUSED), the
 * unix socket file is gone while the service restarts (ENOENT), or the connection was cut
 * mid-request (ECONNRESET, EPIPE, Node's "socket hang up").
 */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE']);
const OUTAGE_TEXT = /socket hang up|ECONNREFUSED|ECONNRESET|EPIPE|ENOENT\b|container engine unreachable|API server is not reachable|is not reachable \(/i;

/** engine_unavailable that is a permission, not an absence (wrapEngineError's EACCES, kubeError's 401/403). */
const DENIED_TEXT = /\(EACCES\b|\(HTTP 40[13]\b/;

/** Whether an engine client error is the engine (or the cluster's API server) being unreachable. */
export function isOutageError(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err.code === 'string' && OUTAGE_CODES.has(err.code)) return true;
  return typeof err.message === 'string' && /socket hang up/i.test(err.message);
}

/**
 * Kinds an engine call ends a run with: their message is the engine client's, so a socket error
 * in it is the engine's. (A health timeout's or an exited container's message quotes the adapter
 * or the container's log, where "ECONNREFUSED" is the agent still booting: not evidence.)
 */
const ENGINE_CALL_KINDS = new Set(['engine_unavailable', 'container_start_failed']);
/** Kinds a unit lost under the run ends with: an outage's victims when the engine was seen down meanwhile. */
const LOST_UNIT_KINDS = new Set([...ENGINE_CALL_KINDS, 'container_exited', 'health_timeout', 'artifact_error']);

/**
 * Whether a run's result is an outage's victim. `engine_unavailable` is by definition (unless it says access was denied); an engine
 * call's failure counts when its message carries a socket error; a lost unit counts when the
 * engine was seen down while the run was in flight (`downDuringRun`: a dockerd restart kills the
 * containers it runs, and the run ends `container_exited` once the engine is back).
 */
export function isOutageResult(r: Pick<ScenarioResult, 'status' | 'error_kind' | 'error'>, downDuringRun = false): boolean {
  if (r.status !== 'error' || !r.error_kind) return false;
  // Refused, not away: a socket this user may not open, a cluster that denies the Role. The
  // engine answers, and would answer the same way again.
  if (DENIED_TEXT.test(r.error ?? '')) return false;
  if (r.error_kind === 'engine_unavailable') return true;
  if (downDuringRun && LOST_UNIT_KINDS.has(r.error_kind)) return true;
  return ENGINE_CALL_KINDS.has(r.error_kind) && OUTAGE_TEXT.test(r.error ?? '');
}

/**
 * A failure that may be an engine restart the runner did not see (a dockerd restart answers its
 * API while it shuts down, stopping every container first): `stopped`, a unit that exited cleanly
 * (code 0, or 143 from SIGTERM) while its run was still going, which only a stop from outside
 * does (the world runs until the runner removes it, and the agent cannot signal it); `start`, a
 * start the engine refused for a reason of its own (not a socket error, not a port: those have
 * their own rules). The caller watches the engine briefly before deciding (OutageGate.watch).
 */
export function suspectOutage(r: Pick<ScenarioResult, 'status' | 'error_kind' | 'error'>): 'stopped' | 'start' | null {
  if (r.status !== 'error') return null;
  if (r.error_kind === 'container_exited' && /^container exited \(code (0|143)\)/.test(r.error ?? '')) return 'stopped';
  if (r.error_kind === 'container_start_failed' && !/address already in use|port is already allocated/i.test(r.error ?? '')) return 'start';
  return null;
}
