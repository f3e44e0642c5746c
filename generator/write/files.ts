// File operations on the output folder, used only by the writer (the render
// workers return bytes; issue 13). Synchronous: one file at a time on the
// main thread (a build into an empty folder makes its new files on another:
// off-thread.ts, which makes them as writeIfChanged does). Links are never followed: files are opened with O_NOFOLLOW and
// looked at with lstat, and the writer refuses a folder holding links before
// it writes (changes.ts outputProblems), so no folder on the way is a link.
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, unlink as unlinkAsync, unlinkSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { LinkFunction, SameBytes } from './same-bytes.ts';
import { openNoAtime } from '../mirror/no-atime.ts';

export interface Written {
  size: number;
  /** NaN for a link made: linking changed the inode's ctime, read again once the build has made all its links (writer.ts). */
  ctimeMs: number;
  /** False when the file already held these bytes and was left alone (its mtime kept). */
  written: boolean;
  /** The file's inode number. */
  ino: number;
  /** A hard link to a file of the same bytes was made (same-bytes.ts), not a file. */
  linked: boolean;
  /** The inode the path was a name of before, when it had other names (their ctime changed): -1 otherwise. */
  left: number;
}

/** Content given in pieces, written as they come (pipeline/output-plan.ts StreamedContent). */
export interface Pieces {
  pieces(): Iterable<string>;
}

/**
 * Writes content to root/rel unless the file already holds exactly these
 * bytes. compare=false skips the look (a path known to be absent or changed).
 * ensured: folders this thread already created. Content in pieces is
 * compared and written a chunk at a time, rendered again for the write
 * when it was compared and differs.
 *
 * same: the files of this build by their bytes (same-bytes.ts). A file whose
 * bytes one of them holds is made a hard link to it; one that is not is
 * written, and the caller keeps it there (same.keep) for the next ones. A
 * file that is a name of an inode with others (a link of a previous build)
 * is removed and made again, never written in place: its other names, in
 * the site or anywhere else, keep their bytes.
 */
export function writeIfChanged(root: string, rel: string, content: string | Buffer | Pieces, compare: boolean, ensured: Folders, same: SameBytes | null = null, later: LaterUnlinks | null = null): Written {
  // Joined by hand: rel is a path of the plan ("/"-separated, normalized), and path.join scanned every one
  // again to normalize it (0.5 s of the main thread's profile of a full build, at load).
  const file = `${root}/${rel}`;
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.isBuffer(content) ? content : null;
  // What is at the path before (compare=false: nothing).
  const before = compare ? lookBefore(file, bytes ?? (content as Pieces), same) : { st: undefined, left: -1 };
  if ('unchanged' in before) return before.unchanged;
  const { st, left } = before;
  ensureFolder(root, path.posix.dirname(rel), ensured);
  const to = bytes !== null && same !== null ? same.find(bytes) : null;
  if (to !== null) {
    try {
      linkOver(same!.link, to.file, file, st, later);
      return { size: bytes!.length, ctimeMs: NaN, written: true, ino: to.ino, linked: true, left };
    } catch (error) {
      // Where no link can be made (EMLINK, EXDEV, EPERM…): a copy, which the caller keeps for the next files of these bytes.
      same!.failed(error);
    }
  }
  let fd: number;
  try {
    fd = openSync(file, WRITE, 0o666);
  } catch (error) {
    // A folder of a previous build where this build writes a file.
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw linkError(error, rel);
    rmSync(file, { recursive: true, force: true });
    fd = openSync(file, WRITE, 0o666);
  }
  try {
    // Over the bytes there, from the start, then cut to the new length if it is shorter (WRITE).
    let position = 0;
    const write = (chunk: Buffer) => {
      let offset = 0;
      while (offset < chunk.length) {
        const n = writeSync(fd, chunk, offset, chunk.length - offset, position);
        offset += n;
        position += n;
      }
    };
    if (bytes !== null) write(bytes);
    else for (const chunk of chunks(content as Pieces)) write(chunk);
    let st = fstatSync(fd);
    if (st.size > position) {
      ftruncateSync(fd, position);
      st = fstatSync(fd);
    }
    return { size: st.size, ctimeMs: st.ctimeMs, written: true, ino: st.ino, linked: false, left };
  } finally {
    closeSync(fd);
  }
}

