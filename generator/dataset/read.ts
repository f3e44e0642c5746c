// Which reader a --data folder needs: a folder with matrices.csv is a curated
// release (curated.ts); a folder of JASPAR's own download files is
// read by official/. The release description (data/release-<year>.yaml)
// follows the year of the official files unless --release names one. A
// description with older_versions names the release folder whose counts the
// official files' older versions take (official/merge.ts).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { loadRelease } from './curated.ts';
import type { ParsedFiles } from './parsed-files.ts';
import { detect, hasOfficialFiles, readOfficial, releaseYear, type OlderRelease } from './official/index.ts';
import { BASES, type Matrix, type Release, type ReleaseInfo } from './types.ts';

export interface ReadRelease {
  release: Release;
  /** Lines for the build summary (files used in part, files ignored); none for a curated release. */
  notes: string[];
}

/** The official files' detection, or null for a curated release (or a folder that is neither: the curated loader says what is missing). */
function officialFiles(dataDir: string) {
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory() || existsSync(path.join(dataDir, 'matrices.csv'))) return null;
  const found = detect(dataDir);
  return hasOfficialFiles(found) ? found : null;
}

/**
 * The release description to use: the one given; else, for official files of
 * a year, release-<year>.yaml beside the data folder (a folder laid out as
 * data/, with its own descriptions: its older_versions then names a release
 * folder beside it), then data/release-<year>.yaml; else curatedDefault.
 */
export function releaseFileFor(dataDir: string, given: string | undefined, curatedDefault: string): string {
  if (given !== undefined) return given;
  const found = officialFiles(dataDir);
  const year = found ? releaseYear(found) : null;
  if (year === null) return curatedDefault;
  const beside = path.join(path.dirname(path.resolve(dataDir)), `release-${year}.yaml`);
  if (existsSync(beside)) return beside;
  const file = path.join(path.dirname(curatedDefault), `release-${year}.yaml`);
  if (!existsSync(file)) {
    const problems = new ProblemList();
    problems.add(path.relative(process.cwd(), dataDir) || dataDir, 1, `the files are JASPAR ${year}, and ${path.relative(process.cwd(), file)} does not exist`,
      `write it (see data/release-2024.yaml) or name a release description with --release FILE`);
    throw new DatasetError(problems.items);
  }
  return file;
}

/**
 * Curated releases already read in this build, by folder (readReleases passes one): JASPAR 2026's older
 * versions come from the JASPAR 2024 folder the same build reads as a release of its own, which is read
 * once (1.6 s of CPU). Its matrices are shared, not copied: nothing changes a record once read.
 */
export type ReadCache = Map<string, Matrix[]>;

/** parsed: what earlier builds made of unchanged files (parsed-files.ts; the curated reader's). */
export function readRelease(dataDir: string, info: ReleaseInfo, cache?: ReadCache, parsed?: ParsedFiles): ReadRelease {
  const found = officialFiles(dataDir);
  if (found === null) {
    if (info.olderVersions !== null) {
      // A curated release lists every version itself: counts from elsewhere would be a second source.
      const problems = new ProblemList();
      problems.add(shown(dataDir), 1, `the release description names older_versions (${shown(info.olderVersions)}), but this folder is a curated release (matrices.csv), which holds every version itself`,
        'leave older_versions out of the description of a curated release: it is for JASPAR\'s download files, whose bundles hold the latest versions only');
      throw new DatasetError(problems.items);
    }
    const key = path.resolve(dataDir);
    const known = cache?.get(key);
    if (known) return { release: { info, matrices: known }, notes: [] };
    const release = loadRelease(dataDir, info, parsed);
    cache?.set(key, release.matrices);
    return { release, notes: [] };
  }
  return readOfficial(dataDir, info, found, info.olderVersions === null ? undefined : olderRelease(info.olderVersions, info, cache, parsed), parsed);
}

const shown = (file: string) => path.relative(process.cwd(), file) || file;

/** The release older versions take their counts from, read by its own reader; its own older_versions is not followed (one release back is the rule). */
function olderRelease(dir: string, info: ReleaseInfo, cache?: ReadCache, parsed?: ParsedFiles): OlderRelease {
  const { release } = readRelease(dir, { ...info, olderVersions: null }, cache, parsed);
  const curated = existsSync(path.join(dir, 'matrices.csv'));
  const folder = shown(dir);
  let preciseLines: Map<string, number> | undefined;
  // A curated release's counts: matrices/<id>.jaspar, or pfm_noninteger.json where they are not whole numbers.
  const where = (m: Matrix) => {
    if (!curated) return { file: folder, line: 1 };
    if (BASES.every((b) => m.pfm[b].every(Number.isInteger))) return { file: path.join(folder, 'matrices', `${m.matrixId}.jaspar`), line: 1 };
    const json = path.join(dir, 'pfm_noninteger.json');
    preciseLines ??= keyLines(readFileSync(json, 'utf8'));
    return { file: shown(json), line: preciseLines.get(m.matrixId) ?? 1 };
  };
  return { release, name: folder, where };
}

/** Line of each top-level "<id>": key of pfm_noninteger.json (read only when a problem names one). */
function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  text.split('\n').forEach((line, i) => {
    const key = /^\s*"([A-Z]{2}[0-9]{4}\.[0-9]+)"\s*:/.exec(line);
    if (key && !lines.has(key[1])) lines.set(key[1], i + 1);
  });
  return lines;
}
