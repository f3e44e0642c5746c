// What a site is built from, as hashes: the release folder (every file, by
// content, links followed as the loader follows them), the generator (its sources, assets, package manifest and lock,
// the Node version) and the options. Equal fingerprints and an unaltered
// output folder mean the site is already what this build would write.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ReleaseFolder, SIZE_LIMITS } from '../dataset/files.ts';

/** Hash of every file under dir (relative paths and contents, in name order). */
export function folderHash(dir: string, hash = createHash('sha1')): ReturnType<typeof createHash> {
  const visit = (rel: string) => {
    const entries = readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.isFile()) {
        const bytes = readFileSync(path.join(dir, r));
        hash.update(`${r}\0${bytes.length}\0`).update(bytes);
      }
    }
  };
  visit('');
  return hash;
}

/** The generator: everything under generator/, package.json, package-lock.json, and Node's version. */
export function sourcesHash(projectRoot: string): string {
  const hash = folderHash(path.join(projectRoot, 'generator'));
  for (const file of ['package.json', 'package-lock.json']) {
    try {
      hash.update(file).update(readFileSync(path.join(projectRoot, file)));
    } catch {
      hash.update(`${file} missing`);
    }
  }
  return hash.update(process.version).digest('hex');
}

/**
 * The release folder, as the loader sees it (dataset/files.ts): every
 * regular file under it by relative path and content, links that stay
 * inside followed to their targets' contents (a link to a file or a folder,
 * as git-annex or a shared data folder makes), everything the loader
 * refuses (links leading outside, dangling or looping links, FIFOs, devices)
 * by what it is, never opened. Every file counts, not only the kinds read
 * today, so a new input kind in the same folder is covered too. A missing
 * or unreadable folder hashes as such (the loader reports it).
 */
export function dataHash(dataDir: string, known?: InputHashes): string {
  try {
    return releaseHash(new ReleaseFolder(dataDir), known).digest('hex');
  } catch (error) {
    return hashOf('unreadable', dataDir, (error as Error).message);
  }
}

/**
 * Each input file's hash by its real path, with the size, mtime, ctime and inode it had when hashed
 * (kept in the build state: write/state.ts input-hashes.tsv): a file whose four are unchanged is not
 * read again (the shipped releases are 10,500 files, 39 MB, read and hashed by every build, no-op
 * included). ctime cannot be set by hand: a file written since has another.
 */
export type KnownHashes = Map<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number; hash: string }>;
/** The hashes kept by the previous build, and those of the files seen by this one (to keep for the next). */
export interface InputHashes {
  before: KnownHashes;
  next: KnownHashes;
  /** The hashes this build took of files changed within two seconds, which it does not keep (fileHash): what the reader
   *  read of them is still known by content (dataset/parsed-files.ts). Without them a file edited right before a
   *  build was parsed by it, nothing kept, and parsed again by the next one: an annotation edit's matrices.csv, 0.06 s
   *  of the next rebuild's plan. */
  recent?: Map<string, string>;
}

function releaseHash(folder: ReleaseFolder, known?: InputHashes, hash = createHash('sha1')): ReturnType<typeof createHash> {
  // Real paths of the folders being walked: a link back to one of them would never end.
  const open = new Set<string>();
  const visit = (rel: string, real: string) => {
    open.add(real);
    let names: string[];
    try {
      names = readdirSync(path.join(folder.root, rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    } catch (error) {
      hash.update(`${rel}\0unreadable\0${(error as NodeJS.ErrnoException).code}\0`);
      names = [];
    }
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      const e = folder.entry(path.join(folder.root, r));
      if (e.kind === 'dir') {
        if (open.has(e.real)) hash.update(`${r}\0loop\0`);
        else {
          hash.update(`${r}\0dir\0`);
          visit(r, e.real);
        }
      } else if (e.kind === 'file') {
        hash.update(`${r}\0file\0${fileHash(e.real, known, e.stat)}\0`);
      } else if (e.kind === 'refused') {
        hash.update(`${r}\0refused\0${e.why}\0`);
      }
    }
    open.delete(real);
  };
  if (folder.real === null) return hash.update('missing');
  visit('', folder.real);
  return hash;
}

/** Content of a regular file, streamed; anything else (swapped in since it was looked at) by what it is. looked: its
 *  stat as the folder's walk took it (ReleaseFolder entry), if it did. */
function fileHash(real: string, known?: InputHashes, looked?: Stats): string {
  // A file kept by the previous build and unchanged since: one stat, not open, fstat and close (every build
  // looks at the shipped releases' 10,500 files, the no-op one too). Anything else is opened below. The
  // walk's own stat of the file serves: a second one was 10,500 more calls a build (0.05-0.1 s of the
  // 0.1-0.2 s "input folders hashed" of a rebuild, profile at load 8). Taken a moment earlier than the one it
  // replaces, it misses only what that one missed too: a file changed right after it was looked at.
  const before = known?.before.get(real);
  const seen = before && (looked ?? statSync(real, { throwIfNoEntry: false }));
  if (before && seen && seen.isFile() && seen.size <= SIZE_LIMITS.other && unchanged(before, seen)) {
    known!.next.set(real, before);
    return before.hash;
  }
  const hash = createHash('sha1');
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return hashOf('unreadable', (error as NodeJS.ErrnoException).code ?? 'error');
  }
  try {
    const st = fstatSync(fd);
    // Larger than any file the loader reads: it refuses it whatever it holds.
    if (!st.isFile() || st.size > SIZE_LIMITS.other) {
      return hashOf('special or too large', String(st.mode), String(st.size), String(st.mtimeMs));
    }
    if (before && unchanged(before, st)) {
      known!.next.set(real, before);
      return before.hash;
    }
    // A regular file of known size: read whole (the size is bounded above).
    hash.update(readFileSync(fd));
    const hex = hash.digest('hex');
    // Kept once the file is two seconds old: a file changed again within the clock's tick (a few ms)
    // could keep its ctime and size (git's "racily clean" files); such a file is read again next time.
    if (Date.now() - st.ctimeMs > 2000) known?.next.set(real, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, hash: hex });
    else known?.recent?.set(real, hex);
    return hex;
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is as it was when hashed: its size, mtime, ctime and inode. */
const unchanged = (before: { size: number; mtimeMs: number; ctimeMs: number; ino: number }, st: Stats): boolean =>
  before.size === st.size && before.mtimeMs === st.mtimeMs && before.ctimeMs === st.ctimeMs && before.ino === st.ino;

export const hashOf = (...parts: string[]): string => {
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex');
};
