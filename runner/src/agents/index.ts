export { packageSpec, type AgentAdapter, type AgentOption, type AgentPackage } from './adapter.js';
export { findAdapter, isKnownAgent, knownAgentNames, listAdapters, unknownAgentMessage } from './registry.js';
export { EXTERNAL_AGENT, LAUNCHER_RUNTIME, OWN_AGENTS, isOwnAgent, type OwnAgent } from './runtimes.js';
