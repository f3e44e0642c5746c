// What the curated reader (curated.ts) made of a file in an earlier build,
// by the file's content (issue 22: a one-matrix rebuild read and checked the
// 2024 release's 5,278 matrix files and 281 BED files again, about 0.4 s of
// CPU). A file is known by its real path and content hash as the build's
// fingerprint found them (pipeline/fingerprint.ts: hashed in this build, or
// kept from the previous one while its size, mtime, ctime and inode stay);
// a file it did not hash, or hashed with another content, is read. Only what
// a file gave without a problem is kept, under everything the result depends
// on: a .jaspar file's counts with the id and name its header was checked
// against, a BED file's text, matrices.csv's rows (0.2 s) and a download
// file's records (JASPAR 2026's bundles and metadata table: 0.47 s), each with
// the name its rows carry in problems found later. The build keeps the entries it used beside its
// state (write/state.ts), for the next build of the same generator sources.
import { ProblemList } from './diagnostics.ts';
import type { Pfm } from './types.ts';

export class ParsedFiles {
  private readonly used = new Map<string, unknown>();
  private added = false;
  /** The entries made, while at most madeHeld (a build appends them to the file before was read from: write/state.ts keptAppend). */
  private madeNow: Map<string, unknown> | null = new Map();

  /** before: the entries the previous build kept; hashOf: a file's content hash by its real path, if this build's fingerprint has it. */
  constructor(readonly before: ReadonlyMap<string, unknown>, private readonly hashOf: (real: string) => string | undefined, private readonly madeHeld = 0) {}

  /** A matrix file's counts (read: readJaspar, for the file at real path `real`, checked against `id` and `name`). */
  jaspar(real: string | null, id: string, name: string, read: () => Pfm | null): Pfm | null {
    return this.through(real, `jaspar\0${id}\0${name}`, read);
  }

  /** A BED file's text as the reader returns it when read now; else its length and MD5 as an earlier build read it
   *  (sites.ts SitesChecked: a record's sites are read from their file when asked, and checked against these). The
   *  texts kept were 9.8 MB of the 14 MB of parsed-files.v8 for the shipped releases, read by every rebuild to
   *  hash them and let them go. check: what sites.ts makes of a text. */
  bed<C>(real: string | null, read: () => string | null, check: (text: string) => C): string | C | null {
    let text: string | null = null;
    const checked = this.through(real, 'bed', () => {
      text = read();
      return text === null ? null : check(text);
    });
    return text ?? checked;
  }

  /** What a whole file's reader made of it (matrices.csv's rows; a JASPAR download file's records: official/index.ts),
   *  by what it is and the name its rows carry. read adds what is wrong to the list it is given: a result read with a
   *  problem is returned (the reader goes on to report the rest) and not kept. */
  checked<T>(real: string | null, what: string, shown: string, problems: ProblemList, read: (problems: ProblemList) => T | null): T | null {
    let clean = true;
    return this.through(real, `${what}\0${shown}`, () => {
      const own = new ProblemList();
      const value = read(own);
      problems.items.push(...own.items);
      clean = own.size === 0;
      return value;
    }, () => clean);
  }

  /** An entry an earlier build kept under a key the caller made of everything its value depends on (whole(): a
   *  result made from several files), marked used; undefined when there is none. */
  kept<T>(key: string): T | undefined {
    const value = this.before.get(key) as T | undefined;
    if (value !== undefined) this.used.set(key, value);
    return value;
  }

  /** Keeps a value made under such a key (kept()), for the next build, in place of any kept before under it. The
   *  value must be clean (made without a problem). */
  keep(key: string, value: unknown): void {
    this.remember(key, value, this.before.has(key) && this.before.get(key) !== value);
  }

  /** The content hash this build's fingerprint found for a file (by its real path), if it has one. */
  hashFor(real: string | null): string | undefined {
    return real === null ? undefined : this.hashOf(real);
  }

  /** The entries to keep for the next build; null when they are those the previous build kept. */
  toKeep(): Map<string, unknown> | null {
    return this.added || this.used.size !== this.before.size ? this.used : null;
  }

  /** The entries used (from before, or made). */
  get usedKeys(): { has(key: string): boolean } {
    return this.used;
  }

  /** The entries made; null when more were made than the constructor's madeHeld. */
  get made(): ReadonlyMap<string, unknown> | null {
    return this.madeNow;
  }

  private through<T>(real: string | null, what: string, read: () => T | null, keep = (): boolean => true): T | null {
    const hash = real === null ? undefined : this.hashOf(real);
    if (hash === undefined) return read();
    const key = `${what}\0${hash}`;
    if (this.before.has(key)) {
      const value = this.before.get(key) as T;
      this.used.set(key, value);
      return value;
    }
    const value = read();
    if (value !== null && keep()) this.remember(key, value);
    return value;
  }

  private remember(key: string, value: unknown, replaces = false): void {
    // Already in the file read (the same key is the same value): used, not added again.
    if (this.before.has(key) && !replaces) {
      this.used.set(key, this.before.get(key));
      return;
    }
    // Another value under a key the file has: appended, both would be in the file, the old one counted nowhere
    // as dropped (write/state.ts keptAppend): the file is written whole instead.
    if (replaces) this.madeNow = null;
    this.used.set(key, value);
    this.added = true;
    if (this.madeNow && this.madeNow.size < this.madeHeld) this.madeNow.set(key, value);
    else this.madeNow = null;
  }
}
