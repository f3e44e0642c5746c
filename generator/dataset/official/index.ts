// A folder of JASPAR's own download files as a release: find the files
// (detect.ts), read each (parse.ts, with the curated loader's text rules:
// strict UTF-8, \n line ends), put them together (merge.ts). Every problem of
// every file is reported at once, as the curated loader does.
import path from 'node:path';
import { DatasetError, ProblemList } from '../diagnostics.ts';
import { ReleaseFolder } from '../files.ts';
import { readText } from '../text.ts';
import type { ReleaseInfo } from '../types.ts';
import { detect, type Detected } from './detect.ts';
import { mergeOfficial, releaseYear, type OfficialRelease, type OlderRelease, type ParsedBundle } from './merge.ts';
import { parseJasparBundle, parseMeme, parseMetadata, parseTransfac, type MetadataRow } from './parse.ts';

export { detect, releaseYear };
export type { OfficialRelease, OlderRelease };

/** True when the folder holds JASPAR download files (and so is read by readOfficial). */
export function hasOfficialFiles(found: Detected): boolean {
  return found.bundles.length > 0 || found.metadata.length > 0 || found.refused.length > 0;
}

/** older: the release older versions take their counts from (ReleaseInfo.olderVersions, read by dataset/read.ts). */
export function readOfficial(dir: string, info: ReleaseInfo, found: Detected = detect(dir), older?: OlderRelease): OfficialRelease {
  const problems = new ProblemList();
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  for (const r of found.refused) problems.add(shown(r.path), 1, r.message, r.fix);
  if (found.bundles.every((b) => b.kind === 'meme')) {
    problems.add(shown(dir), 1, 'no JASPAR matrix bundle with counts (jaspar or TRANSFAC) in the folder',
      'add JASPAR<year>_<COLLECTION>_…_pfms_jaspar.txt or …_pfms_transfac.txt files (MEME files give probabilities, not counts), or a curated release with matrices.csv');
  }
  // Links are checked against the release folder, not each file's own folder (dataset/files.ts).
  const folder = new ReleaseFolder(dir);
  const bundles: ParsedBundle[] = [];
  for (const file of found.bundles) {
    const text = readText(file.path, shown(file.path), problems, { folder });
    if (text === null) continue;
    const name = shown(file.path);
    bundles.push({
      file,
      counts: file.kind === 'jaspar' ? parseJasparBundle(text, name, problems) : file.kind === 'transfac' ? parseTransfac(text, name, problems) : [],
      meme: file.kind === 'meme' ? parseMeme(text, name, problems) : [],
    });
  }
  const metadata: MetadataRow[] = [];
  for (const table of found.metadata) {
    const text = readText(table.path, shown(table.path), problems, { folder });
    if (text !== null) metadata.push(...parseMetadata(text, shown(table.path), problems));
  }
  // A record that cannot be read would make its matrix look missing (a MEME
  // record without counts, a BED file without its matrix): report the files
  // alone. A refused file is left out and the rest is still checked.
  if (problems.size > found.refused.length) throw new DatasetError(problems.items);
  return mergeOfficial({ detected: found, bundles, metadata, shown, older }, info, problems);
}
