// The soft checks' LLM: a tiny interface the judge codes against. The implementation over the
// shared provider layer (agent-image/src/llm, i.e. the AI SDK: most of the image's bundle) is
// loaded on the first completion, so a daemon that judges with hard checks only never parses it.
import type { JudgeErrorKind, JudgeLlmConfig, ProviderCompletion, ProviderJudgeLlm } from './llm-types.js';

export type { JudgeErrorKind, JudgeLlmConfig } from './llm-types.js';

/** One completion. null = no usable answer (the candidate is then inconclusive → rejected). */
export interface JudgeLlm {
  /** fullTask: the turn's tasks so far, one a line; only backends that score a state use it. */
  complete(system: string, user: string, fullTask?: string): Promise<string | null>;
}

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

/** A JudgeLlm for cfg; the provider layer is imported when the first completion is asked for. */
export function createJudgeLlm(cfg: JudgeLlmConfig): JudgeLlm {
  let impl: Promise<ProviderJudgeLlm> | null = null;
  return {
    async complete(system, user) {
      impl ??= import('./llm-provider.js').then((m) => m.providerJudgeLlm(cfg));
      let r: ProviderCompletion;
      try {
        r = await (await impl).complete(system, user);
      } catch (err) {
        // the provider layer could not be loaded or configured
        throw new JudgeError(`judge LLM: ${(err as Error).message ?? String(err)}`, 'judge_error');
      }
      if (r.ok) return r.text;
      throw new JudgeError(`judge LLM: ${r.message}`, r.kind, r.reason);
    },
  };
}
