// SVG assembly for a sequence logo: heights come from math.ts, letter and
// label outlines from glyphs.ts. Pure: the same PFM always gives the same
// bytes. Everything is drawn as filled outlines (no <text>), so the logo
// looks the same with or without fonts; each glyph is defined once in <defs>
// and placed with <use>.
import { LABEL_DIGIT_HEIGHT, LABEL_GLYPHS, LOGO_GLYPHS } from './glyphs.ts';
import { logoColumns, MAX_BITS, type Base, type Pfm } from './math.ts';
import { fmt, rounded } from './number.ts';

/** JASPAR's (ggseqlogo's) colours. */
export const LOGO_COLOURS: Readonly<Record<Base, string>> = {
  A: '#109648',
  C: '#255C99',
  G: '#F7B32B',
  T: '#D62839',
};

/**
 * Layout in user units (px at scale 1). Columns have a fixed pitch, so the
 * width grows with the matrix: 4 columns → 152 px, 35 columns → 958 px.
 */
export const LOGO_LAYOUT = {
  /** Column pitch. */
  column: 26,
  /** Letter width inside a column (the rest is the gap between stacks). */
  letter: 24,
  /** Height of 2 bits. */
  plotHeight: 100,
  /** Left edge of the plot area: room for "Bits", tick labels and ticks. */
  left: 40,
  /** Gap between the y axis and the first column. */
  axisGap: 2,
  top: 8,
  right: 6,
  /** Gap between the baseline and the column numbers. */
  numberGap: 4,
  bottom: 5,
  tick: 4,
  fontSize: 10,
} as const;

/** Coordinates are rounded to 0.01 px: invisible, and keeps files small and stable. */
const DECIMALS = 2;
const f = (x: number): string => fmt(x, DECIMALS);

/** Number(f(x)) without the string (number.ts rounded): a logo's stack edges are rounded three times a letter. */
const r2 = (x: number): number => rounded(x, DECIMALS);

const TICKS = [0, 0.5, 1, 1.5, 2];
const AXIS_COLOUR = '#333';

function textWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += glyph(ch).advance * size;
  return w;
}

function glyph(ch: string): { d: string; advance: number } {
  const g = LABEL_GLYPHS[ch];
  if (!g) throw new Error(`no label glyph for ${JSON.stringify(ch)}; add it in generator/logos/glyphs/extract.ts`);
  return g;
}

/** Label glyph ids: digits keep their value, "." is "p", letters are prefixed ("lB"). */
function glyphId(ch: string): string {
  if (ch >= '0' && ch <= '9') return `n${ch}`;
  if (ch === '.') return 'np';
  return `l${ch}`;
}

/** <use> elements placing `text` with its left end of the baseline at (x, y). */
function label(text: string, x: number, y: number, size: number, used: Set<string>): string {
  let out = '';
  let pen = x;
  for (const ch of text) {
    used.add(ch);
    // x and y default to 0 in SVG, so zeros are left out.
    const xa = f(pen) === '0' ? '' : ` x="${f(pen)}"`;
    const ya = f(y) === '0' ? '' : ` y="${f(y)}"`;
    out += `<use href="#${glyphId(ch)}"${xa}${ya}/>`;
    pen += glyph(ch).advance * size;
  }
  return out;
}

/** The outer size of the logo of a matrix with `columns` columns: pages give their <img> this size so that nothing moves as logos load. */
export function logoSize(columns: number): { width: number; height: number } {
  const L = LOGO_LAYOUT;
  return {
    width: L.left + L.axisGap + columns * L.column + L.right,
    // Whole pixels for the outer size, so embedding it needs no fractions.
    height: Math.ceil(L.top + L.plotHeight + L.numberGap + LABEL_DIGIT_HEIGHT * L.fontSize + L.bottom),
  };
}

