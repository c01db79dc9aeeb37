// The default agent's tools when some apps are operated by app agents (welcome.app_agents):
// functions mode offers only <cli>__expert_agent for those apps, shell commands may run long
// enough for a whole app-agent conversation, and nothing changes without app agents.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_OPTIONS } from '../../../../agent-image/src/agents/default/index.js';
import { APP_AGENT_SHELL_TIMEOUT_MS, buildTools, type AgentHost } from '../../../../agent-image/src/agents/default/runtime.js';

const host = (tools: string[], appAgents?: string[]): AgentHost =>
  ({ welcome: { tools, sim_time: '2025-10-09 09:00:00', ...(appAgents ? { app_agents: appAgents } : {}) } }) as unknown as AgentHost;

describe('tools under Agent2Agent', () => {
  it('functions mode: only expert_agent for an app operated by an app agent, the full set for the others', () => {
    const tools = Object.keys(buildTools(host(['contacts', 'shopping'], ['shopping']), { ...DEFAULT_AGENT_OPTIONS, tools: 'functions' }));
    expect(tools.filter((t) => t.startsWith('shopping__'))).toEqual(['shopping__expert_agent']);
    expect(tools.filter((t) => t.startsWith('contacts__')).length).toBeGreaterThan(3);
    const plain = Object.keys(buildTools(host(['contacts', 'shopping']), { ...DEFAULT_AGENT_OPTIONS, tools: 'functions' }));
    expect(plain).toContain('shopping__checkout');
    expect(plain).not.toContain('shopping__expert_agent');
  });

  it('shell mode: commands may take as long as an app-agent conversation', () => {
    const desc = (h: AgentHost) => String((buildTools(h, DEFAULT_AGENT_OPTIONS).shell as { description?: string }).description);
    expect(desc(host(['shopping'], ['shopping']))).toContain(`killed after ${APP_AGENT_SHELL_TIMEOUT_MS / 1000} s`);
    expect(desc(host(['shopping']))).toContain(`killed after ${DEFAULT_AGENT_OPTIONS.shellTimeoutMs / 1000} s`);
  });
});