/**
 * What writeIfChanged finds at file before it writes (compare=true): the file already holding the content
 * (unchanged: left as it is; its bytes looked up in same, for later files to link to), or what is there to
 * write over: st, a file that is the path's only name, or a folder (a name of an inode with others is
 * unlinked first, left its inode, and st is then undefined: nothing is there).
 */
export function lookBefore(file: string, content: Buffer | Pieces, same: SameBytes | null): { unchanged: Written } | { st: Stats | undefined; left: number } {
  let st = lstatSync(file, { throwIfNoEntry: false });
  if (st?.isFile() && (!Buffer.isBuffer(content) ? sameChunks(file, st.size, content) : st.size === content.length && sameBytes(file, content))) {
    // Found with its bytes: the file later ones of these bytes link to, when none is yet (the caller keeps it).
    if (Buffer.isBuffer(content)) same?.find(content);
    return { unchanged: { size: st.size, ctimeMs: st.ctimeMs, written: false, ino: st.ino, linked: false, left: -1 } };
  }
  let left = -1;
  if (st?.isFile() && st.nlink > 1) {
    unlinkSync(file);
    left = st.ino;
    st = undefined;
  }
  return { st, left };
}

/**
 * A hard link at file to existing, what was at file (st: a file or folder of a previous build) removed
 * first: a file (its last name: one with others was unlinked before) moved aside and unlinked later.
 */
function linkOver(link: LinkFunction, existing: string, file: string, st: Stats | undefined, later: LaterUnlinks | null): void {
  if (st?.isDirectory()) rmSync(file, { recursive: true, force: true });
  else if (st && later) later.unlink(file);
  else if (st) unlinkSync(file);
  link(existing, file);
}

/**
 * Files unlinked off the writer's thread. Unlinking a file's last name frees its blocks, and on this disk
 * (ext4 mounted with discard, no journal) the kernel discards them before unlink returns: 515-664 us of
 * wall a file of 1.5 KB written out before, one after the other; 68-71 us a file when libuv's threads
 * unlink them (fs.unlink) at once (shift24's measures, quiet). A rebuild after a matrix is added or
 * removed makes about 3,000 pages whose records shifted links to another page of their new bytes, each
 * freeing the file that was there (issue 22). The file is renamed aside in its folder first (a name no
 * planned path has: its own, ".~unlinked-" and a number), which frees nothing; finish() unlinks
 * here those not yet gone, before the writer reads the folders' mtimes and prunes. A build that dies
 * leaves them in the folder: the next build, which trusts no state then, prunes what it does not plan.
 */
export class LaterUnlinks {
  private readonly pending = new Set<string>();
  private next = 0;

  unlink(file: string): void {
    const aside = `${file}.~unlinked-${this.next++}`;
    renameSync(file, aside);
    this.pending.add(aside);
    // An error (none expected) leaves it to finish(), which says it.
    unlinkAsync(aside, (error) => void (error === null && this.pending.delete(aside)));
  }