export function renderLogoSvg(pfm: Pfm): string {
  const L = LOGO_LAYOUT;
  const columns = logoColumns(pfm);
  const n = columns.length;
  const perBit = L.plotHeight / MAX_BITS;
  const baseline = L.top + L.plotHeight;
  const usedBases = new Set<Base>();

  // Letter stacks. Edges are rounded once and each letter spans from its
  // rounded bottom edge to its rounded top edge, so letters meet exactly,
  // with no hairline gaps or overlaps, and the stack height is exact.
  const letters: string[] = [];
  const width = f(L.letter);
  columns.forEach((column, i) => {
    const x = f(L.left + L.axisGap + i * L.column + (L.column - L.letter) / 2);
    let cumulative = 0;
    for (const letter of column.letters) {
      const bottom = r2(baseline - cumulative * perBit);
      cumulative += letter.height;
      const top = r2(baseline - cumulative * perBit);
      const h = r2(bottom - top);
      if (h <= 0) continue;
      usedBases.add(letter.base);
      letters.push(`<use href="#${letter.base}" transform="translate(${x} ${f(top)})scale(${width} ${f(h)})"/>`);
    }
  });

  // Only the glyphs this logo uses, in a fixed order.
  const { head, labelDefs, tail } = frame(n);
  const defs: string[] = [];
  for (const base of ['A', 'C', 'G', 'T'] as const) {
    if (usedBases.has(base)) defs.push(`<path id="${base}" fill="${LOGO_COLOURS[base]}" d="${LOGO_GLYPHS[base]}"/>`);
  }
  defs.push(...labelDefs);
  return `${head}<defs>\n${defs.join('\n')}\n</defs>\n${tail}${letters.length ? `${letters.join('\n')}\n` : ''}</svg>\n`;
}

/**
 * What a logo draws whatever its counts, for its number of columns: the
 * size, the axis with its labels and the column numbers, and the label
 * glyphs they use. Drawn once for each width (a release's logos have a few
 * dozen widths) rather than for every logo: this was most of a logo's
 * drawing, and 20,000 logos are drawn for the shipped site (the files and
 * the matrix pages' reverse complements).
 */
function frame(n: number): { head: string; labelDefs: readonly string[]; tail: string } {
  let drawn = frames.get(n);
  if (drawn === undefined) frames.set(n, (drawn = drawFrame(n)));
  return drawn;
}

const frames = new Map<number, { head: string; labelDefs: readonly string[]; tail: string }>();

function drawFrame(n: number): { head: string; labelDefs: readonly string[]; tail: string } {
  const L = LOGO_LAYOUT;
  const perBit = L.plotHeight / MAX_BITS;
  const baseline = L.top + L.plotHeight;
  const digitHeight = LABEL_DIGIT_HEIGHT * L.fontSize;
  const { width, height } = logoSize(n);
  const usedLabelGlyphs = new Set<string>();

  // Y axis: ticks every half bit, labels at whole bits (0, 1, 2) — two
  // fewer glyphs than JASPAR's "0.0 … 2.0", which matters for small logos.
  const axisX = L.left;
  let axisPath = `M${f(axisX)} ${f(L.top)}V${f(baseline)}`;
  const labelRight = axisX - L.tick - 2;
  const labels: string[] = [];
  for (const t of TICKS) {
    const y = baseline - t * perBit;
    axisPath += `M${f(axisX - L.tick)} ${f(y)}H${f(axisX)}`;
    if (Number.isInteger(t)) {
      const text = String(t);
      labels.push(label(text, labelRight - textWidth(text, L.fontSize), y + digitHeight / 2, L.fontSize, usedLabelGlyphs));
    }
  }
  // "Bits", rotated, centred on the plot height; its baseline is on the right.
  const bitsWidth = textWidth('Bits', L.fontSize);
  const bitsBaselineX = labelRight - textWidth('0', L.fontSize) - 6;
  const bitsBottomY = L.top + L.plotHeight / 2 + bitsWidth / 2;
  labels.push(
    `<g transform="translate(${f(bitsBaselineX)} ${f(bitsBottomY)})rotate(-90)">` +
      label('Bits', 0, 0, L.fontSize, usedLabelGlyphs) +
      '</g>',
  );
  // Column numbers 1..n centred under the stacks, sharing one baseline.
  let numbers = '';
  for (let i = 0; i < n; i++) {
    const text = String(i + 1);
    const cx = L.left + L.axisGap + (i + 0.5) * L.column;
    numbers += label(text, cx - textWidth(text, L.fontSize) / 2, 0, L.fontSize, usedLabelGlyphs) + (i % 10 === 9 ? '\n' : '');
  }
  labels.push(`<g transform="translate(0 ${f(baseline + L.numberGap + digitHeight)})">\n${numbers.trimEnd()}\n</g>`);

  const labelDefs: string[] = [];
  for (const ch of Object.keys(LABEL_GLYPHS)) {
    if (usedLabelGlyphs.has(ch)) labelDefs.push(`<path id="${glyphId(ch)}" transform="scale(${L.fontSize})" d="${LABEL_GLYPHS[ch].d}"/>`);
  }

  const w = f(width);
  const h = f(height);
  return {
    head: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">\n`,
    labelDefs,
    tail:
      `<rect width="${w}" height="${h}" fill="#fff"/>\n` +
      `<path d="${axisPath}" stroke="${AXIS_COLOUR}" fill="none"/>\n` +
      `<g fill="${AXIS_COLOUR}">\n${labels.join('\n')}\n</g>\n`,
  };
}
