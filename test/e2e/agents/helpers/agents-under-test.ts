// The third-party agents as the e2e suites run them: each program's provider (the double
// speaks that provider's wire protocol), a model name, and its own shell tool. Suites add
// their own flags (thinking level, clock speed) to these.
import { CLAUDE_CODE_SHELL, clineShell, CODEX_SHELL, GEMINI_CLI_SHELL, opencodeShell, openclawShell, qwenCodeShell } from '../../../helpers/fake-llm/index.js';
import type { AgentUnderTest } from './third-party-run.js';

export const AGENTS = {
  'claude-code': { name: 'claude-code', shell: CLAUDE_CODE_SHELL, provider: 'anthropic', model: 'claude-sonnet-4-5' },
  codex: { name: 'codex', shell: CODEX_SHELL, provider: 'openai', model: 'gpt-5.1-codex' },
  'gemini-cli': { name: 'gemini-cli', shell: GEMINI_CLI_SHELL, provider: 'google', model: 'gemini-2.5-flash' },
  openclaw: { name: 'openclaw', shell: openclawShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model', oneAtATime: true },
  cline: { name: 'cline', shell: clineShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model' },
  'qwen-code': { name: 'qwen-code', shell: qwenCodeShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model', flags: ['--thinking', 'low'] },
  opencode: { name: 'opencode', shell: opencodeShell('openai-chat'), provider: 'openai-compat', model: 'gaia2-double-model', flags: ['--thinking', 'low'] },
} as const satisfies Record<string, AgentUnderTest>;
