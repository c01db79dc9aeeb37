// The run record (run_config.json): its options' schema, RunPlan → record, finding and reading
// a record (the pass@N run_1 rule), and the result cache's key fields. config/from-run-record.ts
// turns a record back into a plan (it resolves keys from the environment).
export { RecordedOptions, type RecordedOptions as RecordedOptionsData } from './schema.js';
export { toRecord, LITERAL_KEY } from './to-record.js';
export { readRunRecord, findRunRecord, recordedOptions, runRecordFile, type RunRecord } from './read.js';
export { CACHE_KEY_EXCLUDED, cacheKeyOptions } from './cache-key.js';
