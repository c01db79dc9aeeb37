// The counts of one call as the trace pages show them. Plain data with no imports: the
// viewer's browser code (viewer/browser/) type-checks against it without Node.

export interface Usage {
  /** Input tokens neither read from nor written to the prompt cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Reasoning tokens, part of `output` (Gemini's thoughts are added to it). */
  reasoning: number;
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

/** All input the model read: fresh, cache writes and cache reads. */
export const totalInput = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite;
