// The run's stop signals: the user's (Ctrl-C, SIGTERM) or the output disk's, and one for starts
// alone (the whole run's budget spent: no new run, the ones in flight go on). When a result
// cannot be written because of the disk (full, quota, read-only), no new run starts, the runs
// in flight are stopped like on Ctrl-C, and the invocation ends with one clear error naming
// the file, instead of every later run crashing on the same disk. What was written stays
// whole (atomic writes), so `--retry` resumes once there is space.
import { setMaxListeners } from 'node:events';
import { OutputWriteError, outputFaultOf } from '../fsutil/output-fault.js';

export class RunStop {
  private readonly ac = new AbortController();
  /** No new run starts (aborted with `ac`, or alone when the whole run's budget is spent). */
  private readonly starts = new AbortController();
  /** Why no new run starts while runs in flight go on (the whole run's budget), once set. */
  startsStopped: string | null = null;
  private fault: { code: string; path: string | null; what: string } | null = null;

  constructor(
    user: AbortSignal | undefined,
    private readonly log: (l: string) => void,
    concurrency: number,
  ) {
    // every run in flight waits on it (a few listeners each): not a leak at -j 256
    setMaxListeners(Math.max(10, concurrency * 4), this.ac.signal);
    this.ac.signal.addEventListener('abort', () => this.starts.abort(), { once: true });
    if (user?.aborted) this.ac.abort();
    else user?.addEventListener('abort', () => this.ac.abort(), { once: true });
  }

  get signal(): AbortSignal {
    return this.ac.signal;
  }

  /** Aborted when no new run may start: the run's pool follows it. */
  get startSignal(): AbortSignal {
    return this.starts.signal;
  }

  /** No new run starts; the runs in flight go on. Said once. */
  stopStarting(why: string): void {
    if (this.starts.signal.aborted) return;
    this.startsStopped = why;
    this.log(`${why}: no new scenario run starts; the runs in flight finish. Raise the cap and resume with --retry to run the rest.`);
    this.starts.abort();
  }

  /** Stopped by the user (not by the disk). */
  get interrupted(): boolean {
    return this.ac.signal.aborted && !this.fault;
  }

  /** True when `e`, from writing `path`, is the output disk's failure: then the run stops (said once). */
  takeOutputFault(e: unknown, path: string): boolean {
    const f = outputFaultOf(e);
    if (!f) return false;
    if (!this.fault) {
      this.fault = { ...f, path: f.path ?? path };
      this.log(`Cannot write ${f.path ?? 'to the output directory'}: ${f.what} (${f.code}). No new run starts; the runs in flight are stopped.`);
      this.ac.abort();
    }
    return true;
  }

  /** After the pool: the disk's stop as the invocation's error. */
  throwIfOutputFault(out: string | null): void {
    if (!this.fault) return;
    const f = this.fault;
    throw new OutputWriteError(
      `the run stopped: cannot write ${f.path ?? 'to the output directory'}: ${f.what} (${f.code}). Every result written before is kept; free space on the output disk, then resume with --retry${out ? ` --output-dir ${out}` : ''}`,
    );
  }
}
