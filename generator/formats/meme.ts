// MEME minimal motif format as JASPAR writes it: the header once, then per
// motif "MOTIF id name", the letter-probability line with nsites = the first
// column's total (truncated, as Python's int()), rows " %.6f  %.6f  %.6f  %.6f"
// with every column divided by its own total (checked against all 762
// matrices with unequal column totals in the JASPAR 2018 MEME bundle), a URL
// line and a blank line.
import { BASES, type Matrix, type ReleaseInfo } from '../dataset/types.ts';
import { pyFixed } from '../dataset/numbers.ts';
import { perRecordWith } from './records.ts';
import type { Format } from './types.ts';

export const MEME_HEADER = 'MEME version 4\n\nALPHABET= ACGT\n\nstrands: + -\n\nBackground letter frequencies\nA 0.25 C 0.25 G 0.25 T 0.25\n\n';

export function memeRecord(m: Matrix, release: ReleaseInfo): string {
  const width = m.pfm.A.length;
  const totals = Array.from({ length: width }, (_, i) => BASES.reduce((sum, b) => sum + m.pfm[b][i], 0));
  const nsites = Math.trunc(totals[0] ?? 0);
  let text = `MOTIF ${m.matrixId} ${m.name}\n`;
  text += `letter-probability matrix: alength= 4 w= ${width} nsites= ${nsites} E= 0\n`;
  for (let i = 0; i < width; i++) {
    // A column without counts has no probabilities; JASPAR's code would divide
    // by zero. Print it as uniform so that MEME tools can still read the file.
    const row = BASES.map((b) => (totals[i] > 0 ? m.pfm[b][i] / totals[i] : 0.25));
    text += ` ${row.map((p) => pyFixed(p, 6)).join('  ')}\n`;
  }
  text += `URL ${release.memeUrl.replace('{matrix_id}', m.matrixId)}\n\n`;
  return text;
}

const memeText = perRecordWith(memeRecord, 'meme');

export const meme: Format = {
  id: 'meme',
  mediaType: 'text/meme; charset=utf-8',
  extension: 'meme.txt',
  render: (resource, { release }) => MEME_HEADER + resource.matrices.map((m) => memeText(m, release)).join(''),
};
