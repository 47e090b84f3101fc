/**
 * A seeded pseudo-random source (mulberry32: 32-bit state, period 2^32), so a bench's data or a test's random
 * population is the same on every run and a failure can be replayed from its seed. Not for anything secret.
 * @param seed any 32-bit integer
 * @returns a function giving numbers in [0, 1)
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * A whole number in [0, max) from a seeded source.
 * @param random a source from seededRandom()
 * @param max exclusive upper bound, a positive integer
 */
export function randomIndex(random: () => number, max: number): number {
  return Math.floor(random() * max);
}
