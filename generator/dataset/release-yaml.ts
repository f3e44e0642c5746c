// The release description (data/release-<year>.yaml, --release): its text,
// read as every input is (a regular file under its size limit, strict
// UTF-8), and its values, each checked with its line.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { COLLECTION_STATUSES, type CollectionStatus, type ReleaseCollection, type ReleaseInfo } from './types.ts';
import { jasparRelease } from './releases.ts';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { SIZE_LIMITS, readCapped } from './files.ts';
import { FORBIDDEN_CHARACTER, IDENTIFIER, q } from './text.ts';

/**
 * The text of the release description (--release). It lies outside the
 * release folder (data/release-<year>.yaml), so a link is followed, but like
 * every input it must be a regular file under its size limit, read as
 * strict UTF-8: a FIFO or a device given as --release is refused unopened.
 */
export function readReleaseText(file: string): string {
  const problems = new ProblemList();
  let read: { bytes: Buffer } | { why: string; fix: string };
  try {
    read = readCapped(realpathSync.native(file), SIZE_LIMITS.yaml);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    read = code === 'ENOENT' ? { why: 'is missing (or a dangling link)', fix: 'give the release description with --release FILE, e.g. data/release-2024.yaml' } : { why: `cannot be resolved (${code ?? 'error'})`, fix: 'give a readable file with --release' };
  }
  if ('bytes' in read) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      read = { why: 'is not valid UTF-8', fix: 'save it as UTF-8' };
    }
  }
  problems.add(file, 1, `the release description ${read.why}`, read.fix);
  throw new DatasetError(problems.items);
}

/** Keys of the release description and what each must be. */
const RELEASE_KEYS = {
  name: 'required',
  year: 'required',
  transfac_from: 'required',
  meme_url: 'required',
  citation: 'optional',
  license: 'optional',
  older_versions: 'optional',
} as const;

/**
 * The release description (data/release-<year>.yaml). Every value goes
 * into every page or text file, so each is checked with its line: strings
 * single-line (a newline in transfac_from would forge a line in every
 * TRANSFAC file), year a whole number from 1900 to 9999 (it names the
 * /api/v1/releases/<year>/ folder; .nan and 1e400 are numbers to YAML),
 * meme_url an http(s) URL without spaces. number (JASPAR's release number)
 * must be the one JASPAR gave the year (dataset/releases.ts), collections a
 * mapping of collection names to "mirrored" or "not published", and
 * older_versions a release folder relative to the description's own folder.
 */
