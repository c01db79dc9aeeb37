// How many processes the kernel killed in this container for its memory limit: the memory
// cgroup's own count (cgroup v2 `memory.events`, v1 `memory.oom_control`, both "oom_kill N").
// Read after the world daemon died by SIGKILL, it tells an out-of-memory kill from any other.
import { readFileSync } from 'node:fs';

const FILES = ['/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control'];

/** The count, or null when no memory cgroup file says (an old kernel, no cgroup mounted). */
export function oomKills(files: readonly string[] = FILES): number | null {
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    const m = /^oom_kill (\d+)$/m.exec(text);
    if (m) return Number(m[1]);
  }
  return null;
}
