// The limiter on its own: requests per minute and concurrency hold requests back (they wait,
// they are not refused), tokens per minute counts each request's estimate from its admission and
// its real usage once settled, and a rate-limit answer lowers the concurrency it allows.
import { describe, expect, it, vi } from 'vitest';
import { NO_LIMITS } from '../../../runner/src/config/gateway.js';
import { Limiter, type Slot } from '../../../runner/src/gateway/limiter.js';

describe('Limiter', () => {
  it('admits at most requests_per_minute in a minute; the rest wait until the window moves', async () => {
    vi.useFakeTimers();
    try {
      const l = new Limiter('p', { ...NO_LIMITS, requestsPerMinute: 2 });
      const admitted: number[] = [];
      const all = [0, 1, 2].map((i) => l.acquire().then((slot) => (admitted.push(i), slot.release())));
      await vi.advanceTimersByTimeAsync(59_000);
      expect(admitted).toEqual([0, 1]);
      expect(l.snapshot()).toMatchObject({ queued: 1, queued_total: 1 });
      await vi.advanceTimersByTimeAsync(1_100); // the window moves: the third is admitted
      await Promise.all(all);
      expect(admitted).toEqual([0, 1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('after a rate limit with four in flight it allows three, then grows back after clean answers', async () => {
    const l = new Limiter('p', NO_LIMITS);
    const releases = await Promise.all([1, 2, 3, 4].map(() => l.acquire()));
    l.throttledBy(0);
    expect(l.snapshot().concurrency_cap).toBe(3);
    for (const r of releases) r.release();
    for (let i = 0; i < 3; i++) l.succeeded();
    expect(l.snapshot().concurrency_cap).toBe(4);
    expect(l.snapshot().throttled).toBe(1);
  });

  describe('tokens per minute, estimated before sending (fake clock)', () => {
    const withClock = async (f: () => Promise<void>) => {
      vi.useFakeTimers({ now: 1_000_000 });
      try {
        await f();
      } finally {
        vi.useRealTimers();
      }
    };

    it('holds a request whose estimate would pass the limit; admits it as soon as a settled usage makes room', () =>
      withClock(async () => {
        const l = new Limiter('p', { ...NO_LIMITS, tokensPerMinute: 10_000 });
        const a = await l.acquire({ tokens: 6_000 });
        expect(l.tokensInWindow()).toBe(6_000); // counted at admission, before any answer
        let b: Slot | null = null;
        void l.acquire({ tokens: 6_000 }).then((s) => (b = s));
        await vi.advanceTimersByTimeAsync(10_000);
        expect(b).toBeNull();
        expect(l.snapshot()).toMatchObject({ queued: 1, queued_total: 1 });
        a.release();
        a.settle(3_000); // the provider's usage: less than estimated
        await vi.advanceTimersByTimeAsync(0);
        expect(b).not.toBeNull();
        expect(l.tokensInWindow()).toBe(9_000);
      }));

    it('otherwise waits until the oldest counted request leaves the one-minute window', () =>
      withClock(async () => {
        const l = new Limiter('p', { ...NO_LIMITS, tokensPerMinute: 10_000 });
        const a = await l.acquire({ tokens: 4_000 });
        a.release();
        a.settle(7_000); // more than estimated: the real number counts
        await vi.advanceTimersByTimeAsync(20_000);
        let admittedAt = 0;
        const b = l.acquire({ tokens: 4_000 }).then((s) => ((admittedAt = Date.now()), s));
        await vi.advanceTimersByTimeAsync(39_000);
        expect(admittedAt).toBe(0);
        await vi.advanceTimersByTimeAsync(1_500);
        await b;
        expect(admittedAt).toBe(1_000_000 + 60_000); // a's admission + one minute
        expect(l.tokensInWindow()).toBe(4_000);
      }));

    it('a refused attempt settles at 0 and frees its estimate; a request larger than the limit still goes alone', () =>
      withClock(async () => {
        const l = new Limiter('p', { ...NO_LIMITS, tokensPerMinute: 1_000 });
        const big = await l.acquire({ tokens: 50_000 }); // an empty window: it goes
        expect(l.tokensInWindow()).toBe(50_000);
        big.settle(0); // 429: the provider did no work
        big.release();
        expect(l.tokensInWindow()).toBe(0);
        const next = await Promise.race([l.acquire({ tokens: 900 }), new Promise((r) => setTimeout(() => r(null), 1))]);
        expect(next).not.toBeNull();
      }));
  });
});

