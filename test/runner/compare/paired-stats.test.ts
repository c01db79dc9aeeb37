import { describe, expect, it } from 'vitest';
import { mcnemarExact, pairedBootstrap, pairedSe, seededRandom } from '../../../runner/src/compare/index.js';

describe('paired statistics', () => {
  it('McNemar exact: two-sided binomial tail of the discordant pairs', () => {
    expect(mcnemarExact(1, 9)).toBeCloseTo((2 * (1 + 10)) / 1024, 12);
    expect(mcnemarExact(9, 1)).toBe(mcnemarExact(1, 9));
    expect(mcnemarExact(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it('the seeded generator repeats itself and differs across seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(8)()).not.toBe(xs[0]);
  });

  it('paired bootstrap: same seed, same interval; it brackets the mean; constant differences give a point', () => {
    const diffs = [1, 0, 0, 1, -1, 1, 0, 1, 0, 1];
    const r1 = pairedBootstrap(diffs, 42)!;
    expect(pairedBootstrap(diffs, 42)).toEqual(r1);
    expect(r1.low).toBeLessThan(0.4);
    expect(r1.high).toBeGreaterThan(0.4);
    expect(r1.low).toBeGreaterThanOrEqual(-1);
    expect(pairedBootstrap([0.5, 0.5, 0.5], 1)).toMatchObject({ low: 0.5, high: 0.5 });
    expect(pairedBootstrap([1], 1)).toBeNull();
  });

  it('SE of the mean difference = sample STD / √m', () => {
    expect(pairedSe([1, 0, -1, 0])).toBeCloseTo(Math.sqrt(2 / 3 / 4), 12);
    expect(pairedSe([1])).toBeNull();
  });
});
