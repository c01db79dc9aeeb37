// The run record: one typed value that is both what the runner holds in memory and what
// run_config.json stores. The options that say what was run (schema.ts) plus the facts of this
// run: its id, when and by whom it started, who played, how many scenarios it planned, where
// it came from (provenance). write.ts is the only writer (it adds the reference's flat keys,
// derived from this record), read.ts the only reader (it turns older layouts into this one).
import { z } from 'zod';
import { AgentRecord, RecordedOptions, TargetRecord } from './schema.js';

/** 2: this layout. Records read from older layouts keep their number (legacy.ts). */
export const RUN_RECORD_SCHEMA_VERSION = 2;

const str = z.string();
const count = z.number().int().min(0);

/** Who played, with its exact version (the image's agent layer), as result.json records it too. */
export const AgentPlayed = z.object({ name: str, version: str.nullable().default(null) });

export const RunRecord = RecordedOptions.extend({
  /**
   * The layout the values were read from: 2 this one; 1 the flat copy beside the options;
   * 0 only the reference's flat keys (its runner, or ours before runs recorded their options):
   * the options below were rebuilt from those keys, which is why `rerun` refuses such a record.
   */
  schema_version: z.number().int(),
  /** Null only in records of a layout that had none (legacy.ts). */
  target: TargetRecord.nullable(),
  agent_options: AgentRecord.nullable(),
  /** The containers' label (`clean --run-id`); null in records older than it. */
  run_id: str.nullable().default(null),
  /** The first start; a retry keeps it and sets resumed_at. */
  started_at: str.nullable().default(null),
  resumed_at: str.optional(),
  user: str.default(''),
  agent: AgentPlayed.nullable().default(null),
  /** run-config only: the TOML's absolute path. */
  config_path: str.optional(),
  /** Hugging Face targets: where the download lives (the viewer reads scenarios from it). */
  dataset_cache_dir: str.optional(),
  /** The concrete splits the run read (target.splits is what was asked, possibly none). */
  splits: z.array(str).optional(),
  /** Dataset runs: the full selection (a retry keeps it and sets retry_num_scenarios). */
  num_scenarios: count.optional(),
  retry_num_scenarios: count.optional(),
  /** pass@N: which run_k this record is (total_runs in the file is run_options.pass_at). */
  run_number: z.number().int().min(1).optional(),
  /** A shard's place and sizes, what `aggregate` checks (shards/folders.ts validates it). */
  shard: z.record(str, z.unknown()).optional(),
  /** How model traffic flowed (gateway/run-routes.ts). */
  model_gateway: z.record(str, z.unknown()).optional(),
  /** An aggregate root's list of merged shards (shards/merged-record.ts). */
  aggregate: z.record(str, z.unknown()).optional(),
  // Provenance (provenance/): runner, engine, image id, dataset commit, scenario hashes.
  runner: z.object({ version: str, git_commit: str.nullable(), git_dirty: z.boolean().nullable() }).optional(),
  engine: z.record(str, z.unknown()).optional(),
  image_id: str.nullable().optional(),
  image_context_hash: str.nullable().optional(),
  dataset_revision_sha: str.nullable().optional(),
  dataset_revision_shas: z.record(str, str.nullable()).optional(),
  scenario_hashes: z.record(str, str).optional(),
  /** One sha256 over scenario_hashes (provenance/digests.ts); absent in records older than it. */
  dataset_sha256: str.optional(),
  /** sha256 of judge_options in canonical JSON; absent in records older than it. */
  judge_sha256: str.optional(),
});
export type RunRecord = z.output<typeof RunRecord>;
export type RunRecordInput = z.input<typeof RunRecord>;
