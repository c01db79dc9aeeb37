// One client request sent to its provider: admitted by the provider's limiter, retried on
// 429/529/5xx and on connections that fail before any byte of an answer (jittered backoff,
// `retry-after` honoured, within the attempt and time budget), then streamed to the client
// byte for byte while a copy is kept for the record. Response headers are held back until the
// first body byte arrives, so a connection dropped between the headers and the body is retried
// too; once a byte went to the client a failure can only be passed on (the connection is cut).
import type { ServerResponse } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from '../../../agent-image/src/llm/retry.js';
import type { Limiter } from './limiter.js';
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
}

export interface ForwardOutcome {
  status: number;
  responseText: string;
  attempts: AttemptNote[];
  queuedMs: number;
  /** Set when the gateway answered itself (gave up) or the stream broke after bytes went out. */
  error?: string;
  gaveUp?: { status: number; message: string };
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
  let queuedMs = 0;
  let waitedMs = 0;
  let last: { status: number; detail: string } = { status: 0, detail: '' };

  for (let attempt = 1; ; attempt++) {
    const q0 = Date.now();
    const release = await i.limiter.acquire({ retry: attempt > 1, signal: i.signal });
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
        const hinted = retryAfterMs(plainHeaders(up.headers));
        retryWait = hinted ?? backoffMs({ ...i.budget.backoff, maxRetries: 0, maxRetryAfterMs: 0, timeoutMs: 0 }, attempt - 1);
        if (status === 429 || status === 529) i.limiter.throttledBy(retryWait);
      } else {
        // Hold the headers until the first body byte: a drop before it is retried like a reset.
        const chunks: Buffer[] = [];
        const it = up.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        let first: IteratorResult<Buffer>;
        try {
          first = await it.next();
        } catch (e) {
          if (i.signal.aborted) throw e;
          attempts.push({ status: 0, ms: Date.now() - t0, error: `dropped before the answer's first byte: ${errText(e)}` });
          last = { status: 0, detail: errText(e) };
          retryWait = backoffMs({ ...i.budget.backoff, maxRetries: 0, maxRetryAfterMs: 0, timeoutMs: 0 }, attempt - 1);
          throw new RetryLater();
        }
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
        i.res.writeHead(status, headers);
        let broke: string | undefined;
        if (!first.done) {
          chunks.push(first.value);
          if (!i.res.write(first.value)) await drained(i.res);
          try {
            for (let n = await it.next(); !n.done; n = await it.next()) {
              chunks.push(n.value);
              if (!i.res.write(n.value)) await drained(i.res);
            }
          } catch (e) {
            broke = `the provider's connection broke mid-answer: ${errText(e)}`;
          }
        }
        attempts.push({ status, ms: Date.now() - t0, ...(broke ? { error: broke } : {}) });
        if (broke) i.res.destroy();
        else i.res.end();
        if (status < 400 && !broke) i.limiter.succeeded();
        return { status, responseText: Buffer.concat(chunks).toString('utf8'), attempts, queuedMs, ...(broke ? { error: broke } : {}) };
      }
    } catch (e) {
      if (i.signal.aborted) throw e;
      if (!(e instanceof RetryLater)) {
        attempts.push({ status: 0, ms: Date.now() - t0, error: errText(e) });
        last = { status: 0, detail: errText(e) };
        retryWait = backoffMs({ ...i.budget.backoff, maxRetries: 0, maxRetryAfterMs: 0, timeoutMs: 0 }, attempt - 1);
      }
    } finally {
      release();
    }
    // A retryable failure: again, unless the budget is spent.
    const elapsed = Date.now() - began - queuedMs;
    const wait = retryWait ?? 0;
    if (attempt >= i.budget.attempts || elapsed + wait > i.budget.seconds * 1000) {
      i.limiter.stats.gave_up++;
      const what = last.status ? `HTTP ${last.status} (${RETRY_STATUS_NOTE(last.status)})` : `no answer (${last.detail})`;
      const message = `model gateway: provider ${i.provider} answered ${what} on all ${attempt} attempt(s) over ${Math.round((Date.now() - began) / 1000)} s; gave up${last.status && last.detail ? `. Last answer: ${last.detail.slice(0, 300)}` : ''}`;
      const status = last.status || 502;
      const body = i.errorBody(status, message);
      i.res.writeHead(status, { 'content-type': 'application/json', [GAVE_UP_HEADER]: 'gave-up' });
      i.res.end(body);
      return { status, responseText: body, attempts, queuedMs, error: message, gaveUp: { status: last.status, message } };
    }
    i.limiter.stats.retried++;
    waitedMs += wait;
    await sleep(wait, i.signal);
  }
}

class RetryLater extends Error {}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
