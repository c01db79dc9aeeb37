// Process entry of the `default` runtime (GAIA2_AGENT=default): reads the model and agent
// settings from the environment, connects to the world daemon and plays until shutdown.
import { connectToDaemon } from '../agents/client.js';
import { takeSecrets } from '../agents/secrets-file.js';
import { agentOptionsFromEnv, runDefaultAgent } from '../agents/default/index.js';
import { createModel, llmConfigFromEnv, type LlmModel } from '../llm/index.js';
import type { AgentOptions } from '../agents/default/index.js';
import { REAL_CLOCK_ENV } from '../contract/sim-clock.js';

// Started with GAIA2_REAL_CLOCK=1: the preload library leaves this process on the real clock (its
// timeouts and traces); dropped at once, so everything it starts reads the simulated clock.
delete process.env[REAL_CLOCK_ENV];

/** The environment plus the keys of the secrets file (never put into process.env). */
function settingsEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...takeSecrets(process.env) };
}

async function main(): Promise<number> {
  let setup: { llm: LlmModel; options: AgentOptions } | Error;
  try {
    const env = settingsEnv();
    setup = { llm: createModel(llmConfigFromEnv(env)), options: agentOptionsFromEnv(env) };
  } catch (err) {
    setup = err instanceof Error ? err : new Error(String(err));
  }
  const conn = await connectToDaemon({ agent: 'default', steer: setup instanceof Error ? false : setup.options.steer });

  if (setup instanceof Error) {
    // Misconfigured: say so on every run instead of leaving the daemon waiting for a reply.
    const message = `default agent is misconfigured: ${setup.message}`;
    process.stderr.write(`${message}\n`);
    conn.log(message, 'error');
    conn.onMessage((m) => conn.reply(m.run_id, `Error: ${message}`, 'error'));
    conn.ready();
    await new Promise<void>((resolve) => conn.onShutdown(() => resolve()));
    return 2;
  }

  const { llm, options } = setup;
  process.stderr.write(`default agent: ${llm.provider}/${llm.modelId}, tools=${options.tools}, max steps ${options.maxSteps}\n`);
  const outcome = await runDefaultAgent(conn, llm, options);
  await llm.trace.flush();
  const t = llm.trace.totals;
  process.stderr.write(
    `default agent: done after ${outcome.runs} run(s), ${t.llm_calls} LLM call(s), ${t.input_tokens} in / ${t.output_tokens} out tokens` +
      `${outcome.shutdown ? ` (daemon ${outcome.shutdown.status}: ${outcome.shutdown.reason})` : ' (daemon connection closed)'}\n`,
  );
  conn.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`default agent crashed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
