// One client request sent to its provider: admitted by the provider's limiter, retried on
// 429/529/5xx and on connections that fail before any byte of an answer (jittered backoff,
// `retry-after` honoured, within the attempt and time budget), then streamed to the client
// byte for byte while a copy is kept for the record. Response headers are held back until the
// first body byte arrives, so a connection dropped between the headers and the body is retried
// too. A connection that breaks after bytes went to the client is asked again too: the new
// answer is spliced on where the client's copy stopped if it repeats those bytes exactly
// (client-stream.ts); otherwise the client's connection is cut, as the provider's was.
import type { ServerResponse } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from '@gaia2/contract/lib/llm/retry';
import { ClientStream } from './client-stream.js';
import type { Limiter, Slot } from './limiter.js';
import type { AttemptNote } from './record.js';

/** Set on an answer the gateway gives after its retry budget: clients must not retry it. */
export const GAVE_UP_HEADER = 'x-gaia2-gateway-final';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer']);

export interface ForwardBudget {
  attempts: number;
  seconds: number;
  /** Backoff shape when the provider gives no retry-after. */
  backoff: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
}

export interface ForwardInput {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  limiter: Limiter;
  budget: ForwardBudget;
  dispatcher: Dispatcher;
  res: ServerResponse;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The error body in the provider's format, for an answer the gateway makes itself. */
  errorBody(status: number, message: string): string;
  provider: string;
  /** The request's estimated tokens (for tokens per minute). */
  tokens: number;
}

export interface ForwardOutcome {
  status: number;
  responseText: string;
  attempts: AttemptNote[];
  queuedMs: number;
  /** Set when the gateway answered itself (gave up) or the stream broke after bytes went out. */
  error?: string;
  gaveUp?: { status: number; message: string };
  /** Settles the last attempt's tokens (its usage) in the limiter's tokens-per-minute window. */
  settle(tokens: number): void;
}

const RETRY_STATUS_NOTE = (s: number) => (s === 429 || s === 529 ? 'rate_limit' : s >= 500 ? 'server' : 'retryable');

function plainHeaders(h: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
  return out;
}

function errText(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return [err.code ?? err.cause?.code, err.message].filter(Boolean).join(': ') || String(e);
}

