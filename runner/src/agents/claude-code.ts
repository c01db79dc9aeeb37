// Claude Code (Anthropic), the real program: the native linux-x64 build from npm (one
// self-contained binary; the @anthropic-ai/claude-code wrapper only picks that platform
// package). Kept up for the whole scenario run in its streaming JSON mode by the layer's
// bin/agent-serve (claude-code/layer/): Bash is its only tool, each message one turn of the same
// process, messages that arrive mid-turn folded in at a tool's result, the session resumed
// after a restart.
import type { AgentAdapter } from './adapter.js';

export const claudeCode: AgentAdapter = {
  name: 'claude-code',
  summary: 'Claude Code (Anthropic), the native linux-x64 build, Bash as its tool',
  package: {
    name: '@anthropic-ai/claude-code-linux-x64',
    version: '2.1.332',
    install: 'pack',
  },
  providers: ['anthropic'],
  thinking: true,
  layerDir: 'runner/src/agents/claude-code/layer',
};
