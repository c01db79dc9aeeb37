// THINKING (off|low|medium|high) in each provider's own reasoning vocabulary.
import type { Thinking } from './config.js';

export type ApiFamily = 'anthropic' | 'openai-responses' | 'google' | 'compat' | 'openrouter';

type ProviderOptions = Record<string, Record<string, any>>;

const ANTHROPIC_BUDGET: Record<Exclude<Thinking, 'off'>, number> = { low: 2048, medium: 8192, high: 24_576 };
const GEMINI_BUDGET: Record<Exclude<Thinking, 'off'>, number> = { low: 2048, medium: 8192, high: 24_576 };

/** Provider options for the call, keyed the way the AI SDK provider expects. */
export function thinkingOptions(family: ApiFamily, thinking: Thinking, modelId: string): ProviderOptions {
  if (thinking === 'off') return {};
  switch (family) {
    case 'anthropic':
      return { anthropic: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_BUDGET[thinking] } } };
    case 'openai-responses':
      // Forced, so models the SDK does not know (custom BASE_URL) still get the setting.
      return { openai: { reasoningEffort: thinking, reasoningSummary: 'auto', forceReasoning: true } };
    case 'google':
      // Gemini 3 takes a level; 2.x takes a token budget.
      return {
        google: {
          thinkingConfig: /^gemini-[3-9]/.test(modelId)
            ? { thinkingLevel: thinking, includeThoughts: true }
            : { thinkingBudget: GEMINI_BUDGET[thinking], includeThoughts: true },
        },
      };
    case 'compat':
      return { compat: { reasoningEffort: thinking } };
    case 'openrouter':
      return { openrouter: { reasoning: { effort: thinking } } };
  }
}
