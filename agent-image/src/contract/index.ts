// The host/image contract, imported by both sides. See docs/contract.md.
export * from './paths.js';
export * from './events.js';
export * from './status.js';
export * from './routes.js';
export * from './result.js';
export * from './scenario.js';
export * from './features.js';
export * from './noise.js';
export * from './agent-layer.js';
export * from './carry.js';
