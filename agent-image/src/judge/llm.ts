// The soft checks' LLM: a tiny interface the judge codes against, and its implementation
// over the shared provider layer (agent-image/src/llm).
import { completeText, createModel, ProviderError, type CreateModelOptions, type Thinking } from '../llm/index.js';

export type JudgeLlmConfig = Omit<CreateModelOptions, 'thinking'> & { thinking?: Thinking };

/** One completion. null = no usable answer (the candidate is then inconclusive → rejected). */
export interface JudgeLlm {
  complete(system: string, user: string): Promise<string | null>;
}

export type JudgeErrorKind = 'judge_error' | 'provider_error';

/**
 * A failure that must not become a verdict: the judge could not do its job (rate limit or
 * auth failure after retries, unreachable provider, a bug). Runs end as errors, retryable.
 */
export class JudgeError extends Error {
  override name = 'JudgeError';
  constructor(
    message: string,
    readonly kind: JudgeErrorKind,
    readonly reason?: string,
  ) {
    super(message);
  }
}

// Provider failures that say nothing about the agent: they stop judging instead of
// silently failing (or passing) the candidate. Bad requests and unusable replies stay
// "no answer" as in the reference.
const INFRA_REASONS = new Set(['auth', 'rate_limit', 'server', 'network']);

/** JudgeLlm over createModel/completeText: temperature 0, retries with backoff in the fetch layer. */
export function createJudgeLlm(cfg: JudgeLlmConfig): JudgeLlm {
  // Like the reference engine: an OpenAI provider with a base URL speaks chat completions
  // (litellm's "openai/" routing), and calls are retried up to 12 times.
  const provider = cfg.provider === 'openai' && cfg.baseUrl ? 'openai-compat' : cfg.provider;
  const llm = createModel({
    ...cfg,
    provider,
    thinking: cfg.thinking ?? 'off',
    // Verdicts are short; an explicit cap also keeps the SDK from guessing one per model.
    maxTokens: cfg.maxTokens ?? 2048,
    retry: { maxRetries: 12, ...cfg.retry },
  });
  return {
    async complete(system, user) {
      try {
        return await completeText(llm, system, user);
      } catch (err) {
        if (err instanceof ProviderError && !INFRA_REASONS.has(err.reason)) return null;
        if (err instanceof ProviderError) throw new JudgeError(`judge LLM: ${err.message}`, 'provider_error', err.reason);
        throw new JudgeError(`judge LLM: ${(err as Error).message ?? String(err)}`, 'judge_error');
      }
    },
  };
}
