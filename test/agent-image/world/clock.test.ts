// The simulated clock as a line through an anchor: held at the start, released, held again,
// jumped; every change published, and the published anchors decode (contract/sim-clock.ts) to
// the same sim time the daemon reads, as the agent's processes compute it from CLOCK_MONOTONIC.
import { mkdtempSync, openSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PACE, PACED_LOOK_MS, SimClock, START_HOLD, type ClockAnchor } from '../../../agent-image/src/world/clock.js';
import { ClockFile } from '../../../agent-image/src/world/clock-file.js';
import { AGENT_UID, decodeSimClock, SIM_CLOCK_SIZE, simNsAt } from '../../../agent-image/src/contract/sim-clock.js';

const START = 1_760_000_400; // 2025-10-09 09:00:00 UTC
const S = 1_000_000_000n;

function fakeClock(speed = 1) {
  let mono = 5n * S;
  const published: ClockAnchor[] = [];
  const clock = new SimClock({ start: START, speed, monoNs: () => mono, publish: (a) => published.push(a) });
  return { clock, published, advance: (sec: number) => (mono += BigInt(sec * 1e9)) };
}

describe('SimClock: a line through an anchor', () => {
  it('starts held at the scenario start and stands still until released', () => {
    const { clock, advance, published } = fakeClock();
    expect(clock.held).toBe(true);
    expect(published).toEqual([{ monoNs: 5n * S, simNs: BigInt(START) * S, rate: 0 }]);
    advance(30); // boot, the agent program's start-up
    expect(clock.text()).toBe('2025-10-09 09:00:00');
    expect(clock.wallMsUntil(START + 10)).toBe(Number.POSITIVE_INFINITY);
    expect(clock.wallMsUntil(START)).toBe(0); // already there
    expect(clock.release(START_HOLD)).toBe(true);
    expect(published.at(-1)).toEqual({ monoNs: 35n * S, simNs: BigInt(START) * S, rate: 1 });
    advance(2.5);
    expect(clock.now()).toBeCloseTo(START + 2.5, 6);
    expect(clock.wallMsUntil(START + 10)).toBeCloseTo(7500, 3);
  });

  it('holds of several holders: runs only when none is left; a second release changes nothing', () => {
    const { clock, advance, published } = fakeClock(2);
    clock.release(START_HOLD);
    advance(1); // 2 sim seconds
    expect(clock.hold('agent')).toBe(true);
    expect(published.at(-1)).toMatchObject({ simNs: BigInt(START + 2) * S, rate: 0 });
    expect(clock.hold('other')).toBe(false); // already held: no new anchor
    const n = published.length;
    advance(10);
    expect(clock.release('agent')).toBe(false); // 'other' still holds
    expect(clock.now()).toBeCloseTo(START + 2, 6);
    expect(clock.release('other')).toBe(true);
    expect(clock.release('other')).toBe(false);
    expect(published.length).toBe(n + 1);
    advance(1);
    expect(clock.now()).toBeCloseTo(START + 4, 6);
  });

  it('a fast-forward jump re-anchors at the target, forward only, and keeps a held clock held', () => {
    const { clock, advance, published } = fakeClock();
    expect(clock.jumpTo(START + 600)).toBe(600);
    expect(clock.held).toBe(true);
    expect(published.at(-1)).toMatchObject({ simNs: BigInt(START + 600) * S, rate: 0 });
    expect(clock.jumpTo(START + 10)).toBe(0);
    clock.release(START_HOLD);
    advance(1);
    expect(clock.text()).toBe('2025-10-09 09:10:01');
  });

  it('every published anchor gives the sim time the clock reads (as the readers compute it)', () => {
    const { clock, advance, published } = fakeClock(1.5);
    clock.release(START_HOLD);
    advance(4);
    clock.hold('agent');
    advance(3);
    clock.release('agent');
    advance(2);
    const mono = 5n * S + 9n * S;
    const a = published.at(-1)!;
    const viaLine = Number(simNsAt({ ...a, realMinusMonoNs: 0n, agentUid: 0 }, mono)) / 1e9;
    expect(viaLine).toBeCloseTo(clock.now(), 6);
    expect(clock.now()).toBeCloseTo(START + 6 + 3, 6); // 4 s × 1.5, held 3 s, 2 s × 1.5
  });
});

