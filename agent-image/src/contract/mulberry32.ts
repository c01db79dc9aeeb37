// The one seeded generator of the project (mulberry32: 32-bit state, integer arithmetic only),
// so the same seed gives the same stream on every machine and Node version. Used by the
// image's Noise phase (noise/rng.ts) and the host's paired bootstrap (compare/). Here because
// the contract is the one module both sides import.

/** A stream of 32-bit unsigned integers from `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
