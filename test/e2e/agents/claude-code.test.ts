// Claude Code (the native build from npm) evaluated end to end: docs/agents.md. The double
// speaks Anthropic Messages streaming with tool_use blocks and drives Claude Code's Bash tool.
// The clock runs at half speed (as gemini-cli's): with the suite on two engines at once, the
// time sample failed once at full speed on a 2-core machine at load 40–50.
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { ...AGENTS['claude-code'], flags: ['--thinking', 'low'], timeSpeed: 0.5 },
  { tools: { exactly: ['Bash'] }, keyHeader: 'x-api-key' },
);
