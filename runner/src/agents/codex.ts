// Codex (OpenAI), the real program: the linux-x64 platform build of @openai/codex from npm
// (a static musl binary), kept up for the whole scenario run as `codex app-server` by the
// layer's bin/agent-serve (codex/layer/; docs/agents.md): one thread, each message a turn,
// messages arriving mid-turn steered into it; its shell tool is `exec_command`. Codex ignores
// OPENAI_BASE_URL for its built-in provider, so the bridge writes a config.toml that declares
// the endpoint as a provider of its own (wire_api = "responses") and switches analytics,
// feedback, OTel export, the update check and the plugins' start-up sync off.
import type { AgentAdapter } from './adapter.js';

export const codex: AgentAdapter = {
  name: 'codex',
  summary: 'Codex (OpenAI), the linux-x64 build, exec_command as its shell tool',
  package: {
    name: '@openai/codex',
    version: '0.171.0',
    install: 'pack',
    spec: (version) => `@openai/codex@${version}-linux-x64`,
  },
  providers: ['openai'],
  thinking: true,
  contextWindow: true,
  layerDir: 'runner/src/agents/codex/layer',
};
