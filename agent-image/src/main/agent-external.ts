// Process entry of the launcher runtime (GAIA2_AGENT=external, runs as user agent): plays an
// agent layer's /opt/gaia2-agent/bin/agent, one run per delivered message (docs/agents.md).
import { connectToDaemon } from '../agents/client.js';
import { runExternalAgent } from '../agents/external/runtime.js';
import { SECRETS_FILE_ENV, takeSecrets } from '../agents/secrets-file.js';
import { AGENT_LAYER, AGENT_LAYER_ENV } from '../contract/agent-layer.js';
import { REAL_CLOCK_ENV } from '../contract/sim-clock.js';

// Started with GAIA2_REAL_CLOCK=1: the preload library leaves this process on the real clock (its
// timeouts and traces); dropped at once, so everything it starts reads the simulated clock.
delete process.env[REAL_CLOCK_ENV];

async function main(): Promise<number> {
  const secrets = takeSecrets(process.env);
  const env: NodeJS.ProcessEnv = { ...process.env, ...secrets, GAIA2_AGENT_HOME: AGENT_LAYER.home };
  delete env[SECRETS_FILE_ENV];
  env[AGENT_LAYER_ENV.options] ??= '{}';
  const name = env[AGENT_LAYER_ENV.name] || 'external';
  const conn = await connectToDaemon({ agent: name });
  const out = await runExternalAgent(conn, { env });
  process.stderr.write(`agent ${name}: ${out.turns} turn(s), ${out.failed} failed\n`);
  conn.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`agent launcher runtime: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
