import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOGO_GLYPHS } from '../../generator/logos/glyphs.ts';
import { logoColumns, type Pfm } from '../../generator/logos/math.ts';
import { LOGO_LAYOUT, renderLogoSvg } from '../../generator/logos/svg.ts';
import {
  GOLDEN_DIR,
  jasparStacks,
  ourLetters,
  ourStacks,
  pathInkBox,
  readJasparPfm,
  readNonIntegerPfm,
  relativeHeights,
} from './helpers.ts';

const GOLDEN = ['MA0004.1', 'MA0002.2', 'MA0074.1', 'MA0139.1'];
const jasparSvg = (id: string): string => readFileSync(path.join(GOLDEN_DIR, 'jaspar2018', `${id}.svg`), 'utf8');
const perBit = LOGO_LAYOUT.plotHeight / 2;

/**
 * JASPAR's stacks as ggseqlogo draws them (R/heights.r, matrix_to_heights):
 * `y_pad = max(y1) * 0.004; y0 = y0 + y_pad; subset(y1 > y0)` — every
 * letter's bottom is raised by 0.4 % of the tallest stack, and letters not
 * taller than that pad are dropped. So a JASPAR column's ink runs from the
 * stack top down to pad above the bottom of its lowest surviving letter.
 */
function ggseqlogoInkHeights(pfm: Pfm): number[] {
  const columns = logoColumns(pfm);
  const pad = 0.004 * Math.max(...columns.map((c) => c.ic));
  return columns.map((c) => {
    let y0 = 0;
    for (const l of c.letters) {
      if (l.height > pad) return c.ic - (y0 + pad);
      y0 += l.height;
    }
    return 0;
  });
}

describe.each(GOLDEN)('%s against JASPAR 2018', (id) => {
  const pfm = readJasparPfm(id);
  const ours = renderLogoSvg(pfm);
  const theirs = jasparSvg(id);
  const ourStack = ourStacks(ours);
  const theirStack = jasparStacks(theirs);

  it('has the same columns in the same order', () => {
    expect(ourStack).toHaveLength(pfm.A.length);
    expect(theirStack).toHaveLength(pfm.A.length);
    // JASPAR keeps the matrix orientation (no reverse complement): the same
    // column-by-column profile, which the next test checks to 1 %.
  });

  it('has every stack within 1 % of JASPAR, relative to the tallest', () => {
    const a = relativeHeights(ourStack);
    const b = relativeHeights(theirStack);
    const diffs = a.map((v, i) => Math.abs(v - b[i]));
    expect(Math.max(...diffs)).toBeLessThanOrEqual(0.01);
  });

  it("matches JASPAR to 0.1 % once ggseqlogo's 0.4 % letter pad is modelled", () => {
    const model = ggseqlogoInkHeights(pfm);
    const max = Math.max(...model);
    const b = relativeHeights(theirStack);
    const diffs = model.map((v, i) => Math.abs(v / max - b[i]));
    expect(Math.max(...diffs)).toBeLessThanOrEqual(0.001);
  });

  it('stacks exactly to IC bits, letters exactly to p·IC', () => {
    const columns = logoColumns(pfm);
    ourStack.forEach((s, i) => {
      expect(s.bottom).toBeCloseTo(LOGO_LAYOUT.top + LOGO_LAYOUT.plotHeight, 6);
      expect(Math.abs(s.bottom - s.top - columns[i].ic * perBit)).toBeLessThanOrEqual(0.006);
    });
    const letters = ourLetters(ours);
    const expected = columns.flatMap((c) => c.letters.filter((l) => l.height * perBit >= 0.005).map((l) => [l.base, l.height * perBit] as const));
    expect(letters.map((l) => l.base)).toEqual(expected.map(([b]) => b));
    letters.forEach((l, i) => expect(Math.abs(l.height - expected[i][1])).toBeLessThanOrEqual(0.011));
  });

  it('is at most a fifth of the size of JASPAR’s SVG', () => {
    expect(Buffer.byteLength(ours)).toBeLessThanOrEqual(Buffer.byteLength(theirs) / 5);
  });
});

describe('glyphs', () => {
  it.each(Object.entries(LOGO_GLYPHS))('%s has ink spanning exactly the unit box', (_, d) => {
    const box = pathInkBox(d);
    expect(box.x1).toBeCloseTo(0, 3);
    expect(box.y1).toBeCloseTo(0, 3);
    expect(box.x2).toBeCloseTo(1, 3);
    expect(box.y2).toBeCloseTo(1, 3);
  });
});

describe('renderLogoSvg', () => {
  const zeroColumn = readJasparPfm('UN0498.1');
  const fractional = readNonIntegerPfm('MA1972.1');

  it.each([
    ['an all-zero column (UN0498.1)', zeroColumn],
    ['fractional counts (MA1972.1)', fractional],
    ['a single all-zero column', { A: [0], C: [0], G: [0], T: [0] }],
    ['no columns', { A: [], C: [], G: [], T: [] }],
  ])('renders %s without NaN or Infinity, byte-identically twice', (_, pfm: Pfm) => {
    const a = renderLogoSvg(pfm);
    expect(a).not.toMatch(/NaN|Infinity|undefined|-0(?![.\d])/);
    expect(a.endsWith('</svg>\n')).toBe(true);
    expect(renderLogoSvg(structuredClone(pfm))).toBe(a);
  });

  it('draws nothing in an all-zero column but still numbers it', () => {
    const svg = renderLogoSvg(zeroColumn);
    const stacks = ourStacks(svg);
    expect(stacks).toHaveLength(11);
    const col12x = LOGO_LAYOUT.left + LOGO_LAYOUT.axisGap + 11 * LOGO_LAYOUT.column;
    expect(stacks.every((s) => s.x < col12x)).toBe(true);
    expect(svg).toMatch(/<use href="#n1" x="[\d.]+"\/><use href="#n2" x="[\d.]+"\/>\n<\/g>/);
  });

  it('uses outlines only, colours from JASPAR, a viewBox, and defines what it uses', () => {
    const svg = renderLogoSvg(readJasparPfm('MA0139.1'));
    expect(svg).not.toContain('<text');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="([\d.]+)" height="([\d.]+)" viewBox="0 0 \1 \2">\n/);
    for (const [base, colour] of [['A', '#109648'], ['C', '#255C99'], ['G', '#F7B32B'], ['T', '#D62839']]) {
      expect(svg).toContain(`<path id="${base}" fill="${colour}"`);
    }
    const defined = new Set([...svg.matchAll(/<path id="([^"]+)"/g)].map((m) => m[1]));
    const used = new Set([...svg.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]));
    expect([...used].filter((u) => !defined.has(u))).toEqual([]);
    expect([...defined].filter((d) => !used.has(d))).toEqual([]);
  });

  it('grows in width with the number of columns', () => {
    const width = (svg: string): number => Number(/width="([\d.]+)"/.exec(svg)![1]);
    const short = renderLogoSvg(readJasparPfm('MA0094.1')); // 4 columns, the shortest
    const long = renderLogoSvg(readJasparPfm('MA1930.1')); // 35 columns, the longest
    expect(width(long) - width(short)).toBe(31 * LOGO_LAYOUT.column);
  });
});
