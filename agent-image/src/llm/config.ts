// Which model to talk to, as the runner's container variables describe it (docs/reference-runner.md, "Profiles").
import { ENV } from '../contract/paths.js';

export const PROVIDERS = ['anthropic', 'openai', 'openai-compat', 'openai-completions', 'google', 'gemini', 'openrouter'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const THINKING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type Thinking = (typeof THINKING_LEVELS)[number];

export interface LlmConfig {
  provider: ProviderName;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  thinking: Thinking;
  maxTokens?: number;
  /** Append one line per HTTP call here (trace format: docs/trace-format.md). */
  traceFile?: string;
}

/** Error in the configuration itself (bad variable), as opposed to a failing provider. */
export class LlmConfigError extends Error {
  override name = 'LlmConfigError';
}

export function parseProvider(value: string, field: string): ProviderName {
  const v = value.trim().toLowerCase();
  if ((PROVIDERS as readonly string[]).includes(v)) return v as ProviderName;
  throw new LlmConfigError(`${field} must be one of: ${PROVIDERS.join(', ')} (got "${value}")`);
}

export function parseThinking(value: string | undefined, field: string): Thinking {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'off';
  if ((THINKING_LEVELS as readonly string[]).includes(v)) return v as Thinking;
  throw new LlmConfigError(`${field} must be one of: ${THINKING_LEVELS.join(', ')} (got "${value}")`);
}

function parseMaxTokens(value: string | undefined, field: string): number | undefined {
  const v = (value ?? '').trim();
  if (v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new LlmConfigError(`${field} must be a positive integer (got "${value}")`);
  return n;
}

const nonEmpty = (v: string | undefined): string | undefined => (v && v.trim() !== '' ? v.trim() : undefined);

/** Variable names for one role: the agent's (PROVIDER, MODEL, …) or the judge's (GAIA2_JUDGE_*). */
export interface LlmEnvNames {
  provider: string;
  model: string;
  apiKey: string;
  baseUrl: string;
  thinking?: string;
  maxTokens?: string;
  traceFile?: string;
}

export const AGENT_LLM_ENV: LlmEnvNames = {
  provider: ENV.provider,
  model: ENV.model,
  apiKey: ENV.apiKey,
  baseUrl: ENV.baseUrl,
  thinking: ENV.thinking,
  maxTokens: ENV.maxTokens,
  traceFile: ENV.traceFile,
};

export const JUDGE_LLM_ENV: LlmEnvNames = {
  provider: ENV.judgeProvider,
  model: ENV.judgeModel,
  apiKey: ENV.judgeApiKey,
  baseUrl: ENV.judgeBaseUrl,
};

/** Reads an LlmConfig from environment variables; errors name the variable at fault. */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv, names: LlmEnvNames = AGENT_LLM_ENV): LlmConfig {
  const provider = nonEmpty(env[names.provider]);
  const model = nonEmpty(env[names.model]);
  if (!provider) throw new LlmConfigError(`${names.provider} is not set`);
  if (!model) throw new LlmConfigError(`${names.model} is not set`);
  return {
    provider: parseProvider(provider, names.provider),
    model,
    apiKey: nonEmpty(env[names.apiKey]),
    baseUrl: nonEmpty(env[names.baseUrl]),
    thinking: names.thinking ? parseThinking(env[names.thinking], names.thinking) : 'off',
    maxTokens: names.maxTokens ? parseMaxTokens(env[names.maxTokens], names.maxTokens) : undefined,
    traceFile: names.traceFile ? nonEmpty(env[names.traceFile]) : undefined,
  };
}
