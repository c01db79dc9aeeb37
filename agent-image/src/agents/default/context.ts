// When the conversation no longer fits the model's window, old tool outputs are the cheapest
// thing to give up: the model already acted on them. The latest messages stay intact.
import type { ModelMessage } from 'ai';

export const ELIDED = '[output removed to fit the context window]';

/** Replaces tool results older than the last `keepRecent` messages; returns how many were elided. */
export function elideOldToolResults(history: ModelMessage[], keepRecent = 6): number {
  let elided = 0;
  const limit = Math.max(0, history.length - keepRecent);
  for (let i = 0; i < limit; i++) {
    const m = history[i]!;
    if (m.role !== 'tool') continue;
    m.content = m.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      if (part.output.type === 'text' && part.output.value === ELIDED) return part;
      elided += 1;
      return { ...part, output: { type: 'text', value: ELIDED } };
    });
  }
  return elided;
}
