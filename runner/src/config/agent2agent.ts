// Agent2Agent settings (ARE's --a2a_app_prop and the app agents' model), from the TOML
// `[agent2agent]` table or the --a2a-* flags. Each field left out takes the main agent's
// value, as ARE's a2a_model / a2a_model_provider / a2a_endpoint do; with a non-LLM main agent
// (oracle, scripted) the app agents' provider and model must be given.
import { ConfigError } from '../plan/errors.js';
import type { AgentSettings, AgentToAgentPlan, SecretRef } from '../plan/plan.js';
import { resolveSecret } from './resolve-parts.js';

export interface AgentToAgentInput {
  appProp?: number | undefined;
  seed?: number | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  baseUrl?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/** How fields are called where they were given (`[agent2agent].app_prop` or `--a2a-app-prop`). */
export interface AgentToAgentNames {
  appProp: string;
  seed: string;
  provider: string;
  model: string;
  apiKeyEnv: string;
  table: string;
}

export const TOML_A2A_NAMES: AgentToAgentNames = {
  appProp: '[agent2agent].app_prop',
  seed: '[agent2agent].seed',
  provider: '[agent2agent].provider',
  model: '[agent2agent].model',
  apiKeyEnv: '[agent2agent].api_key_env',
  table: '[agent2agent]',
};

export const FLAG_A2A_NAMES: AgentToAgentNames = {
  appProp: '--a2a-app-prop',
  seed: '--a2a-seed',
  provider: '--a2a-provider',
  model: '--a2a-model',
  apiKeyEnv: '--a2a-api-key-env',
  table: 'the command line',
};

/** null when Agent2Agent is off (no app_prop, or 0). */
export function resolveAgentToAgent(
  i: AgentToAgentInput,
  agent: AgentSettings,
  names: AgentToAgentNames,
  env: Record<string, string | undefined>,
): AgentToAgentPlan | null {
  const others = [i.seed, i.provider, i.model, i.baseUrl, i.apiKeyEnv].some((v) => v !== undefined);
  if (i.appProp === undefined) {
    if (others) throw new ConfigError(`${names.table} sets app-agent options without ${names.appProp}`);
    return null;
  }
  if (!Number.isFinite(i.appProp) || i.appProp < 0 || i.appProp > 1) throw new ConfigError(`${names.appProp} must be a number from 0 to 1 (got ${i.appProp})`);
  if (i.appProp === 0) return null;
  if (i.seed !== undefined && !Number.isSafeInteger(i.seed)) throw new ConfigError(`${names.seed} must be an integer (got ${i.seed})`);
  const provider = i.provider?.trim() || agent.provider;
  const model = i.model?.trim() || agent.model;
  const missing = [!provider && names.provider, !model && names.model].filter(Boolean);
  if (missing.length) throw new ConfigError(`The app agents need a model; the ${agent.name} agent has none to share. Missing: ${missing.join(', ')}`);
  const key = resolveSecret({ envName: i.apiKeyEnv }, { value: 'api_key', env: names.apiKeyEnv, table: names.table }, env);
  // The main agent's key only goes with the main agent's provider.
  const sameProvider = provider === agent.provider;
  const apiKey: SecretRef | null = key ?? (sameProvider ? agent.apiKey : null);
  return {
    appProp: i.appProp,
    seed: i.seed ?? null,
    provider: provider!,
    model: model!,
    baseUrl: i.baseUrl?.trim() || (sameProvider ? agent.baseUrl : null),
    apiKey,
  };
}
