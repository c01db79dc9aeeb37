// One atomic write for the image side: a reader (the runner's archive copy, a CLI, the
// adapter) sees the old file or the new one, never half of one. The temp name is the
// caller's, so files keep the reference's `.tmp` names.
import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';

export function writeFileAtomicSync(path: string, content: string, tmp = `${path}.tmp`): void {
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/**
 * The same for a text made in pieces: `produce` hands each piece to `write` as it is made, so
 * a large file never needs one string (or one buffer) of its whole content.
 */
export function writeFileAtomicPiecesSync(path: string, produce: (write: (text: string) => void) => void, tmp = `${path}.tmp`): void {
  const fd = openSync(tmp, 'w');
  try {
    produce((text) => {
      const bytes = Buffer.from(text);
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    });
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}
