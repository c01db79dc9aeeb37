// Prompt caching for Anthropic: the system prompt and the conversation so far are marked as
// cache breakpoints, so each step of a run re-reads them from cache instead of paying for
// them again. Other providers cache automatically and get the messages unchanged.
import type { ModelMessage, SystemModelMessage } from 'ai';
import type { ApiFamily } from '../../llm/thinking.js';

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

export function withCacheBreakpoints(
  api: ApiFamily,
  system: string,
  history: readonly ModelMessage[],
): { system: string | SystemModelMessage; messages: ModelMessage[] } {
  if (api !== 'anthropic' || history.length === 0) return { system, messages: [...history] };
  const last = history[history.length - 1]!;
  // A copy: the breakpoint moves forward with the conversation, the history keeps none.
  const marked = { ...last, providerOptions: { ...last.providerOptions, ...EPHEMERAL } } as ModelMessage;
  return {
    system: { role: 'system', content: system, providerOptions: EPHEMERAL },
    messages: [...history.slice(0, -1), marked],
  };
}
