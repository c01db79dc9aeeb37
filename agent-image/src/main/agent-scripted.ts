// Process entry of the scripted runtime (GAIA2_AGENT=scripted, runs as user agent).
import { ENV } from '../contract/paths.js';
import { connectToDaemon } from '../agents/client.js';
import { parseScript, runScripted } from '../agents/scripted/index.js';
import { REAL_CLOCK_ENV } from '../contract/sim-clock.js';

// Started with GAIA2_REAL_CLOCK=1: the preload library leaves this process on the real clock (its
// timeouts and traces); dropped at once, so everything it starts reads the simulated clock.
delete process.env[REAL_CLOCK_ENV];

async function main(): Promise<number> {
  const script = parseScript(process.env[ENV.script] ?? '{"turns": []}');
  const conn = await connectToDaemon({ agent: 'scripted' });
  const out = await runScripted(conn, script);
  process.stderr.write(`scripted agent: ${out.runs} run(s), ${out.commands} command(s), ${out.failedCommands} failed\n`);
  conn.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`scripted agent: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
