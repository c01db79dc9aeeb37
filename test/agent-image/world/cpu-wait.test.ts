// The CPU wait of a run, read from the kernel's per-thread scheduler statistics: the parser on
// a /proc tree laid out as the kernel lays it out, the meter's "longest one thread waited", and
// the real /proc of this machine (this test's own threads are there, with a run-queue delay).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuWaitMeter, RunDelayReader, runDelayIn } from '../../../agent-image/src/world/cpu-wait.js';

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
          ['1/1', 10123172n],
          ['1/7', 20n],
          ['42/42', 7692930n],
        ]),
      );
      expect(runDelayIn('1 2 3')).toBe(2n);
      expect(runDelayIn('')).toBeNull();
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
      expect(reader.read().get('1/1')).toBe(100n);
      expect(reader.openFiles).toBe(3);
      writeFileSync(join(root, '1', 'task', '1', 'schedstat'), '0 250 2\n'); // the same file, new contents
      rmSync(join(root, '8'), { recursive: true }); // a process ended
      mkdirSync(join(root, '1', 'task', '3'));
      writeFileSync(join(root, '1', 'task', '3', 'schedstat'), '0 40 1\n'); // a thread started
      mkdirSync(join(root, '9', 'task', '9'), { recursive: true });
      writeFileSync(join(root, '9', 'task', '9', 'schedstat'), '0 3 1\n'); // a process started
      const second = reader.read();
      expect(second.get('1/1')).toBe(250n);
      expect(second.has('8/8')).toBe(false);
      expect(second.get('9/9')).toBe(3n); // a new process is listed at once
      expect(second.has('1/3')).toBe(false); // a new thread of a known process: at the next listing
      rmSync(join(root, '1', 'task', '2'), { recursive: true });
      let found = second;
      for (let i = 0; i < 10 && !found.has('1/3'); i++) found = reader.read();
      expect(found.get('1/3')).toBe(40n);
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
    for (const k of mine) if (again.has(k)) expect(again.get(k)! >= first.get(k)!).toBe(true);
    reader.close();
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
