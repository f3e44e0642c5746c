import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FirstPlaces } from '../../generator/mirror/archive.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('FirstPlaces (the first file of each bytes in an archive pass)', () => {
  it('gives the place of the first file of the same SHA-256, and notes a new one, past the table growing', () => {
    const firsts = new FirstPlaces();
    const n = 5000;
    for (let i = 0; i < n; i++) expect(firsts.firstOr(sha(`file ${i}`), i)).toBeUndefined();
    for (let i = 0; i < n; i++) expect(firsts.firstOr(sha(`file ${i}`), n + i)).toBe(i);
    // The later places were not noted: the first stays the first.
    expect(firsts.firstOr(sha('file 7'), 3 * n)).toBe(7);
  });

  it('tells apart digests whose first bytes (the table slot) are the same', () => {
    const firsts = new FirstPlaces();
    const same = 'ab12cd34';
    const hexes = Array.from({ length: 3000 }, (_, i) => same + sha(String(i)).slice(8));
    hexes.forEach((hex, i) => expect(firsts.firstOr(hex, i)).toBeUndefined());
    hexes.forEach((hex, i) => expect(firsts.firstOr(hex, -1)).toBe(i));
    // Uppercase digits are the same bytes.
    expect(firsts.firstOr(hexes[5].toUpperCase(), -1)).toBe(5);
  });

  it('keeps anything that is not 64 hex digits by its text', () => {
    const firsts = new FirstPlaces();
    const odd = `${sha('x').slice(0, 62)}zz`;
    expect(firsts.firstOr(odd, 1)).toBeUndefined();
    expect(firsts.firstOr(sha('x'), 2)).toBeUndefined();
    expect(firsts.firstOr(odd, 3)).toBe(1);
    expect(firsts.firstOr('short', 4)).toBeUndefined();
    expect(firsts.firstOr('short', 5)).toBe(4);
    expect(firsts.firstOr(sha('x'), 6)).toBe(2);
  });

  it('says whether bytes were noted without noting them (has: the reads made ahead ask it)', () => {
    const firsts = new FirstPlaces();
    expect(firsts.has(sha('a'))).toBe(false);
    expect(firsts.has(sha('a'))).toBe(false);
    expect(firsts.firstOr(sha('a'), 9)).toBeUndefined();
    expect(firsts.has(sha('a'))).toBe(true);
    expect(firsts.has(sha('b'))).toBe(false);
    expect(firsts.has('short')).toBe(false);
    firsts.firstOr('short', 10);
    expect(firsts.has('short')).toBe(true);
    // Asked, never noted: the first of these bytes is the next place given.
    expect(firsts.firstOr(sha('b'), 11)).toBeUndefined();
    expect(firsts.firstOr(sha('b'), 12)).toBe(11);
  });

  it('finds the same bytes given as hex or as DIGEST bytes in a column (firstOrAt, hasAt: the writer\'s digests by slot), past the table growing', () => {
    const firsts = new FirstPlaces();
    const n = 3000;
    const column = Buffer.alloc(32 * (n + 1));
    for (let i = 0; i < n; i++) Buffer.from(sha(`file ${i}`), 'hex').copy(column, 32 * (i + 1));
    // Even ones first noted by hex, odd ones by their bytes at an offset of the column.
    for (let i = 0; i < n; i += 2) expect(firsts.firstOr(sha(`file ${i}`), i)).toBeUndefined();
    for (let i = 1; i < n; i += 2) {
      expect(firsts.hasAt(column, 32 * (i + 1))).toBe(false);
      expect(firsts.firstOrAt(column, 32 * (i + 1), i)).toBeUndefined();
    }
    for (let i = 0; i < n; i++) {
      expect(firsts.hasAt(column, 32 * (i + 1))).toBe(true);
      expect(firsts.firstOrAt(column, 32 * (i + 1), -1)).toBe(i);
      expect(firsts.firstOr(sha(`file ${i}`), -1)).toBe(i);
    }
    // The column's zeros (offset 0) were never noted.
    expect(firsts.hasAt(column, 0)).toBe(false);
  });
});
