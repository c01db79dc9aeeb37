// When to try an LLM call again, and how long to wait first.

export interface RetryPolicy {
  /** Extra attempts after the first. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A retry-after longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs: number;
  /** Per attempt, headers and body together. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  timeoutMs: 600_000,
};

const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

export const isRetryableStatus = (status: number): boolean => RETRYABLE.has(status);

/** Milliseconds the server asked us to wait (retry-after-ms, or retry-after in seconds or as a date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter, for attempts without a server hint. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(exp * (0.75 + Math.random() * 0.5));
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
