// The clock paced so that the run's CPU wait does not count: over many looks the simulated time
// is (wall − waited) × speed to within one interval, whether the looks come on time or late;
// under a steady wait it is paid as it comes (no debt left at a reply); nothing is kept off
// while the clock is held, and with no wait the clock runs at full speed.
import { describe, expect, it } from 'vitest';
import { SimClock, START_HOLD } from '../../../agent-image/src/world/clock.js';
import { CpuWaitPacing } from '../../../agent-image/src/world/cpu-wait-pacing.js';

const START = 1_760_000_400;
const MS = 1_000_000n;

function paced(speed = 1) {
  let mono = 1000n * MS;
  let lost = 0; // what the meter says the run lost in the step, ms
  const clock = new SimClock({ start: START, speed, monoNs: () => mono });
  const meter = { sample: (wallNs: number) => (wallNs > 0 ? lost * 1e6 : 0) };
  const pacing = new CpuWaitPacing(clock, meter, { intervalMs: 100, monoNs: () => mono });
  return {
    clock,
    pacing,
    /** `ms` of wall time pass, of which the machine's other work cost the run `lostMs`; then a look. */
    step(ms: number, lostMs: number) {
      mono += BigInt(Math.round(ms * 1e6));
      lost = Math.min(lostMs, ms); // the meter never says more than the wall time
      pacing.look();
    },
  };
}

describe('CpuWaitPacing', () => {
  it('an idle machine: no wait, the clock runs at full speed', () => {
    const { clock, pacing, step } = paced();
    clock.release(START_HOLD);
    pacing.look();
    for (let i = 0; i < 50; i++) step(100, 0);
    expect(clock.currentPace).toBe(1);
    expect(clock.now() - START).toBeCloseTo(5, 6);
    expect(pacing.keptOffSeconds).toBe(0);
  });

  it('a busy machine: three quarters of every interval waited, a quarter of the wall time counts', () => {
    const { clock, pacing, step } = paced();
    clock.release(START_HOLD);
    pacing.look();
    for (let i = 0; i < 400; i++) step(100, 75);
    // Paid as it comes: in the middle of the busy spell, the clock is where it should be.
    expect(clock.now() - START).toBeGreaterThanOrEqual(40 - 30 - 0.1);
    expect(clock.now() - START).toBeLessThanOrEqual(40 - 30 + 0.1);
    step(100, 0);
    step(100, 0);
    const wall = 40.2;
    expect(Math.abs(clock.now() - START - (wall - 30))).toBeLessThanOrEqual(0.1); // within one interval
    expect(Math.abs(pacing.keptOffSeconds - 30)).toBeLessThanOrEqual(0.1);
    expect(clock.currentPace).toBe(1);
  });

  it('looks that come late (a starved daemon) keep the account exact', () => {
    const { clock, pacing, step } = paced(2); // speed 2: every wall second is two simulated ones
    clock.release(START_HOLD);
    pacing.look();
    const intervals = [100, 350, 90, 800, 120, 100, 600, 100];
    let wall = 0;
    let waited = 0;
    for (let round = 0; round < 20; round++)
      for (const ms of intervals) {
        const w = ms * 0.6;
        step(ms, w);
        wall += ms;
        waited += w;
      }
    for (let i = 0; i < 200; i++) step(100, 0), (wall += 100); // time to pay the debt back
    expect(clock.currentPace).toBe(1);
    expect(Math.abs(clock.now() - START - ((wall - waited) / 1000) * 2)).toBeLessThanOrEqual(0.1 * 2); // one interval, at speed 2
  });

  it('a whole interval lost stops the clock for one interval, then it runs again', () => {
    const { clock, pacing, step } = paced();
    clock.release(START_HOLD);
    pacing.look();
    step(100, 500);
    expect(clock.currentPace).toBe(0);
    step(100, 0);
    expect(clock.currentPace).toBe(1);
    expect(clock.now() - START).toBeCloseTo(0.1, 6); // 0.2 s of wall, 0.1 s kept off
  });

  it('while the clock is held (the start, a runtime) nothing is kept off and nothing owed', () => {
    const { clock, pacing, step } = paced();
    pacing.look();
    for (let i = 0; i < 10; i++) step(100, 90); // the program starting: held anyway
    expect(clock.now()).toBe(START);
    expect(pacing.keptOffSeconds).toBe(0);
    clock.release(START_HOLD);
    step(100, 0);
    step(100, 0);
    expect(clock.currentPace).toBe(1);
    expect(clock.now() - START).toBeCloseTo(0.2, 6);
  });

  it('stop: full speed again', () => {
    const { clock, pacing, step } = paced();
    clock.release(START_HOLD);
    pacing.look();
    step(100, 100);
    expect(clock.currentPace).toBe(0);
    pacing.stop();
    expect(clock.currentPace).toBe(1);
  });
});