  /** Every file handed is gone (unlinked here when its unlink on another thread has not said it is done). */
  finish(): void {
    for (const aside of this.pending) {
      try {
        unlinkSync(aside);
      } catch (error) {
        // Unlinked meanwhile on the other thread.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    this.pending.clear();
  }
}

/**
 * A file is written over in place, not truncated on open (O_TRUNC): truncating frees the file's blocks,
 * and on this disk (ext4 mounted with discard, no journal) each freed block is discarded at once, which
 * the write then waits for. Rewriting 3,000 files of about 1 KB took 1,100-1,200 us of wall a file with
 * O_TRUNC, 26-34 us in place (scripts of shift24, quiet); a rebuild after a matrix is added or removed
 * rewrites 23,500 list pages whose records shifted (issue 22). A file left longer is cut after the write.
 */
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;

/** Pieces joined into chunks of about this many characters: one write each, not one per record. */
const CHUNK = 1 << 20;

function* chunks(content: Pieces): Generator<Buffer> {
  let text = '';
  for (const piece of content.pieces()) {
    text += piece;
    if (text.length >= CHUNK) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text !== '') yield Buffer.from(text);
}

/** The file opened for reading without following a link (a link is never "the same"); null when it cannot be. */
function openNoFollow(file: string): number | null {
  // Its access time left as the mirror's reads leave it (mirror/no-atime.ts).
  try {
    return openNoAtime(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
}

/** The file holds exactly these bytes. */
function sameBytes(file: string, bytes: Buffer): boolean {
  const fd = openNoFollow(file);
  if (fd === null) return false;
  try {
    return fstatSync(fd).isFile() && readFileSync(fd).equals(bytes);
  } finally {
    closeSync(fd);
  }
}

/** The file (of size bytes) holds exactly the pieces' bytes, read a chunk at a time beside them. */
function sameChunks(file: string, size: number, content: Pieces): boolean {
  const fd = openNoFollow(file);
  if (fd === null) return false;
  try {
    if (!fstatSync(fd).isFile()) return false;
    let position = 0;
    for (const chunk of chunks(content)) {
      if (position + chunk.length > size) return false;
      const read = Buffer.allocUnsafe(chunk.length);
      let got = 0;
      while (got < chunk.length) {
        const n = readSync(fd, read, got, chunk.length - got, position + got);
        if (n === 0) return false;
        got += n;
      }
      if (!read.equals(chunk)) return false;
      position += chunk.length;
    }
    return position === size;
  } finally {
    closeSync(fd);
  }
}

/** O_NOFOLLOW's refusal (ELOOP) said plainly: a link appeared since the folder was checked. */
function linkError(error: unknown, rel: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return error;
  return new Error(`${rel} in the output folder became a link while the build wrote; it was not followed (fix: remove the link and build again)`);
}

/** The folders created already, as a Set of them answers (the writer's keeps them numbered: write/records.ts). */
export interface Folders {
  has(dir: string): boolean;
  add(dir: string): unknown;
}

export function ensureFolder(root: string, rel: string, ensured: Folders): void {
  if (rel === '.' || ensured.has(rel)) return;
  try {
    mkdirSync(path.join(root, rel), { recursive: true });
  } catch (error) {
    // A file of a previous build where this build needs a folder.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const at = path.join(root, ...parts.slice(0, i));
      const st = lstatSync(at, { throwIfNoEntry: false });
      if (st && !st.isDirectory()) {
        unlinkSync(at);
        break;
      }
    }
    mkdirSync(path.join(root, rel), { recursive: true });
  }
  ensured.add(rel);
}

/** What is at root/rel ("" is the root), the entry itself (lstat: a link is a link). */
export const lstatAt = (root: string, rel: string): Stats | undefined => lstatSync(rel ? `${root}/${rel}` : root, { throwIfNoEntry: false });

/** Every file and folder under root (relative, "/"-separated; "" is the root), and what is neither (links, FIFOs…), never entered. */
export function walk(root: string): { files: string[]; dirs: string[]; others: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const others: string[] = [];
  const visit = (rel: string) => {
    dirs.push(rel);
    for (const e of readdirSync(rel ? path.join(root, rel) : root, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.isFile()) files.push(r);
      else others.push(r);
    }
  };
  visit('');
  return { files, dirs, others };
}

/** Creates the output folder (and its parents). */
export function ensureRoot(root: string): void {
  mkdirSync(root, { recursive: true });
}

export function remove(root: string, rel: string): void {
  try {
    rmSync(path.join(root, rel), { recursive: true, force: true });
  } catch (error) {
    // A folder on its way is a file now (this build wrote one where a previous build's folder was: writeIfChanged
    // removed the folder and what it held): nothing is at the path. force leaves out only ENOENT.
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
}

/** Removes the folders (and their emptied parents) that hold nothing any more, deepest first. */
export function removeEmptyFolders(root: string, folders: Iterable<string>): void {
  const todo = new Set<string>();
  for (let f of folders) {
    while (f && f !== '.') {
      todo.add(f);
      f = path.posix.dirname(f);
    }
  }
  for (const f of [...todo].sort((a, b) => b.length - a.length)) {
    try {
      if (readdirSync(path.join(root, f)).length === 0) rmSync(path.join(root, f), { recursive: true });
    } catch {
      // already gone
    }
  }
}
