// Copies the run's artifacts out of the container through the engine API and writes them,
// with result.json, into the scenario's output directory.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { ContainerHandle } from '../engine/index.js';
import { ARTIFACT_FILES } from '../../../agent-image/src/contract/index.js';
import { redact } from '../secrets/redact.js';

/**
 * Reads every known artifact (missing ones are skipped) with one archive request per
 * directory; returns host name → content.
 */
export async function collectArtifacts(c: ContainerHandle): Promise<Map<string, Buffer>> {
  const byDir = new Map<string, Array<[string, string]>>();
  for (const [path, name] of ARTIFACT_FILES) {
    const dir = posix.dirname(path);
    byDir.set(dir, [...(byDir.get(dir) ?? []), [posix.basename(path), name]]);
  }
  const out = new Map<string, Buffer>();
  await Promise.all(
    [...byDir].map(async ([dir, files]) => {
      const got = await c.readFiles(dir, files.map(([base]) => base));
      for (const [base, name] of files) {
        const content = got.get(base);
        if (content) out.set(name, content);
      }
    }),
  );
  return out;
}

/** Writes artifacts; text passes through redact() so no secret lands on disk. */
export async function writeArtifacts(dir: string, files: Map<string, Buffer>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    [...files].map(([name, content]) => writeFile(join(dir, name), redact(content.toString('utf8')))),
  );
}
