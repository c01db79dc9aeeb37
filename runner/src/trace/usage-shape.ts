// The counts of one call as the trace pages show them (the viewer's data: fresh input apart
// from the cache's, reasoning apart). Sums and costs are not made in this shape but in the
// runner's one token type (runner/src/tokens; callTokens in usage.ts converts). Plain data
// with no imports: the viewer's browser code (viewer/browser/) type-checks against it without Node.

export interface Usage {
  /** Input tokens neither read from nor written to the prompt cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Reasoning tokens, part of `output` (Gemini's thoughts are added to it). */
  reasoning: number;
}

/** All input the model read: fresh, cache writes and cache reads. */
export const totalInput = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite;
