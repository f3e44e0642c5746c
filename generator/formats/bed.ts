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

/** The sites with every line that is not a comment, track or browser line padded to six fields (bedToBed6Slow's rules). */
export function toBed6(sites: string): string {
  // The lines as the regex sees them: "^" and "$" also stop at \r, U+2028 and U+2029, which no release file has.
  if (OTHER_BREAKS.test(sites)) return bedToBed6Slow(sites);
  // A scan of each line's tabs, not a replace with a callback that splits every line: the default list's
  // pages and the versions pages in BED print each record's sites, most of them BED6 already (0.2 s of a
  // render worker's 2.7 s in a rebuild after a matrix is removed, at load).
  let out = '';
  let last = 0;
  let start = 0;
  while (start < sites.length) {
    let end = sites.indexOf('\n', start);
    if (end === -1) end = sites.length;
    if (end > start && !sites.startsWith('#', start) && !sites.startsWith('track', start) && !sites.startsWith('browser', start)) {
      let fields = 1;
      for (let i = start; i < end && fields < 6; i++) if (sites.charCodeAt(i) === 9) fields++;
      if (fields < 6) {
        out += sites.slice(last, end) + PADS[6 - fields];
        last = end;
      }
    }
    start = end + 1;
  }
  return last === 0 ? sites : out + sites.slice(last);
}

const OTHER_BREAKS = /[\r\u2028\u2029]/;
const PADS = ['', '\t.', '\t.\t.', '\t.\t.\t.', '\t.\t.\t.\t.', '\t.\t.\t.\t.\t.'];

/** The rule as a regex over the lines (the multiline "^" and "$" of JavaScript): the reference toBed6 gives the same text as. */
export function bedToBed6Slow(sites: string): string {
  return sites.replace(/^(?![#]|track|browser)([^\n]+)$/gm, (line) => {
    const fields = line.split('\t').length;
    return fields >= 6 ? line : line + '\t.'.repeat(6 - fields);
  });
}
