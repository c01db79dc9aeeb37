export { EXACT_VERSION, packageSpec, type AgentAdapter, type AgentOption, type AgentPackage } from './adapter.js';
export { findAdapter, isKnownAgent, knownAgentNames, listAdapters, unknownAgentMessage } from './registry.js';
export { EXTERNAL_AGENT, LAUNCHER_RUNTIME, OWN_AGENTS, agentRuntime, isOwnAgent, type OwnAgent } from './runtimes.js';
