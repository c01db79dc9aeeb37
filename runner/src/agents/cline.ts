// Cline (cline.bot), the real program: `cline` from npm, whose program is the platform package
// @cline/cli-linux-x64 (a Bun-compiled executable; `cline` itself is a Node wrapper that finds
// it). Kept up for the whole scenario run in its Agent Client Protocol mode (`cline --acp`): its
// layer's bin/agent-serve (cline/layer/) starts it once, with one session, and runs each turn as
// one prompt of it. run_commands is its only tool.
import type { AgentAdapter } from './adapter.js';

export const cline: AgentAdapter = {
  name: 'cline',
  summary: 'Cline (cline.bot), the linux-x64 build, run_commands as its only tool',
  package: {
    name: 'cline',
    version: '3.0.65',
    install: 'pack',
    spec: (version) => `@cline/cli-linux-x64@${version}`,
  },
  // Cline's own providers (openai-compatible, openai-native, anthropic, gemini, openrouter), each on BASE_URL.
  providers: ['openai-compat', 'openai', 'anthropic', 'google', 'gemini', 'openrouter'],
  // In ACP mode Cline 3.0.65 builds each session's config with thinking off, whatever --thinking says.
  thinking: false,
  layerDir: 'runner/src/agents/cline/layer',
};
