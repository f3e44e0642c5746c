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
import type { Worker } from 'node:worker_threads';
import { codeThread } from '../mirror/threads.ts';
import { lstatAt, walk } from './files.ts';
import { readState, type BuildState, type SharedState } from './state.ts';

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

/** What treeChanges returns. */
export type TreeChanges = ReturnType<typeof treeChanges>;

/**
 * treeChanges on another thread, while this one plans the site (issue 22: the
 * shipped site is 285,000 files and 42,000 folders, one lstat each, 1.1 s of
 * a one-matrix rebuild's 11). The worker looks at the files and the folders'
 * mtimes in plain JavaScript (a worker evaluating this source starts in
 * milliseconds, without tsx; the state goes over as one string of paths and
 * arrays of numbers); the entries of a folder whose mtime changed are read
 * here, against the state's maps. Null when the worker fails: the writer
 * then looks on its own thread.
 */
export function treeChangesOffThread(root: string, state: BuildState): Promise<TreeChanges | null> {
  return lookOffThread(root, () => state).found;
}

/** A look at the folder on other threads (treeChanges). found: what it finds, null when a thread fails or the look was
 *  stopped; stop(): the answer is no longer wanted; join(): a second thread takes half of the files the first has not
 *  reached, for a build with nothing else to do until the look ends (a site perhaps up to date, whose check this is). */
export interface FolderLook {
  found: Promise<TreeChanges | null>;
  stop(): void;
  join(): void;
}

/** treeChangesOffThread that may be stopped or joined (FolderLook). Begun from state.bin's bytes (readState's onShared)
 *  before they are parsed, the worker takes its columns from them, and state() gives the state parsed from them once
 *  it is asked for what it found (null: found is null). */
export function treeLookOffThread(root: string, from: BuildState | { shared: SharedState; state: () => BuildState | null }): FolderLook {
  return 'shared' in from ? lookOffThread(root, from.state, from.shared) : lookOffThread(root, () => from);
}

// The cells of Int32 a look's threads share: the file the first thread is at; the file from which each thread looks
// only at the files of inodes of its parity (joined: the first the even, the second the odd, so that no inode is
// looked at by both and each thread passes over the other names of those it found as on one thread); 1 once the
// folders are looked at (the second thread passes over names in untouched folders only).
const AT = 0;
const CUT = 1;
const FOLDERS_LOOKED = 2;

/**
 * Every file and folder, on a worker, and on a second one once joined. shared: the state file's bytes the state was
 * parsed from, the workers' to read: this thread then neither lists the files nor spells their folders and names for
 * them (20-30 ms of a one-count rebuild's main thread, before its plan), and the look begins before the state is parsed.
 */
