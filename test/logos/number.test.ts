import { describe, expect, it } from 'vitest';
import { fmt, fmtShort, pathData, rounded, type PathCommand } from '../../generator/logos/number.ts';
import { random } from '../support/random.ts';

describe('fmt', () => {
  it.each([
    [0.125, 2, '0.13'], // exact halves round up
    [-0.125, 2, '-0.12'], // … towards +∞, as Math.round does
    [-0.001, 2, '0'],
    [-0, 2, '0'],
    [12.3456, 2, '12.35'],
    [120, 2, '120'],
    [0.1 + 0.2, 3, '0.3'],
    [-3.14159, 3, '-3.142'],
  ])('fmt(%d, %d) = %s', (x, d, s) => expect(fmt(x, d)).toBe(s));

  it('refuses NaN and Infinity', () => {
    expect(() => fmt(NaN, 2)).toThrow();
    expect(() => fmt(Infinity, 2)).toThrow();
  });

  it.each([
    [0.5, '.5'],
    [-0.25, '-.25'],
    [1.5, '1.5'],
    [0, '0'],
  ])('fmtShort(%d) = %s', (x, s) => expect(fmtShort(x, 3)).toBe(s));
});

describe('rounded', () => {
  it('is the number fmt prints, for 200,000 seeded values (halves, tiny, negative, zeros)', () => {
    const next = random(22);
    const scales = [1, 100, 1e-3, 1e6, 0.01];
    for (let i = 0; i < 200_000; i++) {
      const scale = scales[i % scales.length];
      // Every fifth value a multiple of 0.005 (a half at two decimals), whose rounding is the delicate case.
      const x = i % 5 === 4 ? Math.round((next() - 0.5) * 4000) / 200 : (next() - 0.5) * scale;
      const d = i % 3 === 0 ? 3 : 2;
      const r = rounded(x, d);
      expect(Object.is(r, Number(fmt(x, d))), `rounded(${x}, ${d}) = ${r}, fmt ${fmt(x, d)}`).toBe(true);
    }
    for (const x of [-0, 0, -0.001, -0.004, 0.005, -0.005]) expect(Object.is(rounded(x, 2), Number(fmt(x, 2)))).toBe(true);
  });

  it('refuses NaN and Infinity, as fmt does', () => {
    expect(() => rounded(NaN, 2)).toThrow();
    expect(() => rounded(-Infinity, 2)).toThrow();
  });
});

describe('pathData', () => {
  const M = (x: number, y: number): PathCommand => ({ type: 'M', x, y });
  const L = (x: number, y: number): PathCommand => ({ type: 'L', x, y });
  const Z: PathCommand = { type: 'Z' };

  it.each<[string, PathCommand[], string]>([
    ['horizontal and vertical lines', [M(0, 0.195), L(0, 0), L(1, 0), L(1, 0.195), Z], 'M0 .195V0H1V.195z'],
    ['drops zero-length lines and the line that closes a contour', [M(0, 0), L(0.5, 0.5), L(0.5, 0.5), L(0, 1), L(0, 0), Z], 'M0 0L.5.5 0 1z'],
    ['omits repeated command letters', [M(0, 0), L(0.3, 0.7), L(0.6, 0.1), Z], 'M0 0L.3.7.6.1z'],
    ['writes relative when shorter', [M(10.25, 10.25), L(10.5, 10.75), Z], 'M10.25 10.25l.25.5z'],
    ['rounds before comparing', [M(0, 0), L(0.0001, 0.5), Z], 'M0 0V.5z'],
  ])('%s', (_, commands, expected) => expect(pathData(commands, 3)).toBe(expected));
});
