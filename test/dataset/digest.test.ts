// A record's digest (dataset/digest.ts) tells apart every change a format may print: the counts are hashed as
// numbers (their 64 bits), not printed, so each case here is one JSON would have told apart, or one it would not.
import { describe, expect, it } from 'vitest';
import { hash128, matrixDigest, pfmDigest } from '../../generator/dataset/digest.ts';
import type { Matrix, Pfm } from '../../generator/dataset/types.ts';
import { matrix } from '../support/release.ts';

/** A copy of a shared record with other counts (a new object: digests are kept by record object). */
const withPfm = (m: Matrix, pfm: Pfm): Matrix => ({ ...m, pfm });
const counts = (A: number[], C: number[], G: number[], T: number[]): Pfm => ({ A, C, G, T });

describe('record digests', () => {
  const m = matrix('MA0004.1');
  const pfm = m.pfm;
  const bumped = (base: keyof Pfm, i: number, to: number): Pfm => ({ ...pfm, [base]: pfm[base].map((v, k) => (k === i ? to : v)) });

  it('are equal for equal records, and change with any count', () => {
    expect(matrixDigest(withPfm(m, structuredClone(pfm)))).toBe(matrixDigest(m));
    expect(matrixDigest(withPfm(m, bumped('A', 0, pfm.A[0] + 1)))).not.toBe(matrixDigest(m));
    expect(matrixDigest(withPfm(m, bumped('T', pfm.T.length - 1, pfm.T[pfm.T.length - 1] + 1e-9)))).not.toBe(matrixDigest(m));
  });

  it.each([
    ['-0 and 0', counts([0], [1], [1], [1]), counts([-0], [1], [1], [1])],
    ['a count moved to another base', counts([1, 2], [3, 4], [5, 6], [7, 8]), counts([3, 4], [1, 2], [5, 6], [7, 8])],
    ['a count moved across rows of other lengths', counts([1, 2], [3], [4], [5]), counts([1], [2, 3], [4], [5])],
    ['NaN and 0', counts([NaN], [1], [1], [1]), counts([0], [1], [1], [1])],
    ['12 and 12.000000000000002', counts([12], [1], [1], [1]), counts([12.000000000000002], [1], [1], [1])],
  ])('tell apart %s', (_what, a, b) => {
    expect(pfmDigest(a)).not.toBe(pfmDigest(b));
    expect(matrixDigest(withPfm(m, a))).not.toBe(matrixDigest(withPfm(m, b)));
  });

  it('of the counts alone (a logo\'s) do not change with the annotations; the record\'s do', () => {
    const renamed = { ...m, name: `${m.name}x` };
    expect(pfmDigest(renamed.pfm)).toBe(pfmDigest(m.pfm));
    expect(matrixDigest(renamed)).not.toBe(matrixDigest(m));
    expect(matrixDigest({ ...m, row: m.row + 1 })).toBe(matrixDigest(m));
  });
});

// Values pinned as the lanes' toString(16) printed them, before the digits came from a table: a lane below
// 0x10000000 keeps its leading zeros, each lane in its order.
describe('hash128', () => {
  it.each([
    ['', '641d7a89db6e264ec566ddcaea573dc8'],
    ['abc', '4f75f29d15bc12978fe59ea7a7c7770b'],
    ['MA0004.1\tArnt', '95c3b540b60a6a14eafa6f84727ad0ef'],
    ['é€😀', 'cb8428644f8d79f8499b7df80912cfce'],
  ])('of %j is %s', (text, hash) => {
    expect(hash128(text)).toBe(hash);
  });
});
