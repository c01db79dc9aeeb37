// [agent.options] as an agent layer's launcher reads them (docs/agents.md): the whole table as
// JSON, and each option as GAIA2_AGENT_OPT_<KEY> for a bash launcher; and the user's
// instructions template ([agent].instructions_file), which the kit renders.
import { AGENT_LAYER_ENV } from '@gaia2/contract/agent-layer';
import { INSTRUCTIONS_ENV } from '../agents/instructions-template.js';

export function agentLayerEnv(options: Record<string, string | number | boolean>, instructions?: { text: string } | null): Record<string, string> {
  const env: Record<string, string> = { [AGENT_LAYER_ENV.options]: JSON.stringify(options) };
  if (instructions) env[INSTRUCTIONS_ENV] = instructions.text;
  for (const [k, v] of Object.entries(options)) env[`${AGENT_LAYER_ENV.optionPrefix}${k.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = String(v);
  return env;
}
