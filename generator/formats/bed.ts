// Binding sites as BED. A matrix's own resource is its BED file from the
// release, byte for byte (empty when it has none: an empty BED file is
// valid). Resources that show several matrices concatenate their files, each
// block under a "#" comment naming the matrix, which BED readers skip
// (UCSC, bedtools), so every site can still be traced to its matrix. Some
// release files are BED4 (chrom start end name) and most BED6: a file that
// mixes them confuses BED readers, so blocks are padded to six columns with
// "." (no score, no strand).
import type { Format } from './types.ts';

export const bed: Format = {
  id: 'bed',
  mediaType: 'text/plain; charset=utf-8',
  extension: 'bed.txt',
  render: (resource) => {
    if (resource.kind === 'detail') return resource.matrices[0]?.sites ?? '';
    return resource.matrices
      .filter((m) => m.sites !== null && m.sites !== '')
      .map((m) => `# ${m.matrixId} ${m.name}\n${toBed6(m.sites!)}`)
      .join('');
  },
};

function toBed6(sites: string): string {
  return sites.replace(/^(?![#]|track|browser)([^\n]+)$/gm, (line) => {
    const fields = line.split('\t').length;
    return fields >= 6 ? line : line + '\t.'.repeat(6 - fields);
  });
}
