/**
 * mulberry32: a tiny seeded generator of uniform numbers in [0, 1).
 *
 * Not for secrets. It is for anything that must come out the same on every run
 * and every device: generated test models (their bytes are compared by the
 * e2e tests), calibration probes, and fuzz runs that must replay from their seed.
 * The sequence for a seed must therefore never change; the test pins it.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
