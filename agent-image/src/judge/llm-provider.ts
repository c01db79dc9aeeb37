// The judge LLM over the shared provider layer, loaded lazily by createJudgeLlm (llm.ts). In
// the image this file is a bundle of its own (dist/image/judge-llm.mjs), so it shares no
// classes with the daemon: its answers are plain data, and llm.ts turns failures into
// JudgeError.
import { completeText, createModel, ProviderError } from '../llm/index.js';
import type { JudgeLlmConfig, ProviderCompletion, ProviderJudgeLlm } from './llm-types.js';

// Provider failures that say nothing about the agent: they stop judging instead of
// silently failing (or passing) the candidate. Bad requests and unusable replies stay
// "no answer" as in the reference.
const INFRA_REASONS = new Set(['auth', 'rate_limit', 'server', 'network']);

/** Over createModel/completeText: temperature 0, retries with backoff in the fetch layer. */
export function providerJudgeLlm(cfg: JudgeLlmConfig): ProviderJudgeLlm {
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
        return { ok: true, text: await completeText(llm, system, user) };
      } catch (err) {
        if (err instanceof ProviderError && !INFRA_REASONS.has(err.reason)) return { ok: true, text: null };
        if (err instanceof ProviderError) return { ok: false, kind: 'provider_error', message: err.message, reason: err.reason };
        return { ok: false, kind: 'judge_error', message: (err as Error).message ?? String(err) };
      }
    },
  };
}
