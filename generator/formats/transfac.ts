// TRANSFAC as JASPAR 2024 exports it: AC/XX/ID/XX/DE, "PO\tA\tC\tG\tT", one
// row per position (number zero-padded to 2, counts as Python's str(float)),
// XX, six CC lines (always present, empty values kept, several values joined
// by "; "), XX, "//". Checked byte for byte against the 2345 records of the
// JASPAR 2024 TRANSFAC bundles.
import { BASES, type Matrix, type ReleaseInfo } from '../dataset/types.ts';
import { pyRepr } from '../dataset/numbers.ts';
import { perRecordWith } from './records.ts';
import type { Format } from './types.ts';

export function transfacRecord(m: Matrix, release: ReleaseInfo): string {
  let text = `AC ${m.matrixId}\nXX\nID ${m.name}\nXX\nDE ${m.matrixId} ${m.name} ; ${release.transfacFrom}\nPO\tA\tC\tG\tT\n`;
  for (let i = 0; i < m.pfm.A.length; i++) {
    text += `${String(i + 1).padStart(2, '0')}\t${BASES.map((b) => pyRepr(m.pfm[b][i])).join('\t')}\n`;
  }
  text += 'XX\n';
  text += `CC tax_group:${m.taxGroup}\n`;
  text += `CC tf_family:${m.tfFamily.join('; ')}\n`;
  text += `CC tf_class:${m.tfClass.join('; ')}\n`;
  text += `CC pubmed_ids:${m.pubmedIds.join('; ')}\n`;
  text += `CC uniprot_ids:${m.uniprotIds.join('; ')}\n`;
  text += `CC data_type:${m.dataType}\n`;
  text += 'XX\n//\n';
  return text;
}

const transfacText = perRecordWith(transfacRecord, 'transfac');

export const transfac: Format = {
  id: 'transfac',
  mediaType: 'text/transfac; charset=utf-8',
  extension: 'transfac.txt',
  render: (resource, { release }) => resource.matrices.map((m) => transfacText(m, release)).join(''),
};
