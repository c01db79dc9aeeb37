// Seeded pseudo-random numbers for noise. The reference draws from Python's Mersenne Twister
// and NumPy's PCG64; we do not reproduce their bit streams, only their distributions. What we
// guarantee is ours: the same seed and label give the same sequence on every machine and Node
// version (integer arithmetic only, no Math.random, no platform floats beyond log()).

import { mulberry32 } from '../contract/mulberry32.js';

/** FNV-1a over the UTF-8 bytes of `text`: turns (seed, label) into a 32-bit stream key. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class NoiseRng {
  /** Next 32 random bits. */
  private readonly next32: () => number;

  /** One independent stream per (seed, label): e.g. one per tool, as the reference keeps one per tool. */
  constructor(seed: number, label = '') {
    this.next32 = mulberry32(fnv1a(`${seed}/${label}`));
  }

  /** Uniform in [0, 1) with 53 bits of precision. */
  random(): number {
    const hi = this.next32() >>> 5; // 27 bits
    const lo = this.next32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Exponential with mean `scale` (inter-arrival time of a Poisson process of rate 1/scale). */
  exponential(scale: number): number {
    return -Math.log(1 - this.random()) * scale;
  }

  /** Integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.random() * n);
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  /** `k` distinct items in random order (without replacement). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle([...items]).slice(0, Math.max(0, Math.min(k, items.length)));
  }
}
