// Keys handed to an agent runtime as a file instead of its environment: variables are readable
// by every process of the same user through /proc/<pid>/environ, shell commands of the model
// included. The entrypoint writes {"NAME": "value", …} to the file named by
// GAIA2_AGENT_SECRETS_FILE; the runtime reads it once and deletes it.
import { readFileSync, rmSync } from 'node:fs';

export const SECRETS_FILE_ENV = 'GAIA2_AGENT_SECRETS_FILE';

/** The secrets of the file named in `env` (deleted once read); {} when none is named. */
export function takeSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const file = env[SECRETS_FILE_ENV];
  if (!file) return {};
  let secrets: unknown;
  try {
    secrets = JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(file, { force: true });
  }
  if (!secrets || typeof secrets !== 'object' || Array.isArray(secrets)) {
    throw new Error(`${SECRETS_FILE_ENV} (${file}) must hold a JSON object of variable names to values`);
  }
  return Object.fromEntries(Object.entries(secrets).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
