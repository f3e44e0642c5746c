import { describe, expect, it } from 'vitest';
import { paginate } from '../../generator/routes/paginate.ts';

describe('paginate', () => {
  it.each([
    [0, 10, [0]],
    [1, 10, [1]],
    [10, 10, [10]],
    [11, 10, [10, 1]],
    [5278, 10, [...Array(527).fill(10), 8]],
    [25, 7, [7, 7, 7, 4]],
  ])('%i items, page size %i', (n, size, lengths) => {
    const pages = paginate(Array.from({ length: n }, (_, i) => i), size);
    expect(pages.map((p) => p.items.length)).toEqual(lengths);
    pages.forEach((p, i) => {
      expect(p.number).toBe(i + 1);
      expect(p.previous).toBe(i === 0 ? null : i);
      expect(p.next).toBe(i === pages.length - 1 ? null : i + 2);
      expect(p.last).toBe(pages.length);
    });
    expect(pages.flatMap((p) => p.items)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('refuses a page size that is not a positive integer', () => {
    expect(() => paginate([1], 0)).toThrow();
    expect(() => paginate([1], 2.5)).toThrow();
  });
});
