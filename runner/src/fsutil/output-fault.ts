// A write to the output directory that failed because of the disk, not the run: no space, a
// quota, a read-only or failing file system. Every later write there would fail the same way,
// so the runner stops starting runs instead of turning the rest of the queue into crashes.
const DISK_CODES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EIO: 'input/output error on the disk',
};

/** What went wrong with the output disk, or null when the error is not the disk's. */
export function outputFaultOf(e: unknown): { code: string; path: string | null; what: string } | null {
  const err = e as { code?: unknown; path?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const what = DISK_CODES[code];
  return what ? { code, path: typeof err?.path === 'string' ? err.path : null, what } : null;
}

/** The run stopped because its output could not be written (exit 3: infrastructure). */
export class OutputWriteError extends Error {
  override name = 'OutputWriteError';
}
