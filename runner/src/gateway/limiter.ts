// Admission for one provider (or one model of it): requests wait in a queue rather than fail.
// A request is admitted while fewer than the concurrency limit are in flight, fewer than the
// requests-per-minute limit started in the last minute, fewer than the tokens-per-minute limit
// were used in the last minute (counted from the provider's usage once a response ends), and
// no rate-limit pause is on. A 429/529 pauses the provider for its retry-after and lowers the
// concurrency it is given (to one below what was in flight, at least one); it grows by one
// after as many clean answers as it allows (additive increase, multiplicative decrease), so a
// provider that admits one request at a time ends up sent one at a time.
import type { LimitValues } from '../config/gateway.js';

export interface LimiterStats {
  /** Requests waiting now. */
  queued: number;
  /** Requests that had to wait before their first attempt, in all. */
  queued_total: number;
  /** Rate-limit answers (429/529) received. */
  throttled: number;
  /** Attempts repeated after a retryable failure. */
  retried: number;
  /** Requests the gateway gave up on (retry budget spent). */
  gave_up: number;
  in_flight: number;
  /** The concurrency currently allowed (the limit, lowered after rate limits); null = none. */
  concurrency_cap: number | null;
}

interface Waiter {
  admit: () => void;
  reject: (e: unknown) => void;
  retry: boolean;
}

const MINUTE = 60_000;

export class Limiter {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly started: number[] = [];
  private readonly tokens: Array<{ at: number; n: number }> = [];
  private pausedUntil = 0;
  /** Concurrency allowed after rate limits; null until the provider refuses once. */
  private adaptiveCap: number | null = null;
  private cleanSinceCap = 0;
  private timer: NodeJS.Timeout | null = null;
  readonly stats: Omit<LimiterStats, 'queued' | 'in_flight' | 'concurrency_cap'> = { queued_total: 0, throttled: 0, retried: 0, gave_up: 0 };

  constructor(
    readonly key: string,
    private readonly limits: LimitValues,
    private readonly now: () => number = Date.now,
  ) {}

  snapshot(): LimiterStats {
    return { ...this.stats, queued: this.queue.length, in_flight: this.inFlight, concurrency_cap: this.cap() };
  }

  private cap(): number | null {
    const l = this.limits.maxConcurrent;
    if (this.adaptiveCap === null) return l;
    return l === null ? this.adaptiveCap : Math.min(l, this.adaptiveCap);
  }

  /**
   * Waits for a slot. `retry` puts the request at the head of the queue (it already waited
   * once). Resolves with the release function; rejects when `signal` aborts while waiting.
   */
  acquire(o: { retry?: boolean; signal?: AbortSignal } = {}): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        retry: Boolean(o.retry),
        admit: () => {
          o.signal?.removeEventListener('abort', onAbort);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.inFlight--;
            this.pump();
          });
        },
        reject,
      };
      const onAbort = () => {
        const i = this.queue.indexOf(w);
        if (i >= 0) this.queue.splice(i, 1);
        reject(o.signal?.reason ?? new Error('aborted'));
      };
      if (o.signal?.aborted) return onAbort();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      if (w.retry) this.queue.unshift(w);
      else this.queue.push(w);
      if (!w.retry && !this.canAdmit(this.now())) this.stats.queued_total++;
      this.pump();
    });
  }

  /** Tokens a finished response used (its usage), for the tokens-per-minute window. */
  used(tokens: number): void {
    if (tokens > 0) this.tokens.push({ at: this.now(), n: tokens });
  }

  /** A clean answer: the lowered concurrency grows back by one after `cap` of them. */
  succeeded(): void {
    if (this.adaptiveCap === null) return;
    if (++this.cleanSinceCap >= this.adaptiveCap) {
      this.cleanSinceCap = 0;
      this.adaptiveCap++;
      if (this.limits.maxConcurrent !== null && this.adaptiveCap >= this.limits.maxConcurrent) this.adaptiveCap = null;
      this.pump();
    }
  }

  /** A rate-limit answer while `inFlight` requests (this one included) were out. */
  throttledBy(waitMs: number): void {
    this.stats.throttled++;
    this.adaptiveCap = Math.max(1, Math.min(this.cap() ?? Infinity, this.inFlight) - 1);
    this.cleanSinceCap = 0;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + waitMs);
  }

  private prune(now: number): void {
    while (this.started.length && this.started[0]! <= now - MINUTE) this.started.shift();
    while (this.tokens.length && this.tokens[0]!.at <= now - MINUTE) this.tokens.shift();
  }

  /** 0 when a request may start now, else how long until that may change (Infinity: a release). */
  private waitFor(now: number): number {
    this.prune(now);
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const cap = this.cap();
    if (cap !== null && this.inFlight >= cap) return Infinity;
    const rpm = this.limits.requestsPerMinute;
    if (rpm !== null && this.started.length >= rpm) return this.started[0]! + MINUTE - now;
    const tpm = this.limits.tokensPerMinute;
    if (tpm !== null && this.tokens.reduce((s, t) => s + t.n, 0) >= tpm) return this.tokens[0]!.at + MINUTE - now;
    return 0;
  }

  private canAdmit(now: number): boolean {
    return this.queue.length <= 1 && this.waitFor(now) === 0;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length) {
      const now = this.now();
      const wait = this.waitFor(now);
      if (wait === 0) {
        const w = this.queue.shift()!;
        this.inFlight++;
        this.started.push(now);
        w.admit();
        continue;
      }
      if (Number.isFinite(wait)) {
        this.timer = setTimeout(() => this.pump(), Math.max(1, wait));
        this.timer.unref();
      }
      return;
    }
  }

  /** Rejects everything still waiting (the gateway closes). */
  close(reason: Error): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.queue.splice(0)) w.reject(reason);
  }
}
