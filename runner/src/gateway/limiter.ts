// Admission for one provider (or one model of it): requests wait in a queue rather than fail.
// A request is admitted while fewer than the concurrency limit are in flight, fewer than the
// requests-per-minute limit started in the last minute, its estimated tokens fit under the
// tokens-per-minute limit beside what the last minute's requests are counted at (estimated at
// admission, corrected to the provider's own usage once each answer ends), and no rate-limit
// pause is on. A 429/529 pauses the provider for its retry-after and lowers the
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
  /** Answers broken mid-stream and completed from a repeated request that matched byte for byte. */
  resumed: number;
  /** Answers broken mid-stream that could not be completed: the client's connection was cut. */
  broken: number;
  in_flight: number;
  /** The concurrency currently allowed (the limit, lowered after rate limits); null = none. */
  concurrency_cap: number | null;
}

interface Waiter {
  admit: () => void;
  reject: (e: unknown) => void;
  retry: boolean;
  /** Tokens the request is estimated to use (token-estimate.ts). */
  tokens: number;
}

/** An admitted request: free its concurrency slot, and settle what it counts against tokens per minute. */
export interface Slot {
  release(): void;
  /** The request's real token use (the provider's usage), replacing its estimate; 0 when the provider did no work. */
  settle(tokens: number): void;
}

const MINUTE = 60_000;

export class Limiter {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly started: number[] = [];
  /** Token use in the window, one entry per admitted request: its estimate until settled. */
  private readonly tokens: Array<{ at: number; n: number }> = [];
  private pausedUntil = 0;
  /** Concurrency allowed after rate limits; null until the provider refuses once. */
  private adaptiveCap: number | null = null;
  private cleanSinceCap = 0;
  private timer: NodeJS.Timeout | null = null;
  readonly stats: Omit<LimiterStats, 'queued' | 'in_flight' | 'concurrency_cap'> = { queued_total: 0, throttled: 0, retried: 0, gave_up: 0, resumed: 0, broken: 0 };

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
   * once); `tokens` is its estimated token use, counted against tokens per minute from its
   * admission until settled. Resolves with the slot; rejects when `signal` aborts while waiting.
   */
  acquire(o: { retry?: boolean; signal?: AbortSignal; tokens?: number } = {}): Promise<Slot> {
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        retry: Boolean(o.retry),
        tokens: Math.max(0, Math.round(o.tokens ?? 0)),
        admit: () => {
          o.signal?.removeEventListener('abort', onAbort);
          let released = false;
          const use = { at: this.now(), n: w.tokens };
          if (use.n > 0) this.tokens.push(use);
          resolve({
            release: () => {
              if (released) return;
              released = true;
              this.inFlight--;
              this.pump();
            },
            settle: (n) => {
              const lower = n < use.n;
              use.n = Math.max(0, Math.round(n));
              if (!this.tokens.includes(use) && use.n > 0 && use.at > this.now() - MINUTE) this.insertUse(use);
              if (lower) this.pump();
            },
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
      if (!w.retry && !this.canAdmit(this.now(), w)) this.stats.queued_total++;
      this.pump();
    });
  }

  /** Keeps the window in admission order (a settled request whose estimate was 0 goes back in). */
  private insertUse(use: { at: number; n: number }): void {
    let i = this.tokens.length;
    while (i > 0 && this.tokens[i - 1]!.at > use.at) i--;
    this.tokens.splice(i, 0, use);
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

  /**
   * 0 when a request estimated at `tokens` may start now, else how long until that may change
   * (Infinity: a release or a settlement).
   */
  private waitFor(now: number, tokens: number): number {
    this.prune(now);
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const cap = this.cap();
    if (cap !== null && this.inFlight >= cap) return Infinity;
    const rpm = this.limits.requestsPerMinute;
    if (rpm !== null && this.started.length >= rpm) return this.started[0]! + MINUTE - now;
    const tpm = this.limits.tokensPerMinute;
    if (tpm !== null) {
      // Alone in an empty window a request goes even when its estimate exceeds the limit.
      const counted = this.tokens.reduce((s, t) => s + t.n, 0);
      if (counted > 0 && counted + tokens > tpm) {
        const oldest = this.tokens.find((t) => t.n > 0);
        return oldest ? oldest.at + MINUTE - now : Infinity;
      }
    }
    return 0;
  }

  /** Tokens counted in the last minute (estimates of requests not settled yet included). */
  tokensInWindow(): number {
    this.prune(this.now());
    return this.tokens.reduce((s, t) => s + t.n, 0);
  }

  private canAdmit(now: number, w: Waiter): boolean {
    return this.queue.length <= 1 && this.waitFor(now, w.tokens) === 0;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length) {
      const now = this.now();
      const wait = this.waitFor(now, this.queue[0]!.tokens);
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
