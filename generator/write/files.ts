// File operations on the output folder, shared by the writer (main thread)
// and the render workers. Synchronous on purpose: each thread writes one
// file at a time, so the number of writes in flight is the number of threads.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';

export interface Written {
  size: number;
  ctimeMs: number;
  /** False when the file already held these bytes and was left alone (its mtime kept). */
  written: boolean;
}

/**
 * Writes content to root/rel unless the file already holds exactly these
 * bytes. compare=false skips the look (a path known to be absent or changed).
 * ensured: folders this thread already created.
 */
export function writeIfChanged(root: string, rel: string, content: string | Buffer, compare: boolean, ensured: Set<string>): Written {
  const file = path.join(root, rel);
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  if (compare) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (st?.isFile() && st.size === bytes.length && readFileSync(file).equals(bytes)) return { size: st.size, ctimeMs: st.ctimeMs, written: false };
  }
  ensureFolder(root, path.posix.dirname(rel), ensured);
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    // A folder of a previous build where this build writes a file.
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
    rmSync(file, { recursive: true, force: true });
    fd = openSync(file, 'w');
  }
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    const st = fstatSync(fd);
    return { size: st.size, ctimeMs: st.ctimeMs, written: true };
  } finally {
    closeSync(fd);
  }
}

function ensureFolder(root: string, rel: string, ensured: Set<string>): void {
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
      const st = statSync(at, { throwIfNoEntry: false });
      if (st && !st.isDirectory()) {
        unlinkSync(at);
        break;
      }
    }
    mkdirSync(path.join(root, rel), { recursive: true });
  }
  ensured.add(rel);
}

export const statOf = (root: string, rel: string): Stats | undefined => statSync(path.join(root, rel), { throwIfNoEntry: false });

/** Every file and folder under root (relative, "/"-separated; "" is the root). */
export function walk(root: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const visit = (rel: string) => {
    dirs.push(rel);
    for (const e of readdirSync(rel ? path.join(root, rel) : root, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else files.push(r);
    }
  };
  visit('');
  return { files, dirs };
}

export function remove(root: string, rel: string): void {
  rmSync(path.join(root, rel), { recursive: true, force: true });
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
