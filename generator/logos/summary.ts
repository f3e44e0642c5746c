// What a matrix page states beside its logos: the reverse complement (drawn
// as a second logo), the information content and a consensus sequence. Pure,
// like math.ts, whose probabilities and column information it reuses.
import { BASES, columnInformation, columnProbabilities, pfmLength, type Base, type Pfm } from './math.ts';

const COMPLEMENT: Readonly<Record<Base, Base>> = { A: 'T', C: 'G', G: 'C', T: 'A' };

/** The matrix of the other strand: columns in reverse order, each base's counts under its complement. */
export function reverseComplement(pfm: Pfm): Pfm {
  const out = {} as Pfm;
  for (const base of BASES) out[COMPLEMENT[base]] = [...pfm[base]].reverse();
  return out;
}

/** Information content of the whole matrix in bits: the sum of its columns' (2 − H each, no small-sample correction, as the logo draws them). */
export function totalInformation(pfm: Pfm): number {
  let sum = 0;
  for (let i = 0; i < pfmLength(pfm); i++) sum += columnInformation(pfm, i);
  return sum;
}

/** IUPAC codes of two bases, keyed by the bases in A, C, G, T order. */
const TWO_BASE: Readonly<Record<string, string>> = { AC: 'M', AG: 'R', AT: 'W', CG: 'S', CT: 'Y', GT: 'K' };

/**
 * The consensus in IUPAC letters, by Cavener's rules (Nucleic Acids Res. 1987,
 * 15:1353): a base where it has over half the column and over twice the
 * next; else the two-base code where the two most frequent bases together
 * have over 75 %; else N. Ties keep A, C, G, T order, so the result is
 * deterministic. An empty column (all counts 0) is N.
 */
export function consensus(pfm: Pfm): string {
  let out = '';
  for (let i = 0; i < pfmLength(pfm); i++) {
    const p = columnProbabilities(pfm, i);
    const ranked = [...BASES].sort((a, b) => p[b] - p[a]);
    const [first, second] = ranked;
    if (p[first] > 0.5 && p[first] > 2 * p[second]) out += first;
    else if (p[first] + p[second] > 0.75) out += TWO_BASE[[first, second].sort().join('')];
    else out += 'N';
  }
  return out;
}
