// Process entry of the `default` runtime (GAIA2_AGENT=default): reads the model and agent
// settings from the environment, connects to the world daemon and plays until shutdown.
import { readFileSync, rmSync } from 'node:fs';
import { connectToDaemon } from '../agents/client.js';
import { agentOptionsFromEnv, runDefaultAgent } from '../agents/default/index.js';
import { createModel, llmConfigFromEnv, type LlmModel } from '../llm/index.js';
import type { AgentOptions } from '../agents/default/index.js';

/**
 * Variables in the environment are readable by every process of the same user through
 * /proc/<pid>/environ, shell commands of the model included. A launcher may instead put the
 * secrets in a JSON file named by GAIA2_AGENT_SECRETS_FILE ({"API_KEY": "…"}): it is read
 * once, deleted, and its values never enter process.env.
 */
const SECRETS_FILE_ENV = 'GAIA2_AGENT_SECRETS_FILE';

function settingsEnv(): NodeJS.ProcessEnv {
  const file = process.env[SECRETS_FILE_ENV];
  if (!file) return process.env;
  let secrets: unknown;
  try {
    secrets = JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(file, { force: true });
  }
  if (!secrets || typeof secrets !== 'object' || Array.isArray(secrets)) {
    throw new Error(`${SECRETS_FILE_ENV} (${file}) must hold a JSON object of variable names to values`);
  }
  const extra = Object.fromEntries(Object.entries(secrets).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { ...process.env, ...extra };
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
