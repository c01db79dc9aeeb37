// Codex (the linux-x64 build from npm) evaluated end to end: docs/agents.md. The double
// speaks OpenAI Responses streaming with function calls and drives Codex's exec_command.
// The clock runs at half speed (as gemini-cli's): with the suite on two engines at once, the
// time sample failed once at full speed on a 2-core machine at load 40–50.
import { CODEX_SHELL } from '../../helpers/fake-llm/index.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { name: 'codex', shell: CODEX_SHELL, provider: 'openai', model: 'gpt-5.1-codex', flags: ['--thinking', 'medium'], timeSpeed: 0.5 },
  { tools: { including: ['exec_command'] }, keyHeader: 'authorization' },
);
