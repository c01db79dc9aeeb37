// How long the run's processes waited for a CPU, read from the kernel's scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat: time on the CPU, time runnable but waiting for a CPU —
// the run-queue delay — and time slices, docs/daemon.md "The clock and a busy machine").
// Inside the run's container /proc shows the container's processes only (its pid namespace),
// so this is the wait the machine's other work imposed on this run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each thread's run-queue delay, ns, keyed "pid/tid"; an unreadable /proc gives an empty map. */
export function readRunDelays(procRoot = '/proc'): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const pid of entries(procRoot)) {
    if (!/^\d+$/.test(pid)) continue;
    const tasks = join(procRoot, pid, 'task');
    for (const tid of entries(tasks)) {
      const delay = runDelayOf(join(tasks, tid, 'schedstat'));
      if (delay !== null) out.set(`${pid}/${tid}`, delay);
    }
  }
  return out;
}

/** The second field of a schedstat line (run-queue delay, ns); null when gone or malformed. */
export function runDelayOf(file: string): bigint | null {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return null; // the thread ended between the listing and the read
  }
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

/**
 * Samples the run-queue delays and gives, per sample, how long the run was kept waiting since
 * the one before: the largest growth of any one thread. A turn's work is mostly one thread at a
 * time (a program's event loop, then the command it runs), so the longest wait of one thread
 * is that path's wait; a sum would count threads that waited side by side several times over.
 * A thread first seen counts its whole delay (it began since the last sample, or at the first).
 */
export class CpuWaitMeter {
  private last: Map<string, bigint> | null = null;

  constructor(private readonly read: () => Map<string, bigint> = () => readRunDelays()) {}

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
