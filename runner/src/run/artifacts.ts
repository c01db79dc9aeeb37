// Copies the run's artifacts out of the container and writes them, with result.json, into the
// scenario's output directory. Our image serves them all in one local HTTP answer
// (GET /artifacts: a tar stream with the artifacts-tar feature, base64 in JSON before it);
// other images, a dead adapter, or files the daemon cannot read go through
// the engine's archive API (one request per directory).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { ContainerHandle } from '../engine/index.js';
import type { AdapterClient } from './adapter-client.js';
import { ARTIFACT_FILES } from '@gaia2/contract';
import { redactBytes } from '../secrets/redact.js';

/** Reads every known artifact (missing ones are skipped); returns host name → content. */
export async function collectArtifacts(c: ContainerHandle, adapter?: AdapterClient | null, tar = false): Promise<Map<string, Buffer>> {
  if (adapter) {
    const got = await (tar ? adapter.artifactsTar() : adapter.artifacts()).catch(() => null);
    if (got) {
      if (got.unreadable.length === 0) return got.files;
      const rest = await readByArchive(c, new Set(got.unreadable));
      return new Map([...got.files, ...rest]);
    }
  }
  return readByArchive(c);
}

async function readByArchive(c: ContainerHandle, only?: ReadonlySet<string>): Promise<Map<string, Buffer>> {
  const byDir = new Map<string, Array<[string, string]>>();
  for (const [path, name] of ARTIFACT_FILES) {
    if (only && !only.has(name)) continue;
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

/**
 * Writes a finished run's artifacts as the run directory keeps them: with the agent's last reply
 * as read from events.jsonl (agent_response.txt), and an events.jsonl even when none came.
 */
export async function keepRunArtifacts(dir: string, files: Map<string, Buffer>, agentResponse: string | null): Promise<void> {
  files.set('agent_response.txt', Buffer.from(agentResponse ?? ''));
  if (!files.has('events.jsonl')) files.set('events.jsonl', Buffer.from(''));
  await writeArtifacts(dir, files);
}

/** Writes artifacts, however they were collected; each passes through redactBytes() so no secret lands on disk. */
export async function writeArtifacts(dir: string, files: Map<string, Buffer>): Promise<void> {
  await mkdir(dir, { recursive: true });
  // A name may hold one directory (agent-trace/<file>); nothing may climb out of `dir`.
  const safe = [...files].filter(([name]) => /^[\w.-]+(\/[\w.-]+)?$/.test(name) && !name.split('/').includes('..'));
  for (const sub of new Set(safe.map(([name]) => dirname(name)).filter((d) => d !== '.'))) await mkdir(join(dir, sub), { recursive: true });
  await Promise.all(safe.map(([name, content]) => writeFile(join(dir, name), redactBytes(content))));
}
