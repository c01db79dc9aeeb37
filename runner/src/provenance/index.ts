// What a run record needs beyond the plan to reproduce a run: the runner's version and commit,
// the engine, the exact image, the dataset's resolved revision and a hash of every scenario.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { sha256File } from '../fsutil/hash.js';
import type { ResolvedDataset } from '../dataset/index.js';
import type { UnitBackend } from '../engine/index.js';
import { HASH_LABEL } from '../image/build-image.js';
import { projectRoot } from '../image/project-root.js';
import { datasetDigest } from './digests.js';
import pkg from '../../../package.json' with { type: 'json' };

export interface Provenance {
  runner: { version: string; git_commit: string | null; git_dirty: boolean | null };
  engine: Record<string, unknown>;
  /** The image's id (sha256:…); `image` (the reference's key) keeps the name it was run as. */
  image_id: string | null;
  image_context_hash: string | null;
  dataset_revision_sha: string | null;
  dataset_revision_shas?: Record<string, string | null>;
  /** scenario key (artifact dir relative to the output dir) → sha256 of the scenario file. */
  scenario_hashes: Record<string, string>;
  /** One digest over scenario_hashes: the dataset as run. */
  dataset_sha256: string;
}

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null; // not a checkout, or no git
  }
}

export function runnerInfo(): Provenance['runner'] {
  let root: string;
  try {
    root = projectRoot();
  } catch {
    return { version: pkg.version, git_commit: null, git_dirty: null };
  }
  const commit = git(['rev-parse', 'HEAD'], root);
  const status = commit ? git(['status', '--porcelain', '--untracked-files=no'], root) : null;
  return { version: pkg.version, git_commit: commit, git_dirty: status === null ? null : status !== '' };
}

/** The engine as it describes itself (kind, version, API version, endpoint without credentials). */
async function engineInfo(engine: UnitBackend): Promise<Record<string, unknown>> {
  try {
    return { name: engine.name, ...(await engine.describe()) };
  } catch {
    return { name: engine.name }; // a describe that fails must not lose the run record
  }
}

export { sha256File };

export function scenarioHashes(ds: ResolvedDataset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of ds.entries) out[join(e.relDir, e.id)] = e.sha256; // hashed by the dataset's one read
  return out;
}

export async function collectProvenance(engine: UnitBackend, image: string, ds: ResolvedDataset): Promise<Provenance> {
  const [labels, id, engineDesc] = await Promise.all([
    engine.images ? engine.images.labels(image).catch(() => null) : null,
    engine.images ? engine.images.id(image).catch(() => null) : null,
    engineInfo(engine),
  ]);
  const shas = ds.revisionShas;
  const hashes = scenarioHashes(ds);
  const distinct = shas ? [...new Set(Object.values(shas))] : [];
  return {
    runner: runnerInfo(),
    engine: engineDesc,
    image_id: id,
    image_context_hash: labels?.[HASH_LABEL] ?? null,
    // One commit when every split came from the same one; per split otherwise.
    dataset_revision_sha: distinct.length === 1 ? distinct[0]! : null,
    ...(shas && distinct.length !== 1 ? { dataset_revision_shas: shas } : {}),
    scenario_hashes: hashes,
    dataset_sha256: datasetDigest(hashes),
  };
}

export { DIGESTS_FILE, DIGESTED_ARTIFACTS, buildDigests, writeDigests, readDigests, digestArtifacts, digestOf, datasetDigest, canonicalJson, verdictOf, type DigestsManifest, type RunDigests, type Verdict } from './digests.js';
