// Gemini CLI (from npm) evaluated end to end: docs/agents.md. The double speaks the Gemini
// API's streamGenerateContent (SSE) with functionCall parts and drives run_shell_command.
import { GEMINI_CLI_SHELL } from '../../helpers/fake-llm/index.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { name: 'gemini-cli', shell: GEMINI_CLI_SHELL, provider: 'google', model: 'gemini-2.5-flash', flags: ['--thinking', 'low'], timeSpeed: 0.5 },
  { tools: { exactly: ['run_shell_command'] }, keyHeader: 'x-goog-api-key' },
);
