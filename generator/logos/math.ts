// Logo math apart from drawing: counts → probabilities → information → letter
// heights. Pure functions, no drawing. Follows ggseqlogo's "bits" method, which
// is how JASPAR draws its SVG logos: IC = 2 − H with no small-sample
// correction, letter height = p · IC, smallest letter at the bottom.

// The bases and the count matrix are the dataset's own types.
import { BASES, type Base, type Pfm } from '../dataset/types.ts';
export { BASES, type Base, type Pfm };

export interface LogoLetter {
  base: Base;
  /** Probability of the base in its column (0 when the column total is 0). */
  p: number;
  /** Letter height in bits: p · IC. */
  height: number;
}

export interface LogoColumn {
  /** Information content in bits, 0..2. */
  ic: number;
  /** All four letters, smallest height first (bottom of the stack); ties in A, C, G, T order. */
  letters: LogoLetter[];
}

/** Maximum information of a DNA column: log2(4). */
export const MAX_BITS = 2;

/** Number of columns; throws when the four rows differ in length (a caller bug, not data). */
export function pfmLength(pfm: Pfm): number {
  const n = pfm.A.length;
  for (const base of BASES) {
    if (pfm[base].length !== n) {
      throw new Error(`PFM rows differ in length: A has ${n} columns, ${base} has ${pfm[base].length}`);
    }
  }
  return n;
}

/** Probabilities of A, C, G, T in column i; all 0 when the column total is 0 (UN0498.1 column 12). */
export function columnProbabilities(pfm: Pfm, i: number): Record<Base, number> {
  const total = pfm.A[i] + pfm.C[i] + pfm.G[i] + pfm.T[i];
  const p = (count: number): number => (total > 0 ? count / total : 0);
  return { A: p(pfm.A[i]), C: p(pfm.C[i]), G: p(pfm.G[i]), T: p(pfm.T[i]) };
}

/** Shannon entropy in bits, with 0 · log 0 = 0. */
export function entropy(ps: readonly number[]): number {
  let h = 0;
  for (const p of ps) if (p > 0) h -= p * Math.log2(p);
  return h;
}

/**
 * Information content of column i in bits: 2 − H. An empty column has no
 * information (0, not 2), so it draws as an empty stack instead of a tall
 * stack of zero-height letters.
 */
export function columnInformation(pfm: Pfm, i: number): number {
  const a = pfm.A[i];
  const c = pfm.C[i];
  const g = pfm.G[i];
  const t = pfm.T[i];
  const total = a + c + g + t;
  return information(total > 0 ? a / total : 0, total > 0 ? c / total : 0, total > 0 ? g / total : 0, total > 0 ? t / total : 0);
}

/**
 * 2 − H of a column's probabilities (columnProbabilities' arithmetic, entropy() term by term in A, C, G,
 * T order: the same numbers), 0 for an empty column; with no objects or arrays in between, this and
 * logoColumn were half of a logo's drawing (20,000 logos for the shipped site: the files and the matrix
 * pages' reverse complements), and the matrix pages' information content.
 */
function information(pa: number, pc: number, pg: number, pt: number): number {
  if (pa === 0 && pc === 0 && pg === 0 && pt === 0) return 0;
  let h = 0;
  if (pa > 0) h -= pa * Math.log2(pa);
  if (pc > 0) h -= pc * Math.log2(pc);
  if (pg > 0) h -= pg * Math.log2(pg);
  if (pt > 0) h -= pt * Math.log2(pt);
  // Clamp tiny negative values from floating-point rounding of a uniform column.
  return Math.max(0, MAX_BITS - h);
}

/** One column's IC and letters, smallest height at the bottom; the probabilities worked out once (information). */
export function logoColumn(pfm: Pfm, i: number): LogoColumn {
  const a = pfm.A[i];
  const c = pfm.C[i];
  const g = pfm.G[i];
  const t = pfm.T[i];
  const total = a + c + g + t;
  const pa = total > 0 ? a / total : 0;
  const pc = total > 0 ? c / total : 0;
  const pg = total > 0 ? g / total : 0;
  const pt = total > 0 ? t / total : 0;
  const ic = information(pa, pc, pg, pt);
  const letters: LogoLetter[] = [
    { base: 'A', p: pa, height: pa * ic },
    { base: 'C', p: pc, height: pc * ic },
    { base: 'G', p: pg, height: pg * ic },
    { base: 'T', p: pt, height: pt * ic },
  ];
  // Array.prototype.sort is stable, so equal heights keep the A, C, G, T order.
  letters.sort((a, b) => a.height - b.height);
  return { ic, letters };
}

export function logoColumns(pfm: Pfm): LogoColumn[] {
  const n = pfmLength(pfm);
  const columns: LogoColumn[] = [];
  for (let i = 0; i < n; i++) columns.push(logoColumn(pfm, i));
  return columns;
}
