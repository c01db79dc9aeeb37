// OpenClaw (from npm, with its dependencies) evaluated end to end: docs/agents.md. The double
// speaks OpenAI chat completions (the openai-compat provider) streaming with tool_calls and
// drives OpenClaw's exec tool. OpenClaw takes tens of seconds to start a turn on a busy
// machine, so the simulated clock runs at a tenth of wall time.
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';

describeAgentSuite(
  { ...AGENTS.openclaw, flags: ['--thinking', 'low'] },
  { tools: { exactly: ['exec'] }, keyHeader: 'authorization' },
);
