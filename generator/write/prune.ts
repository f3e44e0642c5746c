// What this build does not plan leaves the output folder: the previous
// build's files that are no longer planned, and anything else found in the
// folder, then the folders emptied by that. Removal never follows a link
// (rm removes the link itself), and the writer has refused a folder holding
// links before it got here (changes.ts).
import path from 'node:path';
import { remove, removeEmptyFolders, walk } from './files.ts';
import type { BuildState } from './state.ts';

export interface PruneInput {
  root: string;
  /** Files this build wrote or kept; adopted files of the previous build are added to it when kept. */
  next: BuildState;
  /** The previous build's state when it could be trusted, and the entries it did not know. */
  previous: BuildState | null;
  extras: readonly string[];
  /** Every folder the planned files need ("" is the root). */
  folders: readonly string[];
  /** The folder held something before this build (without a trusted state, everything unplanned in it goes). */
  compare: boolean;
  /** Folders whose entries change (a removal's folder and those above it) are added to it. */
  touched?: Set<string>;
  /** The inodes of the previous build's files removed are added to it (hard links: their other names' ctime changed, writer.ts). */
  inodes?: Set<number>;
  /** The paths removed are added to it (the mirror's archives patched with the files gone, mirror/archive.ts patchPlan). */
  dropped?: string[];
}

/** Removes what is not planned; returns how many files and folders were removed. */
export function prune({ root, next, previous, extras, folders, compare, touched, inodes, dropped }: PruneInput): number {
  const removedFrom: string[] = [];
  let removed = 0;
  const drop = (rel: string) => {
    remove(root, rel);
    dropped?.push(rel);
    removedFrom.push(path.posix.dirname(rel));
    removed++;
    if (touched) for (let dir = path.posix.dirname(rel); ; dir = path.posix.dirname(dir)) {
      touched.add(dir === '.' ? '' : dir);
      if (dir === '.') break;
    }
  };
  if (previous) {
    // By slot, each path spelt only when not kept (records.ts holdsFileOf): 285,000 paths spelt and looked up again otherwise.
    const from = previous.records;
    for (const slot of from.fileSlots()) {
      if (next.records.holdsFileOf(from, slot)) continue;
      const rel = from.pathAt(slot);
      // Files that a later step adopted are that step's to keep or replace.
      if (from.fileAt(slot)!.adopted) next.records.copyFile(rel, from, slot);
      else {
        drop(rel);
        if (from.inoAt(slot) !== 0) inodes?.add(from.inoAt(slot));
      }
    }
    for (const rel of extras) if (!next.files.has(rel)) drop(rel);
  } else if (compare) {
    const found = walk(root);
    for (const rel of [...found.files, ...found.others]) if (!next.files.has(rel)) drop(rel);
    const planned = new Set(folders);
    // Unplanned folders, the top-most of each branch (removing it removes what it holds).
    const parentOf = (dir: string) => (dir.includes('/') ? path.posix.dirname(dir) : '');
    for (const dir of found.dirs) if (!planned.has(dir) && planned.has(parentOf(dir))) drop(dir);
  }
  removeEmptyFolders(root, removedFrom);
  return removed;
}
