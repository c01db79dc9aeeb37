// run_config.json of an aggregate root: the shards' common settings (the first shard's record,
// so the report header and the viewer read it like any run's), the whole selection's size, and
// an `aggregate` block that lists the merged shards. Its target has no shard, so `rerun` of the
// root runs the whole selection again.
import { datasetDigest } from '../provenance/index.js';
import type { RunRecord } from '../record/index.js';
import type { IncompleteShard } from './check.js';
import type { ShardFolder } from './folders.js';

/** Fields of a shard's record that describe that shard alone. */
const PER_SHARD = ['shard', 'resumed_at', 'retry_num_scenarios', 'run_number', 'scenario_hashes', 'dataset_sha256'] as const;

export function mergedRecord(shards: readonly ShardFolder[], incomplete: readonly IncompleteShard[], now: Date): RunRecord {
  const first = shards[0]!;
  const rec: RunRecord = structuredClone(first.record);
  for (const k of PER_SHARD) delete rec[k];
  if (rec.target && rec.target.kind !== 'scenario') delete rec.target.shard;
  const started = shards.map((s) => s.record.started_at).filter((v): v is string => !!v).sort();
  if (started[0]) rec.started_at = started[0];
  rec.run_id = null;
  rec.num_scenarios = first.facts.dataset_num_scenarios;
  const hashes: Record<string, string> = Object.assign({}, ...shards.map((s) => s.record.scenario_hashes ?? {}));
  if (Object.keys(hashes).length) {
    rec.scenario_hashes = hashes;
    rec.dataset_sha256 = datasetDigest(hashes); // the whole selection's, not the first shard's
  }
  rec.aggregate = {
    aggregated_at: now.toISOString(),
    num_shards: first.spec.count,
    complete: incomplete.length === 0,
    shards: shards.map((s) => ({
      dir: s.rel,
      shard_id: s.spec.index,
      run_id: s.record.run_id,
      started_at: s.record.started_at,
      num_scenarios: s.facts.num_scenarios,
      results: s.results.length,
    })),
  };
  return rec;
}
