// Codex (the linux-x64 build from npm) evaluated end to end: docs/agents.md. The double
// speaks OpenAI Responses streaming with function calls and drives Codex's exec_command.
// The clock runs at full speed: Codex's exec_command hands a command back after 30 s of wall
// time ("Process running …") for the model to poll, and the scripted double does not poll, so
// the time sample's wait for the email must end within 30 s (at half speed it did not).
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { ...AGENTS.codex, flags: ['--thinking', 'medium'] },
  { tools: { including: ['exec_command'] }, keyHeader: 'authorization' },
);
