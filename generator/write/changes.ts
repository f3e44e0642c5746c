// How the output folder differs from what the previous build left (its
// state, state.ts), and what in it the writer must not touch. Read only.
//
// Links: the writer never follows a link inside the output folder (issue
// 15.3: OUT/static replaced by a link made a build delete and write in the
// folder it pointed at). Entries are looked at with lstat, and a link or any
// other non-regular entry (FIFO, socket, device) found where the build
// compares, writes or prunes is a problem reported before anything is
// written.
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { lstatAt, walk } from './files.ts';
import { readState, type BuildState } from './state.ts';

/** Files recorded in the state that are not as it says (changed, replaced, missing), and entries it does not know. */
export function treeChanges(root: string, state: BuildState, firstOnly = false): { altered: Set<string>; extras: string[] } {
  const altered = new Set<string>();
  const extras: string[] = [];
  for (const [rel, r] of state.files) {
    const st = lstatAt(root, rel);
    if (!st || !st.isFile() || st.size !== r.size || st.ctimeMs !== r.ctimeMs) {
      altered.add(rel);
      if (firstOnly) return { altered, extras };
    }
  }
  for (const [dir, mtime] of state.dirs) {
    const st = lstatAt(root, dir);
    if (!st || (st.isDirectory() && st.mtimeMs === mtime)) continue;
    if (!st.isDirectory()) {
      extras.push(dir);
      if (firstOnly) return { altered, extras };
      continue;
    }
    for (const name of readdirSync(dir ? `${root}/${dir}` : root)) {
      const rel = dir ? `${dir}/${name}` : name;
      if (!state.files.has(rel) && !state.dirs.has(rel)) extras.push(rel);
    }
    if (firstOnly && extras.length > 0) return { altered, extras };
  }
  return { altered, extras };
}

/** The previous build's state when the folder is exactly as it left it and its fingerprint is this one (state: read already). */
export function unchangedSite(outDir: string, fingerprint: string, state: BuildState | null = readState(outDir)): BuildState | null {
  if (!state || state.fingerprint !== fingerprint) return null;
  const { altered, extras } = treeChanges(path.resolve(outDir), state, true);
  return altered.size === 0 && extras.length === 0 ? state : null;
}

/** An entry the writer will not go through, remove or write over: "path (what it is)". */
export type OutputProblem = string;

/**
 * Links and other non-regular entries in the output folder, before anything
 * is written. With a trusted previous state, what treeChanges found: the
 * files that are not as it recorded them (altered: a file replaced by a link
 * is one) and the entries it does not know or that are no longer folders
 * (extras: a recorded folder, on the way to any output, replaced by a link is
 * one); without one, the whole folder, walked without entering links.
 */
export function outputProblems(root: string, previous: BuildState | null, altered: ReadonlySet<string>, extras: readonly string[]): OutputProblem[] {
  const problems: OutputProblem[] = [];
  const look = (rel: string) => {
    const st = lstatAt(root, rel);
    if (!st || st.isFile() || st.isDirectory()) return;
    problems.push(describe(root, rel, st.isSymbolicLink()));
  };
  if (lstatAt(root, '') === undefined) return problems;
  if (previous) {
    for (const rel of altered) look(rel);
    for (const rel of extras) look(rel);
  } else {
    for (const rel of walk(root).others) problems.push(describe(root, rel, lstatAt(root, rel)?.isSymbolicLink() ?? false));
  }
  return [...new Set(problems)].sort();
}

function describe(root: string, rel: string, link: boolean): string {
  if (!link) return `${rel} (not a regular file or folder)`;
  try {
    return `${rel} (a link to ${readlinkSync(path.join(root, rel))})`;
  } catch {
    return `${rel} (a link)`;
  }
}