describe('ClockFile: the anchors as the readers map them', () => {
  const read = (path: string) => {
    const b = Buffer.alloc(SIM_CLOCK_SIZE);
    const fd = openSync(path, 'r');
    readSync(fd, b, 0, SIM_CLOCK_SIZE, 0);
    closeSync(fd);
    return decodeSimClock(b);
  };

  it('is created whole, rewritten in place (same inode) with an even seq, and decodes to each anchor', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gaia2-clock-')), 'clock');
    const file = new ClockFile(path);
    let mono = 7n * S;
    const clock = new SimClock({ start: START, monoNs: () => mono, publish: (a) => file.write(a) });
    const first = read(path)!;
    expect(first).toMatchObject({ seq: 0n, monoNs: 7n * S, simNs: BigInt(START) * S, rate: 0, agentUid: AGENT_UID });
    expect(statSync(path).size).toBe(SIM_CLOCK_SIZE);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    // real − mono, taken when written: Date.now() in ns minus this process's CLOCK_MONOTONIC
    const expected = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
    expect(Number(first.realMinusMonoNs - expected) / 1e6).toBeGreaterThan(-1000);
    expect(Number(first.realMinusMonoNs - expected) / 1e6).toBeLessThan(1000);
    const inode = statSync(path).ino;

    mono += 2n * S;
    clock.release(START_HOLD);
    mono += 3n * S;
    clock.jumpTo(START + 3600);
    const last = read(path)!;
    expect(statSync(path).ino).toBe(inode); // mapped readers see it change
    expect(last.seq).toBe(4n); // two changes, each odd then even
    expect(last).toMatchObject({ monoNs: 12n * S, simNs: BigInt(START + 3600) * S, rate: 1 });
    file.close();
  });

  it('a reader that meets an odd seq (a write under way) gets nothing', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gaia2-clock-')), 'clock');
    new ClockFile(path, 1234).write({ monoNs: 1n, simNs: 2n, rate: 1 });
    const b = readFileSync(path);
    expect(decodeSimClock(b)?.agentUid).toBe(1234);
    b.writeBigUInt64LE(3n, 8);
    expect(decodeSimClock(b)).toBeNull();
  });

  it('a pace slows (or, up to MAX_PACE, speeds) the line between holds; waiters look again within PACED_LOOK_MS', () => {
    const { clock, advance, published } = fakeClock(2);
    clock.release(START_HOLD);
    advance(1);
    clock.setPace(0.25);
    expect(published.at(-1)!.rate).toBe(0.5);
    advance(4);
    expect(clock.now()).toBeCloseTo(START + 2 + 2, 6);
    expect(clock.wallMsUntil(START + 4.1)).toBeCloseTo(PACED_LOOK_MS, 6); // 0.1 sim s at 0.5 = 200 ms, capped
    expect(clock.wallMsUntil(START + 4.02)).toBeCloseTo(40, 2);
    clock.setPace(0);
    expect(clock.wallMsUntil(START + 100)).toBe(PACED_LOOK_MS);
    clock.hold('runtime');
    clock.setPace(0.5); // held: nothing published until released
    const n = published.length;
    clock.setPace(0.5);
    expect(published.length).toBe(n);
    clock.release('runtime');
    expect(published.at(-1)!.rate).toBe(1);
    clock.setPace(7); // clamped to MAX_PACE
    expect(clock.currentPace).toBe(MAX_PACE);
    expect(published.at(-1)!.rate).toBe(2 * MAX_PACE);
    expect(clock.wallMsUntil(clock.now() + 0.04)).toBeCloseTo(10, 1); // 0.04 sim s at rate 4
    expect(clock.wallMsUntil(clock.now() + 10)).toBe(PACED_LOOK_MS);
  });
});

