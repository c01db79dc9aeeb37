// computed_stats.json's `integrity`: per phase, what the phase's digests.json sealed (the image,
// the dataset, the judge settings) and the digest of that file itself, which pins every scenario
// run's artifact digests; `sealed` says whether a phase has one at all. Whether the runs' network
// was sealed is another matter: [run] network travels with them, and `network_sealed` counts
// the runs whose result.json says their agent's network was sealed (docs/config.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File } from '../fsutil/hash.js';
import { PHASE_NAMES } from '../plan/phases.js';
import { DIGESTS_FILE, readDigests } from '../provenance/index.js';
import { findRunRecord } from '../record/index.js';
import { loadRunRecords } from '../report/index.js';

export interface PhaseIntegrity {
  sealed: boolean;
  digests_sha256: string | null;
  image_id: string | null;
  dataset_sha256: string | null;
  judge_sha256: string | null;
  network: string | null;
  runs: number;
  /** Finished runs of the phase, and how many of them ran with a sealed network. */
  network_sealed: { sealed: number; of: number };
}

export function integrityOf(root: string): Record<string, PhaseIntegrity> {
  const out: Record<string, PhaseIntegrity> = {};
  for (const phase of PHASE_NAMES) {
    const dir = join(root, phase);
    if (!existsSync(dir)) continue;
    const m = readDigests(dir);
    const rec = findRunRecord(dir);
    const results = loadRunRecords(dir).map((r) => r.result);
    out[phase] = {
      sealed: m !== null,
      digests_sha256: m ? sha256File(join(dir, DIGESTS_FILE)) : null,
      image_id: m?.image_id ?? rec?.image_id ?? null,
      dataset_sha256: m?.dataset_sha256 ?? rec?.dataset_sha256 ?? null,
      judge_sha256: m?.judge_sha256 ?? rec?.judge_sha256 ?? null,
      network: m?.network ?? rec?.run_options?.network ?? null,
      runs: m ? Object.keys(m.runs).length : 0,
      network_sealed: { sealed: results.filter((r) => r.network_sealed === true).length, of: results.length },
    };
  }
  return out;
}
