// Copies the run's artifacts out of the container through the engine API and writes them,
// with result.json, into the scenario's output directory.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContainerHandle } from '../engine/index.js';
import { ARTIFACT_FILES } from '../../../agent-image/src/contract/index.js';
import { redact } from '../secrets/redact.js';

/** Reads every known artifact (missing ones are skipped); returns host name → content. */
export async function collectArtifacts(c: ContainerHandle): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const reads = await Promise.allSettled(ARTIFACT_FILES.map(async ([path, name]) => [name, await c.readFile(path)] as const));
  for (const r of reads) {
    if (r.status === 'fulfilled' && r.value[1] !== null) out.set(r.value[0], r.value[1]);
  }
  return out;
}

/** Writes artifacts; text passes through redact() so no secret lands on disk. */
export async function writeArtifacts(dir: string, files: Map<string, Buffer>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    [...files].map(([name, content]) => writeFile(join(dir, name), redact(content.toString('utf8')))),
  );
}
