// How the build reaches the files of a release folder: the one policy for
// links, special files and sizes, shared by the loader (what it reads) and
// the up-to-date fingerprint (what it hashes), so that the two always see
// the same bytes. docs/parsing-behavior.md, "Files and links", says why.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

const MiB = 1024 * 1024;
/** Largest file of each kind the loader reads. The JASPAR 2024 release's
 *  largest are 0.8 MiB (matrices.csv), 2 KiB (a .jaspar file), 0.1 MiB
 *  (pfm_noninteger.json) and 0.1 MiB (a BED file); the limits leave room for
 *  releases many times larger while keeping a runaway file (a log, an
 *  image, a link to /dev/zero) from filling memory. */
export const SIZE_LIMITS = {
  csv: 64 * MiB,
  jaspar: 1 * MiB,
  json: 64 * MiB,
  bed: 64 * MiB,
  yaml: 1 * MiB,
  /** Any other file a loader reads (JASPAR's official download files). */
  other: 256 * MiB,
} as const;
export type FileKind = keyof typeof SIZE_LIMITS;

/** What a path inside the release folder names, after following links. */
export type Entry =
  | { kind: 'missing' }
  /** stat: the file's own (the link's target's for a link), which the fingerprint compares with what it kept (one stat a file, not two). */
  | { kind: 'file'; real: string; size: number; stat: Stats }
  | { kind: 'dir'; real: string }
  /** Present but not to be read: why (a phrase after "the file …") and what to do. */
  | { kind: 'refused'; why: string; fix: string };

const KEEP_INSIDE = 'copy the file into the release folder, or point --data at the folder the link leads to';

/**
 * The release folder (--data). Links are followed when, fully resolved,
 * they stay inside the folder's own real path; links leading elsewhere,
 * dangling and looping links, FIFOs, sockets and devices are refused and
 * never opened (opening a FIFO blocks; a device may never end).
 */
export class ReleaseFolder {
  /** Real path of the folder (a link given as --data is followed), or null when it does not exist. */
  readonly real: string | null;

  constructor(readonly root: string) {
    let real: string | null = null;
    try {
      real = realpathSync.native(root);
    } catch {
      real = null;
    }
    this.real = real;
  }

  private readonly folders = new Map<string, string>();
  /** Real path of a folder, remembered (a release has thousands of files in a few folders). */
  private realFolder(dir: string): string {
    let real = this.folders.get(dir);
    if (real === undefined) {
      real = realpathSync.native(dir);
      this.folders.set(dir, real);
    }
    return real;
  }

  /** Whether a real path lies inside the folder. */
  inside(real: string): boolean {
    return this.real !== null && (real === this.real || real.startsWith(this.real.endsWith(path.sep) ? this.real : this.real + path.sep));
  }

  /** What file (an absolute path under root) names; nothing is opened. */
  entry(file: string): Entry {
    let own;
    try {
      own = lstatSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      // ENOTDIR: a file where a folder of the path belongs; EACCES, ELOOP in a parent…
      return { kind: 'refused', why: `cannot be reached (${code ?? 'error'})`, fix: 'make the path a readable file or folder, or remove it' };
    }
    let real: string;
    try {
      // A plain file's real path is its folder's plus its name: one realpath per folder, not per file.
      real = own.isSymbolicLink() ? realpathSync.native(file) : path.join(this.realFolder(path.dirname(file)), path.basename(file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { kind: 'refused', why: 'is a link that loops (it leads back to itself)', fix: 'point the link at a real file, or remove it' };
      if (code === 'ENOENT') return { kind: 'refused', why: 'is a dangling link (its target does not exist)', fix: 'point the link at an existing file, or remove it' };
      return { kind: 'refused', why: `cannot be resolved (${code ?? 'error'})`, fix: 'make it a readable file, or remove it' };
    }
    if (!this.inside(real)) {
      return { kind: 'refused', why: 'is a link that leads outside the release folder', fix: KEEP_INSIDE };
    }
    const target = own.isSymbolicLink() ? safeStat(real) : own;
    if (target === null) return { kind: 'refused', why: 'cannot be read', fix: 'make it a readable file, or remove it' };
    if (target.isFile()) return { kind: 'file', real, size: target.size, stat: target };
    if (target.isDirectory()) return { kind: 'dir', real };
    return { kind: 'refused', why: `is ${specialKind(target)}, not a regular file`, fix: 'replace it with a regular file, or remove it' };
  }

  /**
   * The bytes of a regular file, at most `limit` of them. Opened without
   * blocking and checked again on the open descriptor, so a file swapped
   * for a FIFO or a device after entry() is refused as well. Returns the
   * problem (why, fix) instead when the file cannot be read.
   */
  read(file: string, limit: number): { bytes: Buffer } | { why: string; fix: string } {
    const found = this.entry(file);
    if (found.kind === 'missing') return { why: 'is missing', fix: 'add the file' };
    if (found.kind === 'refused') return found;
    if (found.kind === 'dir') return { why: 'is a folder, not a file', fix: 'replace it with a readable file, or remove it' };
    return readCapped(found.real, limit);
  }
}

/** Reads a regular file of at most limit bytes (more: refused, with the limit). */
export function readCapped(real: string, limit: number): { bytes: Buffer } | { why: string; fix: string } {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { why: `cannot be read (${code})`, fix: 'make the file readable, or remove it' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { why: `is ${specialKind(st)}, not a regular file`, fix: 'replace it with a regular file, or remove it' };
    const tooLarge = { why: `is larger than ${formatSize(limit)}, the limit for this kind of file`, fix: 'check that this is the right file; the limits are in docs/parsing-behavior.md' };
    if (st.size > limit) return tooLarge;
    // Read to the end, not to st.size: the file may grow while it is read.
    // The first chunk holds the whole file as it was (one byte more, to see
    // the end); a growing file reads on in 64 KiB chunks.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(limit + 1 - total, total === 0 ? st.size + 1 : 64 * 1024));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > limit) return tooLarge;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return { bytes: Buffer.concat(chunks, total) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { why: code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code})`, fix: 'make the file readable, or remove it' };
  } finally {
    closeSync(fd);
  }
}

function safeStat(file: string) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function specialKind(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a special file';
}

function formatSize(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;
}
