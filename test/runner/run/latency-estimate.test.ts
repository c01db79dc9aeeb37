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

  it('follows a machine that gets faster: looks that find the port open pull the median down', () => {
    const e = new LatencyEstimate(50, 2000, 16);
    for (let i = 0; i < 16; i++) e.record('img', 400);
    // boots now take 100 ms; a look at t finds the port open when t ≥ 100, and records t
    for (let i = 0; i < 200; i++) e.record('img', Math.max(100, e.firstLookMs('img')));
    expect(e.firstLookMs('img')).toBe(75);
  });
});
