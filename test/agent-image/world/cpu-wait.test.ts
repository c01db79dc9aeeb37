// The CPU wait of a run, read from the kernel's per-thread scheduler statistics: the parser on
// a /proc tree laid out as the kernel lays it out, the meter's "longest one thread waited", and
// the real /proc of this machine (this test's own threads are there, with a run-queue delay).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuWaitMeter, RunDelayReader, threadTimesIn, type ThreadTimes } from '../../../agent-image/src/world/cpu-wait.js';

function procTree(threads: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'proc-'));
  for (const [key, line] of Object.entries(threads)) {
    const [pid, tid] = key.split('/') as [string, string];
    mkdirSync(join(root, pid, 'task', tid), { recursive: true });
    writeFileSync(join(root, pid, 'task', tid, 'schedstat'), line);
  }
  mkdirSync(join(root, 'self')); // not a pid: skipped
  writeFileSync(join(root, 'uptime'), '1.0 2.0\n');
  return root;
}

describe('RunDelayReader: the run-queue delay of every thread', () => {
  it('reads the second schedstat field of each task, keyed pid/tid; skips non-pids and malformed lines', () => {
    const root = procTree({ '1/1': '69375533 10123172 44\n', '1/7': '5 20 1\n', '42/42': '6616940 7692930 7\n', '43/43': 'garbage\n' });
    const reader = new RunDelayReader(root);
    try {
      expect(reader.read()).toEqual(
        new Map([
          ['1/1', { ran: 69375533n, waited: 10123172n }],
          ['1/7', { ran: 5n, waited: 20n }],
          ['42/42', { ran: 6616940n, waited: 7692930n }],
        ]),
      );
      expect(threadTimesIn('1 2 3')).toEqual({ ran: 1n, waited: 2n });
      expect(threadTimesIn('')).toBeNull();
      expect(new RunDelayReader(join(root, 'nowhere')).read().size).toBe(0);
    } finally {
      reader.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads each file again from its start through the descriptor it keeps; lets go of what ended; finds new threads', () => {
    const root = procTree({ '1/1': '0 100 1\n', '1/2': '0 5 1\n', '8/8': '0 7 1\n' });
    const reader = new RunDelayReader(root);
    try {
      expect(reader.read().get('1/1')?.waited).toBe(100n);
      expect(reader.openFiles).toBe(3);
      writeFileSync(join(root, '1', 'task', '1', 'schedstat'), '0 250 2\n'); // the same file, new contents
      rmSync(join(root, '8'), { recursive: true }); // a process ended
      mkdirSync(join(root, '1', 'task', '3'));
      writeFileSync(join(root, '1', 'task', '3', 'schedstat'), '0 40 1\n'); // a thread started
      mkdirSync(join(root, '9', 'task', '9'), { recursive: true });
      writeFileSync(join(root, '9', 'task', '9', 'schedstat'), '0 3 1\n'); // a process started
      const second = reader.read();
      expect(second.get('1/1')?.waited).toBe(250n);
      expect(second.has('8/8')).toBe(false);
      expect(second.get('9/9')?.waited).toBe(3n); // a new process is listed at once
      expect(second.has('1/3')).toBe(false); // a new thread of a known process: at the next listing
      rmSync(join(root, '1', 'task', '2'), { recursive: true });
      let found = second;
      for (let i = 0; i < 10 && !found.has('1/3'); i++) found = reader.read();
      expect(found.get('1/3')?.waited).toBe(40n);
      expect(found.has('1/2')).toBe(false);
      expect(reader.openFiles).toBe(3); // 1/1, 1/3, 9/9
    } finally {
      reader.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("this machine's /proc: this process's own threads are there, and their delays only grow", () => {
    const reader = new RunDelayReader();
    const first = reader.read();
    const mine = [...first.keys()].filter((k) => k.startsWith(`${process.pid}/`));
    expect(mine.length).toBeGreaterThan(0);
    const again = reader.read();
    for (const k of mine) if (again.has(k)) expect(again.get(k)!.waited >= first.get(k)!.waited && again.get(k)!.ran >= first.get(k)!.ran).toBe(true);
    reader.close();
  });
});

const MS = 1_000_000;
/** Thread totals in ms: [ran, waited] per key. */
const times = (t: Record<string, [number, number]>): Map<string, ThreadTimes> =>
  new Map(Object.entries(t).map(([k, [r, w]]) => [k, { ran: BigInt(Math.round(r * MS)), waited: BigInt(Math.round(w * MS)) }]));

/** A meter over totals the test moves on: each `after` gives every thread's growth over 100 ms of wall. */
function meterOf(cpus: number, start: Record<string, [number, number]>) {
  let now = times(start);
  const meter = new CpuWaitMeter(() => now, cpus);
  expect(meter.sample(100 * MS)).toBe(0); // the first sample sets the base
  const totals = { ...start };
  return (grew: Record<string, [number, number]>): number => {
    for (const [k, [r, w]] of Object.entries(grew)) totals[k] = [(totals[k]?.[0] ?? 0) + r, (totals[k]?.[1] ?? 0) + w];
    now = times(totals);
    return meter.sample(100 * MS) / MS;
  };
}

describe("CpuWaitMeter: the wall time the machine's other work cost the run", () => {
  it('one thread kept waiting three quarters of the time: three quarters lost', () => {
    expect(meterOf(2, { '1/1': [0, 0] })({ '1/1': [25, 75] })).toBeCloseTo(75, 6);
  });

  it('a thread runnable a tenth of the time (the rest asleep, or waiting on the model) lost only what it waited', () => {
    expect(meterOf(2, { '1/1': [0, 0] })({ '1/1': [2.5, 7.5] })).toBeCloseTo(7.5, 6);
  });

  it('two threads that waited side by side lost the same wall time once', () => {
    expect(meterOf(2, { '1/1': [0, 0], '1/2': [0, 0] })({ '1/1': [25, 75], '1/2': [25, 70] })).toBeCloseTo(75, 6);
  });

  it('threads that waited one after the other: at most the sum of their waits', () => {
    expect(meterOf(2, { '1/1': [0, 0], '1/2': [0, 0] })({ '1/1': [10, 20], '1/2': [10, 30] })).toBeCloseTo(30, 6);
  });

  it('more threads busy than CPUs, and all of them got: the run waits for itself, nothing lost (no time to be bought)', () => {
    const six = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`1/${i}`, [0, 0] as [number, number]]));
    const step = meterOf(2, six);
    expect(step(Object.fromEntries(Object.keys(six).map((k) => [k, [100 / 3, 200 / 3] as [number, number]])))).toBeCloseTo(0, 3);
    // and when the machine's other work took half of its two CPUs, it lost half the interval
    expect(step(Object.fromEntries(Object.keys(six).map((k) => [k, [100 / 6, 500 / 6] as [number, number]])))).toBeCloseTo(50, 3);
  });

  it('a thread first seen counts its whole totals; never more than the wall time', () => {
    const step = meterOf(4, { '1/1': [0, 0] });
    expect(step({ '9/9': [10, 40] })).toBeCloseTo(40, 6);
    expect(step({ '1/1': [0, 500] })).toBeCloseTo(100, 6);
  });

  it('without statistics it is not available and measures nothing', () => {
    const meter = new CpuWaitMeter(() => new Map(), 2);
    expect(meter.available).toBe(false);
    expect(meter.sample(100 * MS)).toBe(0);
    expect(meter.sample(100 * MS)).toBe(0);
  });
});
