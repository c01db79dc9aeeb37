import { describe, expect, it } from 'vitest';
import { LatencyEstimate } from '../../../runner/src/run/latency-estimate.js';

describe('LatencyEstimate', () => {
  it('looks first after the floor until it has seen a boot, then at 3/4 of the median boot', () => {
    const e = new LatencyEstimate(50, 2000, 5);
    expect(e.firstLookMs('img')).toBe(50);
    for (const ms of [400, 100, 420, 380, 1000]) e.record('img', ms);
    expect(e.firstLookMs('img')).toBe(300); // median 400
    expect(e.firstLookMs('other')).toBe(50); // per image
  });

  it('keeps only the last samples and stays between floor and ceiling', () => {
    const e = new LatencyEstimate(50, 2000, 3);
    for (const ms of [900, 900, 900, 20, 20, 20]) e.record('img', ms);
    expect(e.firstLookMs('img')).toBe(50);
    for (const ms of [9000, 9000]) e.record('img', ms);
    expect(e.firstLookMs('img')).toBe(2000);
  });

  /** Runs whose boot takes `boot` ms, each waiting as unit-ready.ts does; the first-look times. */
  function play(e: LatencyEstimate, boot: number, runs: number): number[] {
    const looks: number[] = [];
    for (let i = 0; i < runs; i++) {
      const first = e.firstLookMs('img');
      looks.push(first);
      // found done at the first look, or seen (within a 10 ms poll) by a later one
      if (first >= boot) e.record('img', first, true);
      else e.record('img', boot + 5, false);
    }
    return looks;
  }

  it('follows a machine that gets faster: looks that find it done pull the median down', () => {
    const e = new LatencyEstimate(50, 2000, 16);
    for (let i = 0; i < 16; i++) e.record('img', 400);
    const looks = play(e, 100, 40);
    expect(looks[0]).toBe(300);
    expect(looks.at(-1)).toBeLessThanOrEqual(100);
  });

  it('one slow cold boot holds back only the next few runs, not dozens', () => {
    const e = new LatencyEstimate(50, 2000, 16);
    e.record('img', 1500); // the first container after a build
    const looks = play(e, 100, 30);
    const late = looks.filter((l) => l > 130).length;
    expect(late).toBeLessThanOrEqual(8);
    // and it settles just below the boot: a few early looks, never much later than the boot
    expect(Math.max(...looks.slice(-10))).toBeLessThanOrEqual(110);
  });

  it('follows a machine that gets slower: early looks record the real boot', () => {
    const e = new LatencyEstimate(50, 2000, 16);
    for (let i = 0; i < 16; i++) e.record('img', 100);
    const looks = play(e, 400, 20);
    expect(looks.at(-1)).toBeGreaterThanOrEqual(290);
  });
});
