// OpenCode (opencode.ai), the real program: opencode-ai from npm, whose program is the platform
// package opencode-linux-x64 (a Bun-compiled executable; opencode-ai itself is a wrapper that
// picks it). Kept up for the whole scenario run in its Agent Client Protocol mode
// (`opencode acp`): its layer's bin/agent-serve (opencode/layer/) starts it once, with one
// session, and runs each turn as one prompt of it. bash is its only tool.
import type { AgentAdapter } from './adapter.js';

export const opencode: AgentAdapter = {
  name: 'opencode',
  summary: 'OpenCode (opencode.ai), the linux-x64 build, bash as its only tool',
  package: {
    name: 'opencode-ai',
    version: '1.18.33',
    install: 'pack',
    spec: (version) => `opencode-linux-x64@${version}`,
  },
  providers: ['openai-compat', 'openai', 'anthropic', 'google', 'gemini', 'openrouter'],
  thinking: true,
  layerDir: 'runner/src/agents/opencode/layer',
};
