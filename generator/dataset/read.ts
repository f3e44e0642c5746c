// Which reader a --data folder needs: a folder with matrices.csv is a curated
// release (load.ts, unchanged); a folder of JASPAR's own download files is
// read by official/. The release description (data/release-<year>.yaml)
// follows the year of the official files unless --release names one.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { loadRelease } from './load.ts';
import { detect, hasOfficialFiles, readOfficial, releaseYear } from './official/index.ts';
import type { Release, ReleaseInfo } from './types.ts';

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

/** The release description to use: the one given, else data/release-<year>.yaml for official files of that year, else curatedDefault. */
export function releaseFileFor(dataDir: string, given: string | undefined, curatedDefault: string): string {
  if (given !== undefined) return given;
  const found = officialFiles(dataDir);
  const year = found ? releaseYear(found) : null;
  if (year === null) return curatedDefault;
  const file = path.join(path.dirname(curatedDefault), `release-${year}.yaml`);
  if (!existsSync(file)) {
    const problems = new ProblemList();
    problems.add(path.relative(process.cwd(), dataDir) || dataDir, 1, `the files are JASPAR ${year}, and ${path.relative(process.cwd(), file)} does not exist`,
      `write it (see data/release-2024.yaml) or name a release description with --release FILE`);
    throw new DatasetError(problems.items);
  }
  return file;
}

export function readRelease(dataDir: string, info: ReleaseInfo): ReadRelease {
  const found = officialFiles(dataDir);
  if (found === null) return { release: loadRelease(dataDir, info), notes: [] };
  return readOfficial(dataDir, info, found);
}
