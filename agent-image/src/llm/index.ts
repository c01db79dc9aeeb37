// Provider layer shared by the default LLM agent and the judge's soft checks.
export {
  PROVIDERS,
  THINKING_LEVELS,
  AGENT_LLM_ENV,
  JUDGE_LLM_ENV,
  LlmConfigError,
  llmConfigFromEnv,
  parseProvider,
  parseThinking,
  type LlmConfig,
  type LlmEnvNames,
  type ProviderName,
  type Thinking,
} from './config.js';
export { createModel, OPENROUTER_BASE_URL, type CallOptions, type CreateModelOptions, type LlmModel } from './providers.js';
export { parseExtraBody, withExtraBody, type ExtraBody } from './extra-body.js';
export { completeText } from './complete.js';
export { ProviderError, toProviderError, type ProviderFailureReason } from './errors.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { TraceWriter, type AppAgentTag, type TraceLine } from './trace.js';
export { makeRedactor, type Redactor } from './redact.js';
export type { CallUsage } from './trace-usage.js';
