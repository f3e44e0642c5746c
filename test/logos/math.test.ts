import { describe, expect, it } from 'vitest';
import { BASES, columnInformation, columnProbabilities, entropy, logoColumn, logoColumns, type Pfm } from '../../generator/logos/math.ts';
import { random } from '../support/random.ts';

const one = (a: number, c: number, g: number, t: number): Pfm => ({ A: [a], C: [c], G: [g], T: [t] });

// Expected values worked out by hand (log2 0.2 = −2.321928, log2 0.8 = −0.321928,
// log2 0.75 = −0.415037), not with the code under test.
describe('information content and letter heights', () => {
  it.each([
    // counts A, C, G, T          IC            heights A, C, G, T
    { name: 'uniform', counts: [5, 5, 5, 5], ic: 0, heights: [0, 0, 0, 0] },
    { name: 'one base', counts: [20, 0, 0, 0], ic: 2, heights: [2, 0, 0, 0] },
    { name: 'one base, not A', counts: [0, 0, 0, 7], ic: 2, heights: [0, 0, 0, 2] },
    // H = 0.2·2.321928 + 0.8·0.321928 = 0.7219281
    { name: '4/16/0/0', counts: [4, 16, 0, 0], ic: 2 - 0.7219281, heights: [0.2 * 1.2780719, 0.8 * 1.2780719, 0, 0] },
    { name: 'two bases', counts: [10, 10, 0, 0], ic: 1, heights: [0.5, 0.5, 0, 0] },
    // p = 1/2, 1/4, 1/4: H = 1.5
    { name: 'half, quarter, quarter', counts: [2, 1, 1, 0], ic: 0.5, heights: [0.25, 0.125, 0.125, 0] },
    { name: 'all zero (UN0498.1 column 12)', counts: [0, 0, 0, 0], ic: 0, heights: [0, 0, 0, 0] },
    // p = 1/4, 3/4: H = 0.5 + 0.75·0.415037 = 0.8112781
    { name: 'fractional', counts: [0.5, 1.5, 0, 0], ic: 1.1887219, heights: [0.25 * 1.1887219, 0.75 * 1.1887219, 0, 0] },
    { name: 'fractional uniform (MA1972.1-like)', counts: [0.796178, 0.796178, 0.796178, 0.796178], ic: 0, heights: [0, 0, 0, 0] },
  ])('$name', ({ counts, ic, heights }) => {
    const pfm = one(counts[0], counts[1], counts[2], counts[3]);
    expect(columnInformation(pfm, 0)).toBeCloseTo(ic, 6);
    const [column] = logoColumns(pfm);
    expect(column.ic).toBeCloseTo(ic, 6);
    const byBase = Object.fromEntries(column.letters.map((l) => [l.base, l.height]));
    expect([byBase.A, byBase.C, byBase.G, byBase.T].map((h) => Number(h.toFixed(6)))).toEqual(heights.map((h) => Number(h.toFixed(6))));
    for (const l of column.letters) {
      expect(Number.isFinite(l.height)).toBe(true);
      expect(Number.isFinite(l.p)).toBe(true);
      expect(l.height).toBeGreaterThanOrEqual(0);
    }
  });

  it('entropy treats 0·log 0 as 0', () => {
    expect(entropy([1, 0, 0, 0])).toBe(0);
    expect(entropy([0.25, 0.25, 0.25, 0.25])).toBe(2);
  });
});

describe('stack order: smallest letter at the bottom, ties in A, C, G, T order', () => {
  it.each([
    { counts: [2, 1, 1, 0], order: 'TCGA' },
    { counts: [4, 16, 0, 0], order: 'GTAC' },
    { counts: [0, 0, 20, 0], order: 'ACTG' },
    { counts: [0, 0, 0, 0], order: 'ACGT' },
    { counts: [5, 5, 5, 5], order: 'ACGT' },
    { counts: [1, 3, 3, 1], order: 'ATCG' },
  ])('$counts → $order', ({ counts, order }) => {
    const [column] = logoColumns(one(counts[0], counts[1], counts[2], counts[3]));
    expect(column.letters.map((l) => l.base).join('')).toBe(order);
  });
});

describe('logoColumns', () => {
  it('gives one column per position', () => {
    const pfm: Pfm = { A: [4, 19, 0], C: [16, 0, 20], G: [0, 1, 0], T: [0, 0, 0] };
    expect(logoColumns(pfm).map((c) => Number(c.ic.toFixed(4)))).toEqual([1.2781, 1.7136, 2]);
  });

  it('accepts an empty matrix', () => {
    expect(logoColumns({ A: [], C: [], G: [], T: [] })).toEqual([]);
  });

  it('rejects rows of different lengths', () => {
    expect(() => logoColumns({ A: [1, 2], C: [1], G: [1, 2], T: [1, 2] })).toThrow(/differ in length/);
  });
});

describe('logoColumn', () => {
  it('gives exactly the numbers of columnProbabilities and entropy, as does columnInformation, for 50,000 seeded columns', () => {
    const next = random(2022);
    // Counts as releases have them: whole, fractional (full precision), zeros, an empty column, huge.
    const count = (k: number) => [Math.floor(next() * 50), next() * 1000, 0, Math.floor(next() * 3), next() * 1e9][k % 5];
    for (let i = 0; i < 50_000; i++) {
      const pfm = one(count(i + Math.floor(next() * 5)), count(i + 1), count(Math.floor(next() * 5)), count(i + 3));
      if (i % 97 === 0) pfm.A[0] = pfm.C[0] = pfm.G[0] = pfm.T[0] = 0;
      const p = columnProbabilities(pfm, 0);
      // Information as the spelt-out definition: 2 - entropy of the probabilities, 0 for an empty column.
      const ps = BASES.map((base) => p[base]);
      const ic = ps.every((x) => x === 0) ? 0 : Math.max(0, 2 - entropy(ps));
      expect(Object.is(columnInformation(pfm, 0), ic)).toBe(true);
      const expected = BASES.map((base) => ({ base, p: p[base], height: p[base] * ic })).sort((x, y) => x.height - y.height);
      const got = logoColumn(pfm, 0);
      expect(Object.is(got.ic, ic)).toBe(true);
      expect(got.letters).toEqual(expected);
      got.letters.forEach((l, k) => expect(Object.is(l.height, expected[k].height) && Object.is(l.p, expected[k].p)).toBe(true));
    }
  });
});
