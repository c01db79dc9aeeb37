// The run record (run_config.json): one typed record (run-record.ts) that is both the in-memory
// value and the file, its one writer (write.ts: adds the reference's flat keys, derived) and
// its one reader (read.ts: finds a run's record, the pass@N run_1 rule; older layouts via
// legacy.ts), the options' schema and RunPlan → options, and the result cache's key fields.
// config/from-run-record.ts turns a record back into a plan (it resolves keys from the environment).
export { RecordedOptions, type RecordedOptions as RecordedOptionsData } from './schema.js';
export { RunRecord, RUN_RECORD_SCHEMA_VERSION, type RunRecordInput } from './run-record.js';
export { toRecord, LITERAL_KEY } from './to-record.js';
export { readRunRecord, findRunRecord, parseRunRecord, recordedOptions, runRecordFile } from './read.js';
export { writeRunRecord, runRecordJson, RUN_RECORD_FILE } from './write.js';
export { CACHE_KEY_EXCLUDED, cacheKeyOptions } from './cache-key.js';
