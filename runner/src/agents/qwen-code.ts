// Qwen Code (QwenLM), the real program: @qwen-code/qwen-code from npm, a bundled JavaScript CLI
// (a fork of Gemini CLI) whose dependencies are all optional (a native PTY, clipboard, sharp),
// installed with them as `npm install -g` installs them for a user: in ACP mode its shell runs
// on the PTY, and its plain-pipe fallback can lose the output of a command that ends at once.
// Run with the world image's Node (it wants ≥ 22).
// Kept up for the whole scenario run in its Agent Client Protocol mode (`qwen --acp`): its
// layer's bin/agent-serve (qwen-code/layer/) starts it once, with one session, and runs each
// turn as one prompt of it. run_shell_command is its only tool.
import type { AgentAdapter } from './adapter.js';

export const qwenCode: AgentAdapter = {
  name: 'qwen-code',
  summary: 'Qwen Code (QwenLM), run_shell_command as its only tool',
  package: {
    name: '@qwen-code/qwen-code',
    version: '0.24.4',
    install: 'install',
  },
  providers: ['openai-compat', 'openai', 'anthropic', 'google', 'gemini', 'openrouter'],
  thinking: true,
  layerDir: 'runner/src/agents/qwen-code/layer',
};
