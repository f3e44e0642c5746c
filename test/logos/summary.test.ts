import { describe, expect, it } from 'vitest';
import { consensus, reverseComplement, totalInformation } from '../../generator/logos/summary.ts';

// MA0139.1 (CTCF) from the 2024 release.
const CTCF = {
  A: [87, 167, 281, 56, 8, 744, 40, 107, 851, 5, 333, 54, 12, 56, 104, 372, 82, 117, 402],
  C: [291, 145, 49, 800, 903, 13, 528, 433, 11, 0, 3, 12, 0, 8, 733, 13, 482, 322, 181],
  G: [76, 414, 449, 21, 0, 65, 334, 48, 32, 903, 566, 504, 890, 775, 5, 507, 307, 73, 266],
  T: [459, 187, 134, 36, 2, 91, 11, 324, 18, 3, 9, 341, 8, 71, 67, 17, 37, 396, 59],
};

describe('matrix summary', () => {
  it('reverse complement: columns reversed, A↔T and C↔G', () => {
    const rc = reverseComplement({ A: [10, 0], C: [0, 1], G: [0, 2], T: [0, 7] });
    expect(rc).toEqual({ A: [7, 0], C: [2, 0], G: [1, 0], T: [0, 10] });
    expect(reverseComplement(reverseComplement(CTCF))).toEqual(CTCF);
  });

  it.each([
    ['a certain base', { A: [9], C: [1], G: [0], T: [0] }, 'A'],
    ['over half but not twice the next: two-base code', { A: [55], C: [0], G: [45], T: [0] }, 'R'],
    ['two bases over 75 %', { A: [0], C: [40], G: [0], T: [40] }, 'Y'],
    ['uniform', { A: [1], C: [1], G: [1], T: [1] }, 'N'],
    ['an empty column', { A: [0], C: [0], G: [0], T: [0] }, 'N'],
  ])('consensus of %s', (_, pfm, expected) => {
    expect(consensus(pfm)).toBe(expected);
  });

  it("CTCF's consensus and information content", () => {
    expect(consensus(CTCF)).toBe('YNRCCASYAGRKGGCRSYN');
    expect(consensus(reverseComplement(CTCF))).toBe('NRSYGCCMYCTRSTGGYNR');
    const ic = totalInformation(CTCF);
    // Σ (2 − H) over the 19 columns, computed from the counts above.
    expect(ic).toBeCloseTo(17.2051, 4);
    expect(totalInformation(reverseComplement(CTCF))).toBeCloseTo(ic, 10);
    expect(totalInformation({ A: [1], C: [1], G: [1], T: [1] })).toBe(0);
    expect(totalInformation({ A: [5], C: [0], G: [0], T: [0] })).toBe(2);
  });
});