function lookOffThread(root: string, stateOf: () => BuildState | null, shared?: SharedState): FolderLook {
  const workers: Worker[] = [];
  const stop = () => workers.forEach((w) => void w.terminate());
  let join = () => {};
  const found = new Promise<TreeChanges | null>((resolve) => {
    const done = (r: TreeChanges | null) => {
      join = () => {};
      stop();
      resolve(r);
    };
    // A worker that ends (or is stopped) without its answer: no answer.
    const start = (workerData: object, answer: (r: { altered: Int32Array; dirs: string[] }) => void) => {
      const worker = codeThread(TREE_CHECK, { workerData });
      workers.push(worker);
      let told = false;
      worker.once('message', (r: { altered: Int32Array; dirs: string[] }) => {
        told = true;
        answer(r);
      });
      worker.once('error', () => done(null));
      worker.once('exit', () => told || done(null));
    };
    // Each file a worker says was altered by its index: a slot of the records (shared), else of this list's.
    let slots: Int32Array | null = null;
    const ctl = new Int32Array(new SharedArrayBuffer(12));
    ctl[CUT] = 0x7fffffff;
    let workerData: object;
    // The second worker's altered files, once joined.
    let second: Promise<Int32Array> = Promise.resolve(new Int32Array(0));
    try {
      if (shared) {
        workerData = { root, shared, ctl, untouched: new Uint8Array(new SharedArrayBuffer(shared.counts[1])), side: 0, from: 0 };
      } else {
        const state = stateOf()!;
        // The files as numbers, spelt by the workers (records.ts fileParts): only the altered ones are spelt here.
        const files = state.records.fileParts(0);
        slots = files.slots;
        const dirs = [...state.dirs.keys()];
        const mtimes = Float64Array.from(state.dirs.values());
        workerData = { root, folders: files.folders.join('\0'), names: files.names.join('\0'), folder: files.folder, name: files.name, sizes: files.sizes, ctimes: files.ctimes, inos: files.inos, dirs: dirs.join('\0'), mtimes, ctl, untouched: new Uint8Array(new SharedArrayBuffer(files.folders.length)), side: 0, from: 0 };
      }
      start(workerData, (r) => {
        join = () => {};
        void second.then((more) => {
          const state = stateOf();
          if (state === null) return done(null);
          const altered = new Set(Array.from(r.altered, (j) => state.records.pathAt(slots ? slots[j] : j)));
          for (const j of more) altered.add(state.records.pathAt(slots ? slots[j] : j));
          done({ altered, extras: folderExtras(root, state, r.dirs) });
        });
      });
    } catch {
      done(null);
      return;
    }
    join = () => {
      join = () => {};
      // From the file after the one the first worker is at: those it reaches before it sees the cut it looks at whole.
      const cut = Atomics.load(ctl, AT) + 1;
      Atomics.store(ctl, CUT, cut);
      second = new Promise((answer) => {
        try {
          start({ ...workerData, side: 1, from: cut }, (r) => answer(r.altered));
        } catch {
          done(null);
        }
      });
    };
  });
  return { found, stop, join: () => join() };
}

/** The entries treeChanges reports of folders whose mtime is not the state's (dirs: those folders, found so on the worker). */
function folderExtras(root: string, state: BuildState, dirs: readonly string[]): string[] {
  const extras: string[] = [];
  for (const dir of dirs) {
    const st = lstatAt(root, dir);
    if (!st || (st.isDirectory() && st.mtimeMs === state.dirs.get(dir))) continue;
    if (!st.isDirectory()) {
      extras.push(dir);
      continue;
    }
    for (const name of readdirSync(dir ? `${root}/${dir}` : root)) {
      const rel = dir ? `${dir}/${name}` : name;
      if (!state.files.has(rel) && !state.dirs.has(rel)) extras.push(rel);
    }
  }
  return extras;
}

/**
 * The worker's source: the files not as recorded (by index), and the folders whose mtime is not (by index; the first
 * worker's). The folders are looked at first. A file is not looked at when a name of its inode (st_ino, as recorded:
 * hard links, same-bytes.ts) was, with the same recorded size and ctime, and found as recorded, and its folder is
 * untouched since: its mtime the recorded one and its ctime the same (an entry added, removed or renamed sets both; a
 * folder put back by a copy that keeps its mtime, \`cp -a\`, or moved there, has a later ctime). The folder's entries
 * then name the inodes they named, and that inode is as recorded. The shipped site's 285,403 files are 176,517
 * inodes: 108,886 lstats fewer (the look ends before a one-count rebuild's plan does). side 1: the second worker of a
 * joined look (lookOffThread), from the file from on, those of odd inodes, once the first has looked at the folders.
 */