export function readReleaseInfo(text: string, load: (t: string) => unknown, file: string): ReleaseInfo {
  const problems = new ProblemList();
  let data: unknown;
  try {
    data = load(text);
  } catch (error) {
    // js-yaml: reason and a 0-based mark; its message quotes the file, which is left out.
    const e = error as { reason?: string; mark?: { line?: number }; message: string };
    problems.add(file, (e.mark?.line ?? 0) + 1, `not valid YAML: ${e.reason ?? e.message.split('\n')[0]}`, 'repair the YAML (one "key: value" per line)');
    throw new DatasetError(problems.items);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.add(file, 1, 'expected a mapping of keys (name, year, transfac_from, meme_url)', `write one "key: value" per line`);
    throw new DatasetError(problems.items);
  }
  const values = data as Record<string, unknown>;
  // The line of a top-level key; 1 when it cannot be found (written in flow style, say).
  const lineOf = (key: string) => {
    const i = text.split('\n').findIndex((l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`));
    return i < 0 ? 1 : i + 1;
  };
  const string = (key: keyof typeof RELEASE_KEYS): string => {
    const value = values[key];
    if (value === undefined && RELEASE_KEYS[key] === 'optional') return '';
    if (typeof value !== 'string') {
      problems.add(file, lineOf(key), `"${key}" must be a string`, value === undefined ? `add ${key}: to ${file}` : `quote the value of ${key}`);
      return '';
    }
    const bad = FORBIDDEN_CHARACTER.exec(value);
    if (bad) {
      problems.add(file, lineOf(key), `"${key}" contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} (line break, tab, bidirectional control or similar)`, 'write the value on one line, as plain text');
    }
    return value;
  };
  const name = string('name');
  if (typeof values.name === 'string' && name.trim() === '') problems.add(file, lineOf('name'), '"name" is empty', 'name the release, e.g. JASPAR 2024');
  const year = values.year;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1900 || year > 9999) {
    problems.add(file, lineOf('year'), `"year" must be a whole number from 1900 to 9999, not ${year === undefined ? 'missing' : q(String(year))}`, year === undefined ? `add year: to ${file}` : 'write the release year, e.g. 2024');
  }
  const transfacFrom = string('transfac_from');
  const memeUrl = string('meme_url');
  if (typeof values.meme_url === 'string' && !FORBIDDEN_CHARACTER.test(memeUrl) && !/^https?:\/\/[^\s]+$/.test(memeUrl)) {
    problems.add(file, lineOf('meme_url'), `"meme_url" ${q(memeUrl)} is not an http(s) URL without spaces`, 'write the URL, e.g. http://jaspar.genereg.net/matrix/{matrix_id}');
  }
  const known = typeof year === 'number' ? jasparRelease(year) : undefined;
  const citation = string('citation') || (known?.citation ?? '');
  const license = string('license');
  const number = values.number;
  if (number !== undefined && (typeof number !== 'number' || !Number.isInteger(number) || number < 1)) {
    problems.add(file, lineOf('number'), `"number" must be JASPAR's release number, a whole number from 1, not ${q(String(number))}`, known ? `write number: ${known.number}` : 'write the release number, e.g. 10 for JASPAR 2024');
  } else if (number !== undefined && known && number !== known.number) {
    problems.add(file, lineOf('number'), `"number" is ${number} but JASPAR ${known.year} is release ${known.number}`, `write number: ${known.number}`);
  }
  const collections = readCollections(values.collections, file, lineOf('collections'), problems);
  const older = string('older_versions');
  let olderVersions: string | null = null;
  if (older !== '' && !FORBIDDEN_CHARACTER.test(older)) {
    // Relative to the description's folder (data/), so that the build finds it from any working folder.
    olderVersions = path.resolve(path.dirname(file), older);
    let folder = false;
    try {
      folder = statSync(olderVersions).isDirectory();
    } catch {
      folder = false;
    }
    if (!folder) problems.add(file, lineOf('older_versions'), `"older_versions" names ${q(older)}, which is not a folder beside ${path.basename(file)}`, 'name the release folder older versions take their counts from, e.g. older_versions: jaspar-2024, or remove the key');
  }
  if (problems.size > 0) throw new DatasetError(problems.items);
  return {
    name, year: year as number, transfacFrom, memeUrl,
    number: typeof number === 'number' ? number : (known?.number ?? null),
    citation, license, collections, olderVersions,
  };
}

/** collections: {CORE: mirrored, UNVALIDATED: not published}: which collections JASPAR's release has and which the mirror holds. */
function readCollections(value: unknown, file: string, line: number, problems: ProblemList): ReleaseCollection[] {
  if (value === undefined) return [];
  const shape = `a mapping of collection names to ${COLLECTION_STATUSES.map((s) => `"${s}"`).join(' or ')}, e.g. collections: {CORE: mirrored, UNVALIDATED: not published}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(file, line, '"collections" is not a mapping', `write ${shape}`);
    return [];
  }
  const out: ReleaseCollection[] = [];
  for (const [name, status] of Object.entries(value)) {
    if (!IDENTIFIER.test(name)) problems.add(file, line, `collection ${q(name)} is not a plain identifier (letters, digits, "_" and "-")`, 'use the collection name JASPAR uses, e.g. CORE');
    else if (!(COLLECTION_STATUSES as readonly unknown[]).includes(status)) problems.add(file, line, `collection ${name} is ${q(String(status))}`, `write ${shape}`);
    else out.push({ name, mirrored: status === 'mirrored', status: status as CollectionStatus });
  }
  if (out.length > 0 && !out.some((c) => c.mirrored)) problems.add(file, line, 'no collection is mirrored', 'say which collection the mirror holds, e.g. CORE: mirrored');
  return out;
}
