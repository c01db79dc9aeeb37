// One atomic write for the image side: a reader (the runner's archive copy, a CLI, the
// adapter) sees the old file or the new one, never half of one. The temp name is the
// caller's, so files keep the reference's `.tmp` names.
import { renameSync, writeFileSync } from 'node:fs';

export function writeFileAtomicSync(path: string, content: string, tmp = `${path}.tmp`): void {
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}
