// daemon_status.json: written atomically (tmp + rename, trailing newline) so the runner's
// `podman cp` fallback never reads half a file (docs/daemon.md, "Lines and statuses").
import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../fsutil/atomic.js';
import type { DaemonStatus } from '../contract/status.js';

export function writeStatusFile(path: string, status: DaemonStatus): void {
  writeFileAtomicSync(path, JSON.stringify(status) + '\n');
}

/** The status file's content, or null when missing or unreadable (the adapter then says "waiting"). */
export function readStatusFile(path: string): DaemonStatus | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as DaemonStatus;
    return v && typeof v === 'object' && typeof v.status === 'string' ? v : null;
  } catch {
    return null;
  }
}
