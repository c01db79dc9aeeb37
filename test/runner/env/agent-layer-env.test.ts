import { describe, expect, it } from 'vitest';
import { agentLayerEnv } from '../../../runner/src/env/agent-layer-env.js';

describe('agentLayerEnv', () => {
  it('passes [agent.options] as one JSON variable and one variable per option', () => {
    expect(agentLayerEnv({ max_turns: 12, 'plan-mode': true, style: 'terse' })).toEqual({
      GAIA2_AGENT_OPTIONS: '{"max_turns":12,"plan-mode":true,"style":"terse"}',
      GAIA2_AGENT_OPT_MAX_TURNS: '12',
      GAIA2_AGENT_OPT_PLAN_MODE: 'true',
      GAIA2_AGENT_OPT_STYLE: 'terse',
    });
    expect(agentLayerEnv({})).toEqual({ GAIA2_AGENT_OPTIONS: '{}' });
  });

  it("carries the user's instructions template, whole, for the kit to render", () => {
    const text = 'Use {{EXEC_TOOL}}.\n{{TOOL_LIST}}\n';
    expect(agentLayerEnv({}, { text })).toEqual({ GAIA2_AGENT_OPTIONS: '{}', GAIA2_AGENT_INSTRUCTIONS: text });
    expect(agentLayerEnv({}, null)).not.toHaveProperty('GAIA2_AGENT_INSTRUCTIONS');
  });
});
