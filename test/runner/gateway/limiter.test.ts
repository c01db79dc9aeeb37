// The limiter on its own: requests per minute and concurrency hold requests back (they wait,
// they are not refused), and a rate-limit answer lowers the concurrency it allows.
import { describe, expect, it, vi } from 'vitest';
import { NO_LIMITS } from '../../../runner/src/config/gateway.js';
import { Limiter } from '../../../runner/src/gateway/limiter.js';

describe('Limiter', () => {
  it('admits at most requests_per_minute in a minute; the rest wait until the window moves', async () => {
    vi.useFakeTimers();
    try {
      const l = new Limiter('p', { ...NO_LIMITS, requestsPerMinute: 2 });
      const admitted: number[] = [];
      const all = [0, 1, 2].map((i) => l.acquire().then((release) => (admitted.push(i), release())));
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
    for (const r of releases) r();
    for (let i = 0; i < 3; i++) l.succeeded();
    expect(l.snapshot().concurrency_cap).toBe(4);
    expect(l.snapshot().throttled).toBe(1);
  });
});
