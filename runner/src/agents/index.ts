export { EXACT_VERSION, LATEST_VERSION, packageSpec, type AgentAdapter, type AgentOption, type AgentPackage } from './adapter.js';
export { agentRegistry, createRegistry, adapterFor, findAdapter, knownAgentNames, listAdapters, unknownAgentMessage, type AgentRegistry } from './registry.js';
export { EXTERNAL_AGENT, LAUNCHER_RUNTIME, OWN_AGENTS, agentRuntime, isOwnAgent, type OwnAgent } from './runtimes.js';
export { KIT, KIT_DIR, KIT_FILE, KIT_LAYER_DIR } from './launcher-kit.js';
