// Agent2Agent (ARE's a2a mode): some of a scenario's apps are operated by app agents that the
// main agent reaches through one `expert-agent` command per app. docs/agent2agent.md.
export { AppAgents, type AppAgentHost } from './gate.js';
export { chooseAppAgentApps, scenarioSeed, NEVER_APP_AGENTS, type AppAgentChoice } from './select.js';
export { a2aSettingsFromEnv, A2A_ENV, APP_AGENT_MAX_STEPS, type A2aSettings } from './settings.js';
export { EXPERT_COMMAND, EXPERT_FN, agentCliSpecs, expertAppDef } from '../apps/expert-command.js';
export { PyRandom } from './py-random.js';
