// The model gateway (docs/gateway.md): one per run, on the runner's machine; containers hold
// per-container tokens, the gateway holds the keys, enforces limits, retries, records and replays.
export { startGateway, type Gateway, type GatewayOptions, type GatewayStats, type GatewayFailure, type Upstream } from './server.js';
export { startRunGateway, gatewayDecision } from './run-gateway.js';
export type { RunGateway, GatewayRecord } from './run-routes.js';
export { kindOf, knownGatewayProviders, type ApiKind } from './api-kinds.js';
export { TRAFFIC_FILE, type TrafficLine } from './record.js';
export { replayFrom, firstDifference, maskVolatile, type ReplaySource } from './replay.js';
export { GAVE_UP_HEADER } from './forward.js';
export { ROLES, type Role, type Grant } from './tokens.js';
