// The flags commander hands a `run` command when only --scenario is given (its defaults).
import type { AgentFlags } from '../../../runner/src/config/cli-flags.js';

export const defaultRunFlags = (scenario: string): AgentFlags & { scenario: string } => ({
  scenario,
  image: 'localhost/gaia2-agent:latest',
  runtime: 'podman',
  adapterPort: '8090',
  timeout: '600',
  healthTimeout: '120',
  activityTimeout: '600',
  thinking: 'low',
  logLevel: 'INFO',
  notificationMode: 'message',
  network: 'bridge',
});
