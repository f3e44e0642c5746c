// A folder of JASPAR's own download files as a release: find the files
// (detect.ts), read each (parse.ts, with the curated loader's text rules:
// strict UTF-8, \n line ends), put them together (merge.ts). Every problem of
// every file is reported at once, as the curated loader does.
import path from 'node:path';
import { DatasetError, ProblemList } from '../diagnostics.ts';
import { ReleaseFolder } from '../files.ts';
import { readText } from '../text.ts';
import type { Matrix, ReleaseInfo } from '../types.ts';
import { hash128, knownDigest, matrixDigest, pfmDigest } from '../digest.ts';
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
  const real = (file: string) => (folder.real === null ? null : path.join(folder.real, path.relative(path.resolve(dir), path.resolve(file))));
  // The whole merge as an earlier build made it, when nothing it is made from changed (mergedKey), or changed
  // only in counts the older release gives alone (patched).
  const key = parsed && problems.size === 0 ? mergedKey(dir, info, found, older, (file) => parsed.hashFor(real(file))) : null;
  if (key === null) return readFiles(dir, info, found, older, parsed, folder, real, problems);
  const kept = parsed!.kept<Merged>(key);
  const matrices = kept === undefined ? null : patched(kept, older);
  if (matrices) return { release: { info, matrices }, notes: kept!.notes };
  let bundles: ParsedBundle[] = [];
  const made = readFiles(dir, info, found, older, parsed, folder, real, new ProblemList(), (read) => (bundles = read));
  parsed!.keep(key, merged(made, older, bundles));
  return made;
}

/** A merge as kept (its release description is the build's own), with what tells whether it still holds (patched). */
interface Merged {
  matrices: Matrix[];
  notes: string[];
  /** For each matrix, the counts of its version in the older release as pfmDigest prints them (the merge took them,
   *  or checked the bundles' against them); null where the older release does not list it. */
  older: (string | null)[];
  /** For each matrix, whether its counts are the older release's alone: no bundle of the folder holds its version
   *  (official/merge.ts mergeOne: then its counts are taken as they are, nothing is checked against them). */
  alone: boolean[];
  /** For each matrix, its digest (dataset/digest.ts: kept with the generator's sources, which make it): a rebuild's plan
   *  asks every record's, 4,572 of them JASPAR 2026's. */
  digests: string[];
}

/**
 * The kept merge's matrices as a merge would make them now: kept, the older release's counts all as they were;
 * with a version's counts changed where the merge takes them alone (a new record of that version, with the new
 * counts); null (merge again) when other counts changed: the merge checks the bundles' against them.
 */
function patched(kept: Merged, older: OlderRelease | undefined): Matrix[] | null {
  // Written by another build of the same sources, but read from a file anyone may have written over: not of this
  // shape, it is not used.
  const n = Array.isArray(kept?.matrices) ? kept.matrices.length : -1;
  if (!Array.isArray(kept?.notes) || ![kept.older, kept.alone, kept.digests].every((a) => Array.isArray(a) && a.length === n)) return null;
  if (!older && !kept.older.every((d) => d === null)) return null;
  const byId = new Map((older?.release.matrices ?? []).map((m) => [m.matrixId, m]));
  let matrices = kept.matrices;
  for (let i = 0; i < kept.matrices.length; i++) {
    if (kept.older[i] === null) continue;
    const now = byId.get(kept.matrices[i].matrixId);
    if (now === undefined) return null;
    if (pfmDigest(now.pfm) === kept.older[i]) continue;
    if (!kept.alone[i]) return null;
    if (matrices === kept.matrices) matrices = [...kept.matrices];
    matrices[i] = { ...kept.matrices[i], pfm: now.pfm };
  }
  // The records taken as they were have the digests they had (a patched one is another object: computed).
  for (let i = 0; i < kept.matrices.length; i++) if (matrices[i] === kept.matrices[i]) knownDigest(matrices[i], kept.digests[i]);
  return matrices;
}

/** What is kept of a merge just made (Merged). */
function merged(made: OfficialRelease, older: OlderRelease | undefined, bundles: readonly { counts: readonly { id: string }[]; meme: readonly { id: string }[] }[]): Merged {
  const byId = new Map((older?.release.matrices ?? []).map((m) => [m.matrixId, m]));
  // Any record of the version in a bundle, counts or MEME (a MEME record is checked against the counts).
  const inBundles = new Set(bundles.flatMap((b) => [...b.counts.map((r) => r.id), ...b.meme.map((r) => r.id)]));
  const matrices = made.release.matrices;
  return {
    matrices, notes: made.notes,
    older: matrices.map((m) => {
      const o = byId.get(m.matrixId);
      return o === undefined ? null : pfmDigest(o.pfm);
    }),
    alone: matrices.map((m) => !inBundles.has(m.matrixId)),
    digests: matrices.map(matrixDigest),
  };
}

/**
 * What a merge is made from but the older release's counts, as one key; null when a file's content hash is not
 * known (pipeline/fingerprint.ts hashed every file of the folder: only a file outside it, through a link, or a
 * folder not on disk). JASPAR 2026 merged again by every rebuild, its 2024 counts checked version by version, was
 * about 0.16 s of a one-count rebuild's plan, and the parsed download files it is made from (3.3 MB of
 * parsed-files.v8, most of its objects) read beside the state about as long again. The merge reads: the files
 * detected (their names, what they hold, their contents, the BED files' too), the release description, the
 * working folder (the notes name files relative to it), the older release's name and ids, and the counts of
 * those of its versions the metadata table lists (Merged.older: compared apart, patched). Its other fields, and
 * where() its counts lie, only go into problems, and a merge with a problem throws: nothing is kept.
 */
function mergedKey(dir: string, info: ReleaseInfo, found: Detected, older: OlderRelease | undefined, hashOf: (file: string) => string | undefined): string | null {
  const hashes: string[] = [];
  for (const file of [...found.bundles.map((b) => b.path), ...found.metadata.map((m) => m.path), ...found.beds.map((b) => b.path)]) {
    const hash = hashOf(file);
    if (hash === undefined) return null;
    hashes.push(hash);
  }
  const olderIds = older ? older.release.matrices.map((m) => m.matrixId).join('\n') : null;
  return `official merged\0${hash128(JSON.stringify([path.resolve(dir), process.cwd(), info, found, hashes, older?.name ?? null, olderIds]))}`;
}

/** Reads and parses each file (or takes it as an earlier build parsed it: parsed-files.ts, unchanged content, no
 *  problem then), then merges them. */
function readFiles(dir: string, info: ReleaseInfo, found: Detected, older: OlderRelease | undefined, parsed: ParsedFiles | undefined, folder: ReleaseFolder, real: (file: string) => string | null, problems = new ProblemList(), read?: (bundles: ParsedBundle[]) => void): OfficialRelease {
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
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
  read?.(bundles);
  return mergeOfficial({ detected: found, bundles, metadata, shown, older }, info, problems);
}
