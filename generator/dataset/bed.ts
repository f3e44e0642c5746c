// A matrix's binding sites (sites/<id>.bed, and the BED files of JASPAR's
// downloads, official/merge.ts): checked line by line, since the lines are
// served byte for byte and their coordinates become JSON numbers.
import type { ProblemList } from './diagnostics.ts';
import type { ReleaseFolder } from './files.ts';
import { FORBIDDEN_CHARACTER, MAX_COUNT, aboveMaxCount, q, readText } from './text.ts';

/** A comment naming a matrix, as the block headers of pages that show several matrices' sites do (formats/bed.ts). */
const BLOCK_HEADER = /^#\s*[A-Za-z]{2}[0-9]{4}(\.[0-9]+)?(\s|$)/;
/** UCSC track line: "track" and key=value pairs, values quoted when they hold spaces. */
const TRACK_LINE = /^track([ \t]+[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|[^\s"]+))*[ \t]*$/;
/** UCSC browser line: "browser", a command, its arguments. */
const BROWSER_LINE = /^browser[ \t]+(position|hide|dense|pack|squish|full)([ \t]+[^\s]+)+[ \t]*$/;
/** A BED coordinate: a whole number, no sign, no leading zero (but 0). */
const COORDINATE = /^(0|[1-9][0-9]*)$/;
/** FORBIDDEN_CHARACTER but the tab, which separates BED fields. */
const FORBIDDEN_IN_BED = new RegExp(FORBIDDEN_CHARACTER.source.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000a-\\u001f'));
/** Whether a COORDINATE is above 2^53 (2^53 has 16 digits: shorter ones never are). */
const beyond = (digits: string) => digits.length >= 16 && aboveMaxCount(digits);

export function readBed(file: string, shown: string, problems: ProblemList, folder?: ReleaseFolder): string | null {
  const text = readText(file, shown, problems, { folder, kind: 'bed' });
  if (text === null) return null;
  const lines = text.split('\n');
  const before = problems.size;
  lines.forEach((line, i) => {
    const at = (message: string, fix: string) => problems.add(shown, i + 1, message, fix);
    if (line === '') return;
    // BED lines are served byte for byte: tab separates fields, nothing else may be a control.
    const bad = FORBIDDEN_IN_BED.exec(line);
    if (bad) {
      at(`the line contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, 'remove it; BED fields are separated by tabs and hold plain text');
      return;
    }
    if (line.startsWith('#')) {
      // Sites pages join several matrices' files under "# <id> <name>" lines:
      // such a comment in one file would attribute the sites after it to another matrix.
      if (BLOCK_HEADER.test(line)) at('a comment that names a matrix, like the "# <id> <name>" line that starts each matrix\'s sites where several are shown', 'remove the comment or reword it so that it does not start with a matrix id');
      return;
    }
    // The renderers skip every line starting with "track" or "browser": such a line must be one.
    if (line.startsWith('track')) {
      if (!TRACK_LINE.test(line)) at('a line starting with "track" that is not a UCSC track line (track key=value key="value with spaces" …)', 'write the track line as UCSC defines it, or rename the chromosome');
      return;
    }
    if (line.startsWith('browser')) {
      if (!BROWSER_LINE.test(line)) at('a line starting with "browser" that is not a UCSC browser line (browser position|hide|dense|pack|squish|full …)', 'write the browser line as UCSC defines it, or rename the chromosome');
      return;
    }
    const fields = line.split('\t');
    if (fields.length < 3) {
      at(`a BED line needs at least 3 tab-separated fields, this one has ${fields.length}`, 'write chrom<TAB>start<TAB>end[<TAB>name<TAB>score<TAB>strand]');
      return;
    }
    const [chrom, start, end] = fields;
    if (chrom === '' || /\s/.test(chrom)) at(`the chromosome ${q(chrom)} is empty or holds a space`, 'write the chromosome name, e.g. chr1');
    if (!COORDINATE.test(start) || !COORDINATE.test(end)) {
      at(`start ${q(start)} and end ${q(end)} are not whole numbers with start <= end`, 'use 0-based, half-open whole-number coordinates');
      return;
    }
    // Coordinates become JSON numbers (/api/v1/sites/<id>/): beyond 2^53 a double is not the number written.
    if (beyond(start) || beyond(end)) {
      at(`coordinate ${q(beyond(start) ? start : end)} is above 2^53 = ${MAX_COUNT}`, 'use the real coordinate; no genome is that long');
      return;
    }
    if (Number(start) > Number(end)) at(`start ${start} is after end ${end}`, 'use 0-based, half-open coordinates with start <= end');
  });
  if (problems.size > before) return null;
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
