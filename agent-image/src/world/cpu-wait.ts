// How long the run's processes waited for a CPU, read from the kernel's scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat: time on the CPU, time runnable but waiting for a CPU —
// the run-queue delay — and time slices; docs/daemon.md, "The clock and a busy machine").
// Inside the run's container /proc shows the container's processes only (its pid namespace),
// so this is the wait the machine's other work imposed on this run.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** Lists the threads of every process again at most this often (looks); new processes at once. */
const RELIST_EVERY = 10;

/**
 * Reads every thread's run-queue delay, ns, keyed "pid/tid". The daemon reads them 20 times a
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

  read(): Map<string, bigint> {
    const out = new Map<string, bigint>();
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
        const delay = this.delayOf(`${pid}/${tid}`);
        if (delay !== null) out.set(`${pid}/${tid}`, delay);
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

  private delayOf(key: string): bigint | null {
    let fd = this.files.get(key);
    try {
      if (fd === undefined) {
        const [pid, tid] = key.split('/') as [string, string];
        fd = openSync(join(this.procRoot, pid, 'task', tid, 'schedstat'), 'r');
        this.files.set(key, fd);
      }
      const n = readSync(fd, this.buf, 0, this.buf.length, 0);
      return runDelayIn(this.buf.toString('latin1', 0, n));
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

/** The second field of a schedstat line (run-queue delay, ns); null when malformed. */
export function runDelayIn(text: string): bigint | null {
  const field = text.trim().split(/\s+/)[1];
  return field && /^\d+$/.test(field) ? BigInt(field) : null;
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
 * Samples the run-queue delays and gives, per sample, how long the run was kept waiting since
 * the one before: the largest growth of any one thread. A turn's work is mostly one thread at a
 * time (a program's event loop, then the command it runs), so the longest wait of one thread
 * is that path's wait; a sum would count threads that waited side by side several times over.
 * A thread first seen counts its whole delay (it began since the last sample, or at the first).
 */
export class CpuWaitMeter {
  private last: Map<string, bigint> | null = null;
  private readonly read: () => Map<string, bigint>;

  constructor(read?: () => Map<string, bigint>) {
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

  /** Nanoseconds of waiting since the previous sample (0 at the first: it only sets the base). */
  sample(): bigint {
    const now = this.read();
    const before = this.last;
    this.last = now;
    if (!before) return 0n;
    let most = 0n;
    for (const [key, delay] of now) {
      const grew = delay - (before.get(key) ?? 0n);
      if (grew > most) most = grew;
    }
    return most;
  }
}
