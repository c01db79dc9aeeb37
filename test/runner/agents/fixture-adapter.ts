// A small adapter for tests of the registry and the layer build: data only, like a real one.
import type { AgentAdapter } from '../../../runner/src/agents/index.js';

export const fixtureAdapter = (over: Partial<AgentAdapter> = {}): AgentAdapter => ({
  name: 'acme',
  summary: 'Acme CLI agent (test fixture)',
  package: { name: '@acme/agent-cli', version: '1.2.3', install: 'pack' },
  providers: ['anthropic', 'openai'],
  thinking: true,
  launcher: '#!/bin/bash\nexec "$GAIA2_AGENT_HOME/pkg/bin/acme.sh"\n',
  files: { 'etc/acme.json': '{"telemetry": false}\n' },
  options: { max_turns: { description: 'turns per message', type: 'number', default: 30 }, plan_mode: { description: 'plan first', type: 'boolean' } },
  ...over,
});
