// Raw PFM as the JASPAR API writes it: ">ID NAME", then one line per base of
// "%6.2f" counts joined by one space (format='pfm').
import { BASES, type Matrix } from '../dataset/types.ts';
import { pyFixedWidth } from '../dataset/numbers.ts';
import { perRecord } from './records.ts';
import type { Format } from './types.ts';

export function pfmRecord(m: Matrix): string {
  let text = `>${m.matrixId} ${m.name}\n`;
  for (const base of BASES) text += `${m.pfm[base].map((v) => pyFixedWidth(v, 6, 2)).join(' ')}\n`;
  return text;
}

const pfmText = perRecord(pfmRecord, 'pfm');

export const pfm: Format = {
  id: 'pfm',
  mediaType: 'text/pfm; charset=utf-8',
  extension: 'pfm.txt',
  render: (resource) => resource.matrices.map(pfmText).join(''),
};
