// Seeded randomness for the tests that draw their cases (the same cases every run, whatever the order).
// No vitest import: scripts run outside vitest may use it too.

/** A small seeded generator (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
