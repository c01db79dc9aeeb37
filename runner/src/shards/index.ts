// Dataset shards merged: `gaia2-runner aggregate` (docs/runner.md, Shards). The split itself is
// dataset/shard.ts; the folder layout plan/shard.ts.
export { aggregateShards, type AggregateOutcome } from './aggregate.js';
export { readShardFolders, type ShardFolder, type ShardFacts } from './folders.js';
export { checkNoDuplicates, checkSameSettings, checkShardSet, incompleteShards, type IncompleteShard } from './check.js';
