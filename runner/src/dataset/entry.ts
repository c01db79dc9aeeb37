// One scenario selected for a run, and where its artifacts go.
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { CANONICAL_SPLITS } from '../plan/plan.js';

export interface ScenarioEntry {
  /** Absolute path of the scenario JSON. */
  file: string;
  /** metadata.definition.scenario_id, else the file stem (one rule everywhere, spec §10.3). */
  id: string;
  /** Directory of the file relative to the dataset root ('' when flat); mirrored in the output. */
  relDir: string;
  split: string | null;
  /** metadata.definition.start_time, else top-level start_time (0/absent: null), for FAKETIME. */
  startTime: number | null;
  /** metadata.definition.duration (absent or 0: null); the poll deadline grows with it. */
  duration: number | null;
  /** sha256 of the file's bytes as parsed: provenance, the result cache's key, the check at delivery. */
  sha256: string;
  /** Size of the file in bytes. */
  bytes: number;
  /** An event-less scenario's first user task (sent with POST /notify); null when it has events. */
  notifyTask: string | null;
}

export const PARTITION_NAMES = new Set(['train', 'validation', 'test']);
const isSplit = (s: string | undefined): s is string => !!s && (CANONICAL_SPLITS as readonly string[]).includes(s);

export function stem(file: string): string {
  return basename(file, extname(file));
}

/** Split of a file from its place under the dataset root (spec §7.7), else its metadata. */
export function inferSplit(file: string, root: string | null, metadataSplit: string | null): string | null {
  if (root) {
    const rel = relative(root, file);
    const parts = rel.split(sep);
    if (!rel.startsWith('..') && parts.length >= 2) return parts[0]!;
    const name = basename(root);
    if (isSplit(name)) return name;
    if (PARTITION_NAMES.has(name) && isSplit(basename(dirname(root)))) return basename(dirname(root));
  }
  if (metadataSplit) return metadataSplit;
  const parent = basename(dirname(file));
  const cand = PARTITION_NAMES.has(parent) ? basename(dirname(dirname(file))) : parent;
  return isSplit(cand) ? cand : null;
}

/** Artifact directory of an entry: <out>[/run_k]/<relDir>/<id>. */
export function artifactDir(outputDir: string, entry: ScenarioEntry, runIndex: number | null): string {
  return join(outputDir, runIndex === null ? '' : `run_${runIndex}`, entry.relDir, entry.id);
}
