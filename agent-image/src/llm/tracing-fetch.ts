// The fetch every provider SDK is given. It records each HTTP attempt in the trace (raw
// request and response bodies, never headers), retries rate limits and server errors
// honouring retry-after, and leaves everything else to the SDK. SDK-level retries are off,
// so each attempt is visible here exactly once.
import { ProviderError } from './errors.js';
import type { Redactor } from './redact.js';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from './retry.js';
import type { TraceWriter } from './trace.js';

export interface TracingFetchOptions {
  provider: string;
  trace: TraceWriter;
  retry: RetryPolicy;
  redact: Redactor;
  /** The underlying fetch (tests may pass their own). */
  fetch?: typeof globalThis.fetch;
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function bodyText(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return '[non-text request body]';
}

export function createTracingFetch(opts: TracingFetchOptions): typeof globalThis.fetch {
  const base = opts.fetch ?? globalThis.fetch;
  const { trace, retry, redact } = opts;

  return async (input, init) => {
    const url = urlOf(input);
    const requestBody = bodyText(init);
    const outer = init?.signal ?? undefined;

    for (let attempt = 1; ; attempt++) {
      const startedAt = Date.now();
      const timeout = AbortSignal.timeout(retry.timeoutMs);
      const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
      const record = (status: number, responseText: string) =>
        trace.write({ url, startedAt, status, requestBody, responseText, attempt });
      const retriesLeft = attempt <= retry.maxRetries;

      let res: Response;
      try {
        res = await base(input, { ...init, signal });
      } catch (err) {
        if (outer?.aborted) throw err;
        const timedOut = timeout.aborted;
        const message = redact(err instanceof Error ? `${err.message}${err.cause ? ` (${String((err.cause as Error).message ?? err.cause)})` : ''}` : String(err));
        record(0, JSON.stringify({ error: message, type: timedOut ? 'timeout' : 'fetch_error' }));
        if (retriesLeft) {
          await sleep(backoffMs(retry, attempt - 1), outer);
          continue;
        }
        throw new ProviderError(
          `${opts.provider}: ${timedOut ? 'request timed out' : 'cannot reach the API'} after ${attempt} attempt(s): ${message}`,
          'network',
          0,
          opts.provider,
        );
      }

      // The runner's model gateway already retried this one within its budget (docs/gateway.md).
      const final = res.headers.has('x-gaia2-gateway-final');
      if (isRetryableStatus(res.status) && retriesLeft && !final) {
        const wait = retryAfterMs(res.headers);
        if (wait === undefined || wait <= retry.maxRetryAfterMs) {
          record(res.status, await res.text().catch(() => ''));
          await sleep(wait ?? backoffMs(retry, attempt - 1), outer);
          continue;
        }
      }

      if (!res.body) {
        record(res.status, '');
        return res;
      }
      // The SDK reads one branch; the other is read to the end for the trace.
      const [forSdk, forTrace] = res.body.tee();
      trace.track(
        new Response(forTrace)
          .text()
          .catch((err: unknown) => `[response body unreadable: ${err instanceof Error ? err.message : String(err)}]`)
          .then((text) => record(res.status, text)),
      );
      return new Response(forSdk, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
  };
}
