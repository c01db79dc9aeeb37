// Gemini CLI (Google), the real program: @google/gemini-cli from npm, a bundled JavaScript CLI
// that needs no dependencies (its optional native PTY falls back to plain pipes), run with the
// world image's Node. Kept up for the whole scenario run in its Agent Client Protocol mode
// (`gemini --acp`): its layer's bin/agent-serve (gemini-cli/layer/) starts it once, with one
// session, and runs each turn as one prompt of it. run_shell_command is its only tool.
import type { AgentAdapter } from './adapter.js';

export const geminiCli: AgentAdapter = {
  name: 'gemini-cli',
  summary: 'Gemini CLI (Google), run_shell_command as its only tool',
  package: {
    name: '@google/gemini-cli',
    version: '0.61.0',
    install: 'pack',
  },
  providers: ['google', 'gemini'],
  thinking: true,
  layerDir: 'runner/src/agents/gemini-cli/layer',
};
