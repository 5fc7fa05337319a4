/**
 * A small seeded pseudo-random generator (mulberry32 over a 32-bit FNV-1a hash of a string key), so a
 * bootstrap, a permutation test or the noisy fake model gives the same numbers for the same seed.
 */

/** 32-bit FNV-1a of a string: turns a seed and a key (case id, epoch) into a generator state. */
export function hashSeed(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Uniform numbers in [0, 1) from a 32-bit state; the same seed gives the same sequence. */
export function seededRandom(seed: number | string): () => number {
  let state = typeof seed === 'string' ? hashSeed(seed) : seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
