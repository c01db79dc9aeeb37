// Harbor's Agent Trajectory Interchange Format: a run's scenario runs as ATIF trajectories.
export { ATIF_SCHEMA_VERSION, ATIF_KNOWN_VERSIONS, type AtifTrajectory, type AtifStep } from './schema.js';
export { trajectoryOfCalls, type TrajectoryFacts } from './from-calls.js';
export { validateTrajectory } from './validate.js';
export { exportAtif, ATIF_FILE, type AtifExport } from './export.js';
