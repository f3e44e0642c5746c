// JASPAR format: ">ID\tNAME", then per base "X  [" + "%6.0f" counts joined
// by one space + " ]" (JASPAR's _print_matrix_data, format='jaspar').
import { BASES, type Matrix } from '../dataset/types.ts';
import { pyFixedWidth } from '../dataset/numbers.ts';
import { perRecord } from './records.ts';
import type { Format } from './types.ts';

export function jasparRecord(m: Matrix): string {
  let text = `>${m.matrixId}\t${m.name}\n`;
  for (const base of BASES) {
    text += `${base}  [${m.pfm[base].map((v) => pyFixedWidth(v, 6, 0)).join(' ')} ]\n`;
  }
  return text;
}

const jasparText = perRecord(jasparRecord, 'jaspar');

export const jaspar: Format = {
  id: 'jaspar',
  mediaType: 'text/jaspar; charset=utf-8',
  extension: 'jaspar.txt',
  render: (resource) => resource.matrices.map(jasparText).join(''),
};
