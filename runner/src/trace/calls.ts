// Parsed trace rows → canonical calls, with failed attempts that were retried marked.
import { canonicalizeRow, isRenderableRow, type CanonicalCall } from './canonical.js';

/** Calls from rows already parsed (trace lines grouped by a caller), as parseTraceJsonl reads them. */
export function traceFromRows(rows: readonly Record<string, unknown>[]): CanonicalCall[] {
  const calls: CanonicalCall[] = [];
  for (const row of rows) if (isRenderableRow(row)) calls.push(canonicalizeRow(row, calls.length));
  markRetries(calls);
  return calls;
}

/** Statuses a client retries (docs/trace-format.md, Retries), and calls that got no answer. */
const failedAttempt = (c: CanonicalCall): boolean => (c.status === 0 && c.error !== null) || [408, 409, 429].includes(c.status) || c.status >= 500;

/**
 * A failed attempt followed by its next attempt (a higher attempt counter, or the same
 * request) is a retry, not a new step. Only a failed call can be one: the gateway's record
 * states on one line how many attempts a request took, and that line's predecessor is another
 * request, answered.
 */
function markRetries(calls: CanonicalCall[]): void {
  for (let i = 0; i + 1 < calls.length; i++) {
    const a = calls[i]!;
    const b = calls[i + 1]!;
    if (failedAttempt(a) && (b.attempt > 1 || a.requestMessages.length === b.requestMessages.length)) a.retried = true;
  }
}
