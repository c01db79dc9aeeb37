// The shard folders of an aggregate root (<root>/shards/<I>-of-<N>/), each read with its run
// record and its results. Reading only: aggregate never writes into a shard's folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../plan/errors.js';
import { listShardFolders, SHARDS_DIR, type ShardFolderName } from '../plan/shard.js';
import { readRunRecord, type RunRecord } from '../record/index.js';
import { loadRunRecords, type RunRecord as ResultRecord } from '../report/index.js';

/** What a shard's run_config.json says of its place (orchestrator/run-config-file.ts). */
export interface ShardFacts {
  shard_id: number;
  num_shards: number;
  /** Scenarios this shard planned (per run for pass@N). */
  num_scenarios: number;
  /** Scenarios of the whole selection, over all shards. */
  dataset_num_scenarios: number;
}

export interface ShardFolder extends ShardFolderName {
  /** Its run_config.json (for pass@N, run_1's). */
  recordFile: string;
  record: RunRecord;
  facts: ShardFacts;
  passAt: number;
  results: ResultRecord[];
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function factsOf(rec: RunRecord, file: string, spec: ShardFolderName['spec']): ShardFacts {
  const s = rec.shard as Partial<ShardFacts> | undefined;
  if (!s || typeof s !== 'object')
    throw new ConfigError(`${file}: field "shard" is missing: this folder's run was not started with --shard-id/--num-shards ([run].shard_id/num_shards)`);
  for (const k of ['shard_id', 'num_shards', 'num_scenarios', 'dataset_num_scenarios'] as const)
    if (!isCount(s[k])) throw new ConfigError(`${file}: field "shard.${k}" must be a whole number (got ${JSON.stringify(s[k])})`);
  const facts = s as ShardFacts;
  if (facts.shard_id !== spec.index || facts.num_shards !== spec.count)
    throw new ConfigError(`${file}: the run is shard ${facts.shard_id}-of-${facts.num_shards} but its folder is named ${spec.index}-of-${spec.count} (rename the folder back)`);
  return facts;
}

/** Every `<I>-of-<N>` folder under <root>/shards with its record and results (other entries are not shards). */
export function readShardFolders(root: string, warn: (line: string) => void): ShardFolder[] {
  const base = join(root, SHARDS_DIR);
  if (!existsSync(base)) throw new ConfigError(`${root}: no ${SHARDS_DIR}/ folder (each \`run-dataset --shard-id I --num-shards N --output-dir ${root}\` writes ${SHARDS_DIR}/<I>-of-<N>/)`);
  const found = listShardFolders(root);
  if (!found.length) throw new ConfigError(`${base}: no shard folders (<I>-of-<N>) in it`);
  return found.map((f) => {
    const { file, rec } = readRunRecord(f.dir);
    return { ...f, recordFile: file, record: rec, facts: factsOf(rec, file, f.spec), passAt: rec.run_options.pass_at, results: loadRunRecords(f.dir, warn) };
  });
}
