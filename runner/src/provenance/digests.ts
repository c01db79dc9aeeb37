// digests.json: the sha256 of every artifact a verdict rests on, written once a run is judged, so
// `gaia2-runner verify` can tell an untouched run directory from an edited one. The run record
// (run_config.json) holds the image id and the scenario hashes; this file adds the dataset's one
// digest, the judge settings' digest, and per scenario run its artifacts' digests and verdict.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { sha256File, sha256Hex } from '../fsutil/hash.js';
import { findRunRecord } from '../record/index.js';
import { loadRunRecords } from '../report/index.js';

export const DIGESTS_FILE = 'digests.json';

/** What a scenario run's verdict rests on: its result, its event log and what it is judged with, the judge's own record, and the model traffic of the agent and the judge. */
export const DIGESTED_ARTIFACTS = ['result.json', 'events.jsonl', 'scenario.json', 'user_details.json', 'daemon_judgments.jsonl', 'model_traffic.jsonl', 'trace.jsonl', 'judge_trace.jsonl'] as const;

export type Verdict = 'pass' | 'fail' | 'error';

export interface RunDigests {
  scenario_id: string;
  verdict: Verdict;
  /** artifact file name → sha256 of its bytes; only the artifacts the run left. */
  files: Record<string, string>;
}

export interface DigestsManifest {
  version: 1;
  written_at: string;
  image_id: string | null;
  dataset_sha256: string | null;
  scenario_hashes: Record<string, string>;
  /** The judge settings as the run record holds them (null: hard checks only) and their digest. */
  judge_options: Record<string, unknown> | null;
  judge_sha256: string;
  /** How the units reached the network ([run] network); runs are not sealed beyond it. */
  network: string | null;
  /** A scenario run's folder, relative to the run directory → its digests. */
  runs: Record<string, RunDigests>;
}

/** JSON with keys sorted at every level, so equal values digest equally whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export const digestOf = (v: unknown): string => sha256Hex(canonicalJson(v));

/** One digest over the whole dataset: its scenario keys and their file hashes. */
export const datasetDigest = (scenarioHashes: Record<string, string>): string => digestOf(scenarioHashes);

export const verdictOf = (success: boolean | null | undefined): Verdict => (success === true ? 'pass' : success === false ? 'fail' : 'error');

/** The artifacts of one scenario run's folder that exist, with their digests. */
export function digestArtifacts(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of DIGESTED_ARTIFACTS) {
    const p = join(dir, name);
    if (existsSync(p)) out[name] = sha256File(p);
  }
  return out;
}

/** The manifest of a judged run directory (pass@k: one over every run_k). */
export function buildDigests(root: string): DigestsManifest {
  const rec = findRunRecord(root);
  const runs: Record<string, RunDigests> = {};
  for (const r of loadRunRecords(root)) {
    const dir = dirname(r.path);
    runs[relative(root, dir) || '.'] = { scenario_id: r.result.scenario_id, verdict: verdictOf(r.result.success), files: digestArtifacts(dir) };
  }
  const hashes = rec?.scenario_hashes ?? {};
  const judge = (rec?.judge_options as Record<string, unknown> | null | undefined) ?? null;
  return {
    version: 1,
    written_at: new Date().toISOString(),
    image_id: rec?.image_id ?? null,
    dataset_sha256: rec?.scenario_hashes ? datasetDigest(hashes) : null,
    scenario_hashes: hashes,
    judge_options: judge,
    judge_sha256: digestOf(judge),
    network: rec?.run_options?.network ?? null,
    runs,
  };
}

/** <root>/digests.json, written whole or not at all. */
export async function writeDigests(root: string): Promise<DigestsManifest> {
  const m = buildDigests(root);
  await writeJsonAtomic(join(root, DIGESTS_FILE), m);
  return m;
}

export function readDigests(root: string): DigestsManifest | null {
  const p = join(root, DIGESTS_FILE);
  if (!existsSync(p)) return null;
  return JSON.parse(readFileSync(p, 'utf8')) as DigestsManifest;
}
