// The variables the world's launcher runtime gives one turn (docs/agents.md, "The launcher
// contract"): the turn, the message, the scenario's CLIs and, with Agent2Agent, the CLIs that
// app agents operate.
import { describe, expect, it } from 'vitest';
import { turnEnv } from '../../../../agent-image/src/agents/external/runtime.js';
import type { MessageMsg } from '../../../../agent-image/src/contract/agent-protocol.js';
import { AGENT_LAYER } from '../../../../agent-image/src/contract/agent-layer.js';

const layout = AGENT_LAYER;
const message: MessageMsg = { type: 'message', run_id: 'r1', kind: 'user', text: 'Order it', parts: [], sim_time: '2025-10-09 09:00:00' };

describe('turnEnv', () => {
  it("gives the contract's variables over the launcher's fixed environment", () => {
    const env = turnEnv({ PROVIDER: 'anthropic', GAIA2_TURN: 'stale' }, message, 2, '/t/turn-2.txt', ['emails', 'shopping'], layout);
    expect(env).toEqual({
      PROVIDER: 'anthropic',
      GAIA2_TURN: '2',
      GAIA2_MESSAGE_FILE: '/t/turn-2.txt',
      GAIA2_MESSAGE_KIND: 'user',
      GAIA2_SIM_TIME: '2025-10-09 09:00:00',
      GAIA2_TOOLS: 'emails,shopping',
      GAIA2_APP_AGENTS: '',
      GAIA2_WORK_DIR: AGENT_LAYER.workDir,
      GAIA2_SESSION_DIR: AGENT_LAYER.sessionDir,
      GAIA2_TRACE_DIR: AGENT_LAYER.traceDir,
    });
  });

  it('Agent2Agent: GAIA2_APP_AGENTS names the CLIs operated by app agents', () => {
    expect(turnEnv({}, message, 1, '/t/turn-1.txt', ['emails', 'shopping'], layout, ['shopping']).GAIA2_APP_AGENTS).toBe('shopping');
  });
});
