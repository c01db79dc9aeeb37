export { executePlan, newRunId, removeLabelled, type ExecuteDeps, type ExecuteOutcome } from './execute.js';
export { buildTasks, selectForRetry, priorOutcome, type Task } from './tasks.js';
export { runPool } from './pool.js';
export { allocatePort, freePort, PORT_ALLOCATION_ATTEMPTS } from './ports.js';
export { readRunConfig, runConfigRecord } from './run-config-file.js';
