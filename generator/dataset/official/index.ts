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
import type { ParsedFiles } from '../parsed-files.ts';

export { detect, releaseYear };
export type { OfficialRelease, OlderRelease };

/** True when the folder holds JASPAR download files (and so is read by readOfficial). */
export function hasOfficialFiles(found: Detected): boolean {
  return found.bundles.length > 0 || found.metadata.length > 0 || found.refused.length > 0;
}

/** older: the release older versions take their counts from (ReleaseInfo.olderVersions, read by dataset/read.ts). */
export function readOfficial(dir: string, info: ReleaseInfo, found: Detected = detect(dir), older?: OlderRelease, parsed?: ParsedFiles): OfficialRelease {
  const problems = new ProblemList();
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  for (const r of found.refused) problems.add(shown(r.path), 1, r.message, r.fix);
  if (found.bundles.every((b) => b.kind === 'meme')) {
    problems.add(shown(dir), 1, 'no JASPAR matrix bundle with counts (jaspar or TRANSFAC) in the folder',
      'add JASPAR<year>_<COLLECTION>_…_pfms_jaspar.txt or …_pfms_transfac.txt files (MEME files give probabilities, not counts), or a curated release with matrices.csv');
  }
  // Links are checked against the release folder, not each file's own folder (dataset/files.ts).
  const folder = new ReleaseFolder(dir);
  // Each file read and parsed, or taken as an earlier build parsed it (parsed-files.ts: unchanged content, no
  // problem then).
  const real = (file: string) => (folder.real === null ? null : path.join(folder.real, path.relative(path.resolve(dir), path.resolve(file))));
  const through = <T>(file: string, kind: string, parse: (text: string, name: string, problems: ProblemList) => T): T | null => {
    const name = shown(file);
    const read = (found: ProblemList) => {
      const text = readText(file, name, found, { folder });
      return text === null ? null : parse(text, name, found);
    };
    return parsed ? parsed.checked(real(file), `official\0${kind}`, name, problems, read) : read(problems);
  };
  const bundles: ParsedBundle[] = [];
  for (const file of found.bundles) {
    if (file.kind === 'meme') {
      const meme = through(file.path, file.kind, parseMeme);
      if (meme !== null) bundles.push({ file, counts: [], meme });
    } else {
      const counts = through(file.path, file.kind, file.kind === 'jaspar' ? parseJasparBundle : parseTransfac);
      if (counts !== null) bundles.push({ file, counts, meme: [] });
    }
  }
  const metadata: MetadataRow[] = [];
  for (const table of found.metadata) metadata.push(...(through(table.path, 'metadata', parseMetadata) ?? []));
  // A record that cannot be read would make its matrix look missing (a MEME
  // record without counts, a BED file without its matrix): report the files
  // alone. A refused file is left out and the rest is still checked.
  if (problems.size > found.refused.length) throw new DatasetError(problems.items);
  return mergeOfficial({ detected: found, bundles, metadata, shown, older }, info, problems);
}
