export { runScenario } from './scenario-run.js';
export type { ScenarioRunOptions, RunScenarioFn, RunTimeouts, AgentName } from './options.js';
export { DEFAULT_TIMEOUTS } from './options.js';
export { formatSimTime } from './scenario-facts.js';
export { BackgroundWork } from './background-work.js';
export { NEVER_ACCEPTED } from './unit-ready.js';