export async function forward(i: ForwardInput): Promise<ForwardOutcome> {
  const attempts: AttemptNote[] = [];
  const began = Date.now();
  const client = new ClientStream(i.res);
  const backoff = (attempt: number) => backoffMs({ ...i.budget.backoff, maxRetries: 0, maxRetryAfterMs: 0, timeoutMs: 0 }, attempt - 1);
  let queuedMs = 0;
  let last: { status: number; detail: string } = { status: 0, detail: '' };
  let slot: Slot | null = null;
  const settle = (n: number) => slot?.settle(n);
  /** The client's answer cannot be completed: its connection is cut, as the provider's was. */
  const cut = (why: string): ForwardOutcome => {
    i.limiter.stats.broken++;
    i.res.destroy();
    return { status: client.status, responseText: client.text(), attempts, queuedMs, error: why, settle };
  };

  for (let attempt = 1; ; attempt++) {
    const q0 = Date.now();
    slot = await i.limiter.acquire({ retry: attempt > 1, signal: i.signal, tokens: i.tokens });
    queuedMs += Date.now() - q0;
    const t0 = Date.now();
    let retryWait: number | null = null;
    try {
      const up = await request(i.url, { method: i.method as Dispatcher.HttpMethod, headers: i.headers, body: i.body ?? undefined, dispatcher: i.dispatcher, signal: i.signal });
      const status = up.statusCode;
      if (isRetryableStatus(status)) {
        const text = await up.body.text().catch((e: unknown) => `[unreadable: ${errText(e)}]`);
        attempts.push({ status, ms: Date.now() - t0 });
        last = { status, detail: text.slice(0, 500) };
        slot.settle(0); // refused: the provider did no work
        const hinted = retryAfterMs(plainHeaders(up.headers));
        retryWait = hinted ?? backoff(attempt);
        if (status === 429 || status === 529) i.limiter.throttledBy(retryWait);
      } else if (client.headersSent && status !== client.status) {
        up.body.destroy();
        attempts.push({ status, ms: Date.now() - t0, error: `asked again after a drop mid-answer, the provider answered ${status}, not ${client.status}` });
        return cut(`the provider's connection broke mid-answer after ${client.bytes} bytes, and its answer to the same request again had status ${status}: the client's connection was cut`);
      } else {
        const it = up.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        if (!client.headersSent) {
          // Hold the headers until the first body byte: a drop before it is retried like a reset.
          let first: IteratorResult<Buffer>;
          try {
            first = await it.next();
          } catch (e) {
            if (i.signal.aborted) throw e;
            attempts.push({ status: 0, ms: Date.now() - t0, error: `dropped before the answer's first byte: ${errText(e)}` });
            last = { status: 0, detail: errText(e) };
            retryWait = backoff(attempt);
            throw new RetryLater();
          }
          const headers: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
          client.start(status, headers);
          if (first.done) {
            attempts.push({ status, ms: Date.now() - t0 });
            i.res.end();
            return { status, responseText: '', attempts, queuedMs, settle };
          }
          await client.take(first.value);
        } else client.repeat();
        let broke: string | undefined;
        let differs = false;
        try {
          for (let n = await it.next(); !n.done; n = await it.next()) {
            if (!(await client.take(n.value))) {
              differs = true;
              break;
            }
          }
        } catch (e) {
          if (i.signal.aborted) throw e;
          broke = errText(e);
        }
        if (differs || (!broke && !client.caughtUp)) {
          up.body.destroy();
          const where = differs ? `differs from what the client has at byte ${client.position}` : `ended after ${client.position} of the ${client.bytes} bytes the client has`;
          attempts.push({ status, ms: Date.now() - t0, error: `asked again after a drop mid-answer, the provider's answer ${where}` });
          return cut(`the provider's connection broke mid-answer after ${client.bytes} bytes, and its answer to the same request again ${where}: the client's connection was cut`);
        }
        if (!broke) {
          const resumed = client.resumedAfter;
          attempts.push({ status, ms: Date.now() - t0, ...(resumed !== null ? { resumed_after: resumed } : {}) });
          i.res.end();
          if (resumed !== null) i.limiter.stats.resumed++;
          if (status < 400) i.limiter.succeeded();
          return { status, responseText: client.text(), attempts, queuedMs, settle };
        }
        attempts.push({ status, ms: Date.now() - t0, error: `the provider's connection broke mid-answer after ${client.bytes} bytes: ${broke}` });
        last = { status: 0, detail: broke };
        retryWait = backoff(attempt);
      }
    } catch (e) {
      if (i.signal.aborted) throw e;
      slot.settle(0); // no answer (a reset, a drop before the first byte): the provider did no work to count
      if (!(e instanceof RetryLater)) {
        attempts.push({ status: 0, ms: Date.now() - t0, error: errText(e) });
        last = { status: 0, detail: errText(e) };
        retryWait = backoff(attempt);
      }
    } finally {
      slot.release();
    }
    // A retryable failure: again, unless the budget is spent.
    const elapsed = Date.now() - began - queuedMs;
    const wait = retryWait ?? 0;
    if (attempt >= i.budget.attempts || elapsed + wait > i.budget.seconds * 1000) {
      if (client.headersSent) return cut(`the provider's connection broke mid-answer after ${client.bytes} bytes and the retry budget is spent (${attempt} attempt(s)): the client's connection was cut`);
      i.limiter.stats.gave_up++;
      const what = last.status ? `HTTP ${last.status} (${RETRY_STATUS_NOTE(last.status)})` : `no answer (${last.detail})`;
      const message = `model gateway: provider ${i.provider} answered ${what} on all ${attempt} attempt(s) over ${Math.round((Date.now() - began) / 1000)} s; gave up${last.status && last.detail ? `. Last answer: ${last.detail.slice(0, 300)}` : ''}`;
      const status = last.status || 502;
      const body = i.errorBody(status, message);
      i.res.writeHead(status, { 'content-type': 'application/json', [GAVE_UP_HEADER]: 'gave-up' });
      i.res.end(body);
      return { status, responseText: body, attempts, queuedMs, error: message, gaveUp: { status: last.status, message }, settle };
    }
    i.limiter.stats.retried++;
    await sleep(wait, i.signal);
  }
}

class RetryLater extends Error {}
