// Gemini CLI (from npm) evaluated end to end: docs/agents.md. The double speaks the Gemini
// API's streamGenerateContent (SSE) with functionCall parts and drives run_shell_command.
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { ...AGENTS['gemini-cli'], flags: ['--thinking', 'low'], timeSpeed: 0.5 },
  { tools: { exactly: ['run_shell_command'] }, keyHeader: 'x-goog-api-key' },
);