const TREE_CHECK = `
const { parentPort, workerData } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const { root, shared, side, from } = workerData;
const ctl = workerData.ctl;
const untouched = workerData.untouched;
let folders, names, folder, name, sizes, ctimes, inos, dirs, mtimes;
// With the state file's bytes (state.ts SharedState): every slot of the records, those of a key alone (flags 0,
// records.ts NO_FILE) passed over. Its numbers copied out (a typed array needs an aligned offset).
let live = null;
if (shared) {
  const { bytes, at, counts } = shared;
  const text = (b) => Buffer.from(bytes.buffer, bytes.byteOffset + b[0], b[1]).toString('utf8');
  const lines = (b, n) => (n === 0 ? [] : text(b).split('\\n'));
  const copy = (Type, b) => new Type(bytes.slice(b[0], b[0] + b[1]).buffer);
  folders = lines(at.folders, counts[1]);
  names = lines(at.names, counts[2]);
  folder = copy(Int32Array, at.folder);
  name = copy(Int32Array, at.name);
  sizes = copy(Float64Array, at.sizes);
  ctimes = copy(Float64Array, at.ctimes);
  inos = copy(Float64Array, at.inos);
  live = bytes.slice(at.flags[0], at.flags[0] + at.flags[1]);
  dirs = Array.from(copy(Int32Array, at.dirs), (i) => folders[i]);
  mtimes = copy(Float64Array, at.mtimes);
} else {
  ({ folder, name, sizes, ctimes, inos, mtimes } = workerData);
  folders = workerData.folders.split('\\0');
  names = workerData.names.split('\\0');
  dirs = workerData.dirs === '' ? [] : workerData.dirs.split('\\0');
}
const at = (rel) => lstatSync(rel ? root + '/' + rel : root, { throwIfNoEntry: false });
const changed = [];
if (side === 0) {
  const looked = new Set();
  for (let i = 0; i < dirs.length; i++) {
    const st = at(dirs[i]);
    if (st && !(st.isDirectory() && st.mtimeMs === mtimes[i])) changed.push(i);
    else if (st && st.ctimeMs === st.mtimeMs) looked.add(dirs[i]);
  }
  for (let f = 0; f < folders.length; f++) if (looked.has(folders[f])) untouched[f] = 1;
  Atomics.store(ctl, ${FOLDERS_LOOKED}, 1);
  Atomics.notify(ctl, ${FOLDERS_LOOKED});
} else Atomics.wait(ctl, ${FOLDERS_LOOKED}, 0);
// Each inode found as recorded: the index of the file it was found through.
const found = new Map();
const altered = [];
for (let i = from; i < sizes.length; i++) {
  if (side === 0) Atomics.store(ctl, ${AT}, i);
  if (live !== null && live[i] === 0) continue;
  const ino = inos[i];
  if (i >= Atomics.load(ctl, ${CUT}) && ino % 2 !== side) continue;
  if (ino > 0 && untouched[folder[i]] === 1) {
    const j = found.get(ino);
    if (j !== undefined && sizes[j] === sizes[i] && ctimes[j] === ctimes[i]) continue;
  }
  const dir = folders[folder[i]];
  const st = at(dir === '' ? names[name[i]] : dir + '/' + names[name[i]]);
  if (!st || !st.isFile() || st.size !== sizes[i] || st.ctimeMs !== ctimes[i]) altered.push(i);
  else if (ino > 0 && st.ino === ino && !found.has(ino)) found.set(ino, i);
}
parentPort.postMessage({ altered: Int32Array.from(altered), dirs: changed.map((i) => dirs[i]) });
`;

/**
 * The previous build's state when the look at the folder, joined (this thread waits for it), finds it exactly as that
 * build left it and its fingerprint is this one; looked at on this thread when a worker failed. The look begun while
 * the inputs were hashed goes on (the shipped site's no-op stopped it and looked again from the first file on two
 * threads: the 0.2 s it had done thrown away, and every name of the first half's inodes looked at).
 */
export async function unchangedSiteShared(outDir: string, fingerprint: string, state: BuildState, look: FolderLook): Promise<BuildState | null> {
  if (state.fingerprint !== fingerprint) return null;
  look.join();
  const found = await look.found;
  if (found === null) return unchangedSite(outDir, fingerprint, state);
  return found.altered.size === 0 && found.extras.length === 0 ? state : null;
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
