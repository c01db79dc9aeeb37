// Engine outages: which failures are one (classify.ts) and the one wait for the engine to come back (gate.ts).
export { isOutageError, isOutageResult, suspectOutage } from './classify.js';
export { OutageGate, type OutageGateOptions } from './gate.js';
