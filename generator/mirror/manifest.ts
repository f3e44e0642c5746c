// The manifest: one line per file, "<sha256 hex>  <path>\n", paths relative
// to the site root with "/" separators, in tree order (each folder's entries
// sorted by their UTF-8 bytes, sub-folders expanded in place: the order of
// the archive). That is `sha256sum`'s own format, so
// `sha256sum -c download/SHA256SUMS` run in the site's root checks a mirror
// without this project. Also here: walking a site and hashing its files,
// which the archive writer and verify share.
import { createHash, hash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { isSiteFile } from './layout.ts';

export type Manifest = Map<string, string>;

const LINE = /^([0-9a-f]{64}) [ *](.+)$/;
/** What "." in LINE does not match. */
const TERMINATOR = /[\r\u2028\u2029]/;

/** Paths compared unit by unit, each UTF-16 unit ranked by `rank` where they first differ, a prefix first. */
export function byUnitRank(rank: (unit: number) => number): (a: string, b: string) => number {
  return (a, b) => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a.charCodeAt(i);
      const y = b.charCodeAt(i);
      if (x !== y) return rank(x) - rank(y);
    }
    return a.length - b.length;
  };
}

/** UTF-16 order fixed up to code point order, which is the UTF-8 byte order
 *  (`LC_ALL=C sort`): surrogates (astral characters) sort after U+E000–U+FFFF. */
export const byPathBytes = byUnitRank((unit) => codePointRank(unit));

const codePointRank = (unit: number) => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/** One manifest line; refuses paths sha256sum would have to escape (the site never has them). */
export function manifestLine(file: string, hex: string): string {
  if (/[\n\r\\]/.test(file)) throw new Error(`cannot list ${JSON.stringify(file)} in the manifest: newline or backslash in a path`);
  return `${hex}  ${file}\n`;
}

/** Parses a manifest; throws with the line number of the first malformed line. */
export function parseManifest(text: string, source = 'manifest'): Manifest {
  const manifest: Manifest = new Map();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    // LINE's test by hand first (a rebuild reads the two shipped manifests, 285,000 lines: 0.2 s by the regex).
    const match = plainLine(line) ? [line, line.slice(0, 64), line.slice(66)] : LINE.exec(line);
    if (!match) throw new Error(`${source}:${i + 1}: not "<64 hex digits>  <path>" (fix: restore the manifest from the archive or the site)`);
    if (manifest.has(match[2])) throw new Error(`${source}:${i + 1}: ${match[2]} is listed twice`);
    manifest.set(match[2], match[1]);
  });
  return manifest;
}

/** "<64 lower-case hex>  <path>", the path without line terminators: a line LINE matches, as this project writes it (text mode). */
function plainLine(line: string): boolean {
  if (line.length < 67 || line.charCodeAt(64) !== 32 || line.charCodeAt(65) !== 32 || TERMINATOR.test(line)) return false;
  for (let i = 0; i < 64; i++) {
    const c = line.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

export function printManifest(manifest: Manifest): string {
  return [...manifest].map(([file, hex]) => manifestLine(file, hex)).join('');
}

/** In one call (crypto.hash, no Hash object: the mirror step hashes every file it reads). */
export const sha256 = (content: Buffer | string) => hash('sha256', content, 'hex');

export interface SiteEntry {
  /** Relative, "/"-separated. */
  path: string;
  kind: 'dir' | 'file' | 'other';
}

/** Every folder and file of a site in tree order, a folder before its
 *  contents, read one folder at a time (a site of any size). Entries at the
 *  root whose name starts with "." (build state) are left out. "other" is
 *  anything that is neither file nor folder (a symlink, a socket): verify
 *  reports it, the archive refuses it. */
export function* walkSite(root: string, rel = ''): Generator<SiteEntry> {
  const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => byPathBytes(a.name, b.name));
  for (const e of entries) {
    if (!rel && !isSiteFile(e.name)) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      yield { path: r, kind: 'dir' };
      yield* walkSite(root, r);
    } else yield { path: r, kind: e.isFile() ? 'file' : 'other' };
  }
}

/** The files (and the others) of a site, in tree order. */
export function listSite(root: string): { files: string[]; others: string[] } {
  const files: string[] = [];
  const others: string[] = [];
  for (const e of walkSite(root)) {
    if (e.kind === 'file') files.push(e.path);
    else if (e.kind === 'other') others.push(e.path);
  }
  return { files, others };
}

const shared = Buffer.alloc(1 << 20);

/** Successive chunks of a file (of its first `length` bytes), 1 MiB at a
 *  time, in one reused buffer: use each before asking for the next. */
export function* chunksOf(file: string, length = Infinity): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    for (let left = length; left > 0; ) {
      const n = readSync(fd, shared, 0, Math.min(shared.length, left), null);
      if (n === 0) break;
      left -= n;
      yield shared.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 of a file of any size (of its first `length` bytes if given). */
export function hashFile(file: string, length = Infinity): string {
  const hash = createHash('sha256');
  for (const bytes of chunksOf(file, length)) hash.update(bytes);
  return hash.digest('hex');
}
