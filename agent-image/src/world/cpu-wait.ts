// How long the run's processes waited for a CPU, read from the kernel's scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat: time on the CPU, time runnable but waiting for a CPU —
// the run-queue delay — and time slices; docs/daemon.md, "The clock and a busy machine").
// Inside the run's container /proc shows the container's processes only (its pid namespace),
// so this is the wait the machine's other work imposed on this run.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Lists the threads of every process again at most this often (looks); new processes at once. */
const RELIST_EVERY = 10;

/** One thread's scheduler totals, ns: time on a CPU, time runnable but waiting for one. */
export interface ThreadTimes {
  ran: bigint;
  waited: bigint;
}

/**
 * Reads every thread's time on a CPU and run-queue delay, ns, keyed "pid/tid". The daemon reads them 20 times a
 * second, so each thread's file stays open and is read again from its start (procfs renders
 * it afresh on every read): one system call per thread and look, not an open, a stat, a read
 * and a close. A thread that appears between two listings of its process is found at the
 * next one; its whole delay counts then (CpuWaitMeter), so nothing it waited is lost.
 */
export class RunDelayReader {
  private readonly files = new Map<string, number>();
  private readonly tasks = new Map<string, string[]>();
  private readonly buf = Buffer.alloc(256);
  private looks = 0;

  constructor(private readonly procRoot = '/proc') {}

  read(): Map<string, ThreadTimes> {
    const out = new Map<string, ThreadTimes>();
    const relist = this.looks++ % RELIST_EVERY === 0;
    const pids = entries(this.procRoot).filter((p) => /^\d+$/.test(p));
    const alive = new Set(pids);
    for (const pid of [...this.tasks.keys()]) if (!alive.has(pid)) this.forget(pid);
    for (const pid of pids) {
      let tids = this.tasks.get(pid);
      if (!tids || relist) {
        const listed = entries(join(this.procRoot, pid, 'task'));
        for (const gone of (tids ?? []).filter((t) => !listed.includes(t))) this.drop(`${pid}/${gone}`);
        tids = listed;
        this.tasks.set(pid, tids);
      }
      for (const tid of tids) {
        const times = this.timesOf(`${pid}/${tid}`);
        if (times !== null) out.set(`${pid}/${tid}`, times);
      }
    }
    return out;
  }

  /** Closes every file (the reader can be used again: it opens them anew). */
  close(): void {
    for (const fd of this.files.values()) closeQuietly(fd);
    this.files.clear();
    this.tasks.clear();
  }

  private timesOf(key: string): ThreadTimes | null {
    let fd = this.files.get(key);
    try {
      if (fd === undefined) {
        const [pid, tid] = key.split('/') as [string, string];
        fd = openSync(join(this.procRoot, pid, 'task', tid, 'schedstat'), 'r');
        this.files.set(key, fd);
      }
      const n = readSync(fd, this.buf, 0, this.buf.length, 0);
      return threadTimesIn(this.buf.toString('latin1', 0, n));
    } catch {
      this.drop(key); // the thread ended (its file is gone, or reading it says so)
      return null;
    }
  }

  /** The number of files held open (tests). */
  get openFiles(): number {
    return this.files.size;
  }

  private drop(key: string): void {
    const fd = this.files.get(key);
    if (fd !== undefined) closeQuietly(fd);
    this.files.delete(key);
  }

  private forget(pid: string): void {
    for (const tid of this.tasks.get(pid) ?? []) this.drop(`${pid}/${tid}`);
    this.tasks.delete(pid);
  }
}

/** The first two fields of a schedstat line (on a CPU, waiting for one; ns); null when malformed. */
export function threadTimesIn(text: string): ThreadTimes | null {
  const [ran, waited] = text.trim().split(/\s+/);
  return ran && waited && /^\d+$/.test(ran) && /^\d+$/.test(waited) ? { ran: BigInt(ran), waited: BigInt(waited) } : null;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * Samples the threads' totals and says, per sample, how much wall time the machine's other work
 * cost the run since the sample before (docs/daemon.md, "The clock and a busy machine"):
 *
 * - The run needs R CPUs (its threads' time runnable, on a CPU or waiting, over the wall time)
 *   and got U (their time on a CPU). On a machine of its own it would have had min(R, C) of
 *   its C CPUs.
 * - Needing more than C, it waits for itself as much as for others: it lost (1 − U/C) of the
 *   interval. So a run cannot buy itself time by keeping more threads busy than it has CPUs.
 * - Needing at most C, it lost what it waited: as long as its longest-waiting thread, at most
 *   the sum of all threads' waits. A turn's work is mostly one thread at a time (a program's
 *   event loop, then the command it runs), and threads that waited side by side lost the same
 *   wall time once, not several times.
 *
 * A thread first seen counts its whole totals (it began since the last sample, or at the first).
 */
export class CpuWaitMeter {
  private last: Map<string, ThreadTimes> | null = null;
  private readonly read: () => Map<string, ThreadTimes>;

  /** `cpus`: the CPUs the run may use (default: this process's, os.availableParallelism). */
  constructor(
    read?: () => Map<string, ThreadTimes>,
    private readonly cpus: number = availableParallelism(),
  ) {
    if (read) this.read = read;
    else {
      const reader = new RunDelayReader();
      this.read = () => reader.read();
    }
  }

  /** Whether the statistics are there at all (a kernel without them, or no /proc). */
  get available(): boolean {
    return this.read().size > 0;
  }

  /** Wall ns the run lost to the machine's other work over the `wallNs` since the previous sample (0 at the first). */
  sample(wallNs: number): number {
    const now = this.read();
    const before = this.last;
    this.last = now;
    if (!before || wallNs <= 0) return 0;
    let ran = 0;
    let waited = 0;
    let longest = 0;
    for (const [key, t] of now) {
      const was = before.get(key);
      const r = Number(t.ran - (was?.ran ?? 0n));
      const w = Number(t.waited - (was?.waited ?? 0n));
      ran += r;
      waited += w;
      if (w > longest) longest = w;
    }
    const needed = (ran + waited) / wallNs;
    const got = ran / wallNs;
    const lost = needed > this.cpus ? Math.max(0, 1 - got / this.cpus) * wallNs : Math.min(longest, waited);
    return Math.min(lost, wallNs);
  }
}
