// Expected strings printed by CPython 3.11: repr(float(x)), '%.0f', '%.2f', '%.6f'.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped, pyFixed, pyFixedExact, pyFixedWidth, pyRepr } from '../../generator/dataset/numbers.ts';

describe('pyRepr (Python repr of a float)', () => {
  it.each([
    [4, '4.0'],
    [0, '0.0'],
    [1.05485, '1.05485'],
    [475.982532751092, '475.982532751092'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [123456789012345680, '1.2345678901234568e+17'],
    [0.1 + 0.2, '0.30000000000000004'],
    [43800, '43800.0'],
    [1e15, '1000000000000000.0'],
    [2.5e-7, '2.5e-07'],
  ])('%s → %s', (x, expected) => {
    expect(pyRepr(x)).toBe(expected);
  });
});

describe('pyFixed (Python %.Nf: ties to even on the exact binary value)', () => {
  it.each([
    // value, %.0f, %.2f, %.6f
    [682.5, '682', '682.50', '682.500000'],
    [87.5, '88', '87.50', '87.500000'],
    [0.5, '0', '0.50', '0.500000'],
    [1.5, '2', '1.50', '1.500000'],
    [2.5, '2', '2.50', '2.500000'],
    [9.5, '10', '9.50', '9.500000'],
    [1 / 128, '0', '0.01', '0.007812'],
    [0.125, '0', '0.12', '0.125000'],
    [99.995, '100', '100.00', '99.995000'],
    [475.982532751092, '476', '475.98', '475.982533'],
    [1e-5, '0', '0.00', '0.000010'],
    [0, '0', '0.00', '0.000000'],
  ])('%s', (x, f0, f2, f6) => {
    expect(pyFixed(x, 0)).toBe(f0);
    expect(pyFixed(x, 2)).toBe(f2);
    expect(pyFixed(x, 6)).toBe(f6);
  });

  it('takes its fast path only where it prints what the exact decimal expansion gives', () => {
    const same = (x: number, d: number): void => {
      expect(pyFixed(x, d)).toBe(pyFixedExact(x, Math.abs(x), d));
    };
    const decimals = fc.constantFrom(0, 1, 2, 3, 6, 10);
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), decimals, (x, d) => same(x, d)), { numRuns: 5000 });
    // Counts and probabilities: whole numbers, k / 2^m (the only doubles that can be ties) and quotients.
    fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 12 }), decimals, (k, m, d) => same(k / 2 ** m, d)), { numRuns: 5000 });
    fc.assert(fc.property(fc.nat(1e6), fc.integer({ min: 1, max: 1e6 }), decimals, (a, b, d) => same(a / b, d)), { numRuns: 5000 });
  });

  it('pads like %6.0f and %6.2f', () => {
    expect(pyFixedWidth(4, 6, 0)).toBe('     4');
    expect(pyFixedWidth(682.5, 6, 0)).toBe('   682');
    expect(pyFixedWidth(43800, 6, 0)).toBe(' 43800');
    expect(pyFixedWidth(1234567, 6, 0)).toBe('1234567');
    expect(pyFixedWidth(4, 6, 2)).toBe('  4.00');
  });
});

describe('grouped (toLocaleString("en") without ICU)', () => {
  it('prints every number as toLocaleString("en") does', () => {
    for (const n of [0, -0, 7, 999, 1000, -1000, 12345, 285403, 1234567, 9007199254740991, -9007199254740991, 1234.5678, NaN, Infinity]) {
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en'));
    }
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => grouped(n) === n.toLocaleString('en')));
  });
});
