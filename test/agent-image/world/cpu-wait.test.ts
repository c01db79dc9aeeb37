// The CPU wait of a run, read from the kernel's per-thread scheduler statistics: the parser on
// a /proc tree laid out as the kernel lays it out, the meter's "longest one thread waited", and
// the real /proc of this machine (this test's own threads are there, with a run-queue delay).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuWaitMeter, readRunDelays, runDelayOf } from '../../../agent-image/src/world/cpu-wait.js';

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

describe('readRunDelays: the run-queue delay of every thread', () => {
  it('reads the second schedstat field of each task, keyed pid/tid; skips non-pids and malformed lines', () => {
    const root = procTree({ '1/1': '69375533 10123172 44\n', '1/7': '5 20 1\n', '42/42': '6616940 7692930 7\n', '43/43': 'garbage\n' });
    try {
      expect(readRunDelays(root)).toEqual(
        new Map([
          ['1/1', 10123172n],
          ['1/7', 20n],
          ['42/42', 7692930n],
        ]),
      );
      expect(runDelayOf(join(root, '9', 'task', '9', 'schedstat'))).toBeNull(); // a thread gone
      expect(readRunDelays(join(root, 'nowhere')).size).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("this machine's /proc: this process's own threads are there", () => {
    const delays = readRunDelays();
    expect([...delays.keys()].some((k) => k.startsWith(`${process.pid}/`))).toBe(true);
  });
});

describe('CpuWaitMeter: how long the run waited since the last sample', () => {
  it('the first sample sets the base; then the largest growth of one thread, not the sum', () => {
    let now = new Map([
      ['1/1', 100n],
      ['1/2', 50n],
    ]);
    const meter = new CpuWaitMeter(() => now);
    expect(meter.available).toBe(true);
    expect(meter.sample()).toBe(0n);
    now = new Map([
      ['1/1', 130n], // +30
      ['1/2', 90n], // +40: waited side by side with 1/1
    ]);
    expect(meter.sample()).toBe(40n);
    now = new Map([
      ['1/1', 130n],
      ['1/2', 90n],
      ['9/9', 25n], // a command started since: its whole wait is new
    ]);
    expect(meter.sample()).toBe(25n);
    now = new Map([['1/1', 131n]]); // the others ended
    expect(meter.sample()).toBe(1n);
  });

  it('without statistics it is not available and measures nothing', () => {
    const meter = new CpuWaitMeter(() => new Map());
    expect(meter.available).toBe(false);
    expect(meter.sample()).toBe(0n);
    expect(meter.sample()).toBe(0n);
  });
});
