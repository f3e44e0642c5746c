// The only module that changes the output folder. It updates the folder in
// place and rewrites only files whose bytes change, so unchanged files keep
// their mtime (deploy tools and rsync see no change):
// - before anything is written, the folder is checked for links and special
//   files (changes.ts): one is a problem, never followed;
// - a task whose key and files are the previous build's is not rendered at
//   all (pipeline/schedule.ts decides and renders; this writer is its sink:
//   build.ts shows render → write);
// - every other file is compared with the file on disk and written when it
//   differs (files.ts), as a hard link to a file of this build with the same
//   bytes when there is one (same-bytes.ts);
// - what this build does not plan is removed (prune.ts).
// The state that makes this possible lives beside the folder (state.ts). A
// build that dies half way leaves an in-progress mark, and the next build
// trusts nothing: it renders everything and compares every file.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { OutputPlan, WriteContent } from '../pipeline/output-plan.ts';
import { progress as showProgress } from '../pipeline/progress.ts';
import type { ScheduleSink } from '../pipeline/schedule.ts';
import type { SiteListing } from '../mirror/archive.ts';
import { outputProblems, treeChanges, type TreeChanges } from './changes.ts';
import { LaterUnlinks, ensureFolder, ensureRoot, lookBefore, lstatAt, writeIfChanged, type Folders } from './files.ts';
import { OutFolderError } from './guard.ts';
import { OffThreadFiles, type MadeFile } from './off-thread.ts';
import { prune } from './prune.ts';
import { SameBytes, type LinkFunction, type WrittenDigests } from './same-bytes.ts';
import { emptyState, markInProgress, readState, saveState, type BuildState, type FileRecord } from './state.ts';

export { MAX_DIR_ENTRIES } from '../routes/shard.ts';
export { OutputPlan } from '../pipeline/output-plan.ts';
export { treeChanges, unchangedSite } from './changes.ts';

export interface WriteOptions {
  /** Fingerprint of everything the site is built from; remembered for the next build. */
  fingerprint?: string;
  /** Progress on stderr when it is a terminal. */
  progress?: boolean;
  /** The previous build's state, read already (readState): read once per build, it is 285,000 lines for the shipped site. */
  previous?: BuildState | null;
  /** Files of the same bytes as hard links (same-bytes.ts): true (the default), false for files of their own, or the link function (tests). */
  links?: boolean | LinkFunction;
  /** Files made on a thread of their own (off-thread.ts): true, false, or (the default) with links made by link(2), for a plan of
   *  OFF_THREAD_FILES files or more into an empty folder, and in a folder of a previous build once REWRITES_HERE files were written. */
  offThread?: boolean;
}

/** Below this many files, a build into an empty folder makes them on the writer's thread: starting the other costs about 30 ms. */
const OFF_THREAD_FILES = 4096;

/**
 * Files written on the writer's thread in a folder of a previous build before the others are handed to a thread of
 * their own (off-thread.ts; true offThread: none). A rebuild after a matrix is added or removed writes about 23,500
 * list pages whose records shifted, over the files of the previous build: open, write, fstat and, for about 6,400
 * shorter now, ftruncate (whose freed blocks this disk discards before it returns), 2.3 s of the writer's thread's
 * wall of a 5-s render at load 8-10, while the render worker waited for it a third of the time (cpu-prof, shift32).
 * The files are still looked at (lstat, compared) here; a one-count rebuild's 128 files are all written here.
 */
const REWRITES_HERE = 512;

export interface WriteReport {
  files: number;
  bytes: number;
  /** Files whose bytes changed (or were new) and were written. */
  written: number;
  /** Files rendered or skipped that kept their bytes and mtime. */
  unchanged: number;
  /** Files and folders of a previous build (or put there by someone else) that were removed. */
  removed: number;
  /** Tasks rendered, and tasks skipped because their key and files were unchanged. */
  rendered: number;
  reused: number;
  /** False when there was no previous state to trust (first build, interrupted build). */
  incremental: boolean;
  /** The files written, when the build is incremental (the others are as the previous build left them: the mirror step reuses their hashes); null otherwise. */
  changed: Set<string> | null;
}

/** Links and special files listed in the refusal; the rest counted. */
const SHOWN_PROBLEMS = 20;

/**
 * Writes a plan into outDir, as the renderer hands it every file (the sink
 * of pipeline/schedule.ts renderPlan): open() checks and marks the folder,
 * key()/reuse()/file() take what the renderer decides and renders, close()
 * prunes what the plan no longer has. Between close() and commit() other
 * steps may add files to the folder through this writer (the mirror
 * archive, write/mirror.ts): commit() adopts them into the state, so the
 * next build checks them and does not delete them.
 */
export class SiteWriter implements ScheduleSink {
  readonly root: string;
  private readonly previous: BuildState | null;
  private next: BuildState = emptyState();
  /** After close(): the SHA-256 of the files written that SameBytes hashed (listing). */
  private digests: WrittenDigests | null = null;
  /** The paths prune removed in close() (the mirror patches its archives with those its manifests listed). */
  private dropped: string[] = [];
  /** Set by open(…, carry): the previous build's files are all kept, as they are, unless handed again. */
  private carried = false;
  private session: {
    previous: BuildState | null; altered: Set<string>; extras: string[]; compare: boolean; report: WriteReport; shown: ReturnType<typeof showProgress>; ensured: Folders;
    /** Folders whose entries this build changed (a file created, a file or folder removed), with those above them: their mtimes are read again.
     *  None without a previous state, whose folders' mtimes are all read (a 10x release has 420,000 folders). */
    touched: Set<string> | null;
    /** The files of this build by their bytes (null: no links made). */
    same: SameBytes | null;
    /** Inodes that gained or lost a name in this build: the ctime of their names is read again (close). */
    inodes: Set<number>;
    /** Files replaced by a link, unlinked off this thread (files.ts): all gone before close() reads the folders. */
    later: LaterUnlinks;
    /** New files made on another thread (the folder was empty), or null: all made before close() reads the folders. */
    thread: OffThreadFiles | null;
    /** Files written over (or new) in a folder of a previous build, made on another thread once started (REWRITES_HERE), or null. */
    rewrites: OffThreadFiles | null;
  } | null = null;

  constructor(readonly outDir: string, private readonly options: WriteOptions = {}) {
    this.root = path.resolve(outDir);
    this.previous = options.previous !== undefined ? options.previous : readState(outDir);
  }

  /** Checks the folder (links and special files are refused before anything is written) and marks it in progress.
   *  looked: treeChanges of the previous state, found already (changes.ts treeChangesOffThread, while the site was planned).
   *  carry: keep every file of the previous build (carry()) when it has a state and none of its files was altered since;
   *  else it is called first (to plan every task). Returns whether it kept them. gone: files of the previous build
   *  the plan no longer has (pipeline/kept-plan.ts carries: records removed), left out of what is kept (pruned). */
  open(plan: OutputPlan, looked: TreeChanges | null = null, carry: false | (() => void) = false, gone: readonly string[] = []): boolean {
    const { root } = this;
    const existed = lstatAt(root, '') !== undefined;
    // The state is kept beside the folder: a folder deleted since (rm -rf public) leaves nothing it describes.
    const previous = existed ? this.previous : null;
    const { altered, extras } = previous ? (looked ?? treeChanges(root, previous)) : { altered: new Set<string>(), extras: [] };
    const problems = outputProblems(root, previous, altered, extras);
    if (problems.length > 0) {
      const more = problems.length > SHOWN_PROBLEMS ? `, and ${problems.length - SHOWN_PROBLEMS} more` : '';
      throw new OutFolderError(root, `holds ${problems.length === 1 ? 'a link or special file' : `${problems.length} links or special files`}, which the build never follows, replaces or removes: ${problems.slice(0, SHOWN_PROBLEMS).join(', ')}${more}`,
        'remove them, or put the files themselves there; then build again');
    }
    const compare = existed && readdirSync(root).length > 0;
    this.digests = null;
    markInProgress(root);
    ensureRoot(root);
    // Not with a file altered (its task is to be rendered again), nor without a previous state.
    const kept = carry && previous !== null && altered.size === 0 ? this.carry(previous, gone) : null;
    if (carry && kept === null) carry();
    const { next } = this;
    // Room for the plan's files at once, with a little for the mirror step's: grown by doubling, the 10x synthetic
    // release's 1.45 million files had room for 2.1 million (37 bytes each) through the end of the render.
    if (kept === null) next.records.reserve(plan.files.size + (plan.files.size >> 6) + 1024);
    next.fingerprint = this.options.fingerprint ?? '';
    this.session = {
      // The folders created are flagged among the state's folders (records.ts), not a Set of 420,000 paths at 10x.
      previous, altered, extras, compare, ensured: next.records.made, touched: previous === null ? null : new Set(),
      same: this.options.links === false ? null : new SameBytes(next.records, root, typeof this.options.links === 'function' ? this.options.links : undefined),
      inodes: new Set(),
      later: new LaterUnlinks(),
      thread: null,
      rewrites: null,
      report: { files: kept?.files ?? plan.files.size, bytes: kept?.bytes ?? 0, written: 0, unchanged: kept?.files ?? 0, removed: 0, rendered: 0, reused: 0, incremental: previous !== null, changed: previous === null ? null : new Set() },
      shown: showProgress(plan.files.size, this.options.progress ? process.stderr : ({ isTTY: false } as NodeJS.WriteStream)),
    };
    const { offThread = plan.files.size >= OFF_THREAD_FILES && typeof this.options.links !== 'function' } = this.options;
    // Only where nothing is at the paths: a file compared first is looked at, and written, here.
    if (!compare && offThread) this.session.thread = new OffThreadFiles(root, (f) => this.made(f));
    return kept !== null;
  }

  /**
   * Starts the next state from the previous one whole (pipeline/kept-plan.ts: a plan that leaves out the tasks
   * whose files are the previous build's, planning the same paths): the plan's files replace their records as
   * they are handed. Returns the files and bytes carried (the plan's own files counted again as they come).
   */
  private carry(previous: BuildState, gone: readonly string[]): { files: number; bytes: number } {
    const records = previous.records.clone();
    for (const rel of gone) records.files.delete(rel);
    this.next = { fingerprint: '', report: null, files: records.files, keys: records.keys, dirs: records.dirs, records };
    this.carried = true;
    return records.ownTotals();
  }

  /** A task's key, remembered under its first path for the next build. */
  key(first: string, key: string): void {
    this.next.keys.set(first, key);
  }

  /** True (and the files kept as they are) when the previous build rendered these paths with this key and they are intact. */
  reuse(paths: readonly string[], key: string): boolean {
    const { previous, altered, shown, report } = this.open_();
    if (!previous) return false;
    // One lookup a path in the previous state, and its record copied from its slot there (write/records.ts
    // copyFile): with a lookup for each of keys.get, files.has, files.get and next.files.set, reusing a
    // rebuild's 285,000 files was about 1 s of its CPU at load (issue 22).
    const from = previous.records;
    const slots = this.reusedSlots;
    if (paths.length > slots.length) throw new Error(`reuse(): a task of ${paths.length} files (${paths[0]}), at most ${slots.length}`);
    for (let i = 0; i < paths.length; i++) {
      const slot = from.slot(paths[i], false);
      if (slot < 0 || (i === 0 && from.keyAt(slot) !== key) || !from.hasFile(slot) || (altered.size > 0 && altered.has(paths[i]))) return false;
      slots[i] = slot;
    }
    for (let i = 0; i < paths.length; i++) {
      this.next.records.copyFile(paths[i], from, slots[i]);
      // Carried files are counted already.
      if (this.carried) continue;
      report.bytes += from.sizeAt(slots[i]);
      report.unchanged++;
    }
    shown.add(paths.length, 0);
    return true;
  }

  /** reuse()'s slots of a task's paths in the previous state (a task has at most 16: output-plan.ts DEFERRED_SLOTS). */
  private readonly reusedSlots = new Int32Array(16);

  /** A file's bytes (or their pieces): written when they differ from the file on disk. */
  file(rel: string, content: WriteContent): void {
    const { compare, ensured, shown, same, inodes, later, thread } = this.open_();
    if (thread) {
      if (typeof content === 'string' || Buffer.isBuffer(content)) return this.fileOffThread(rel, typeof content === 'string' ? Buffer.from(content) : content, thread);
      // Content in pieces is written here (not held whole in memory), once every file handed over is made.
      thread.finish();
    }
    if (compare && (typeof content === 'string' || Buffer.isBuffer(content))) {
      const rewrites = this.rewrites();
      if (rewrites !== null && this.fileRewritten(rel, typeof content === 'string' ? Buffer.from(content) : content, rewrites)) return;
    }
    const w = writeIfChanged(this.root, rel, content, compare, ensured, same, later);
    const slot = this.record(rel, { size: w.size, ctimeMs: w.ctimeMs, adopted: false }, w.written, w.ino);
    same?.keep(slot);
    if (w.linked) inodes.add(w.ino);
    if (w.left >= 0) inodes.add(w.left);
    if (w.written) {
      const { report, touched } = this.open_();
      report.changed?.add(rel);
      if (touched) touchFolders(touched, rel);
    }
    shown.add(1, w.written ? 1 : 0);
  }

  /** file() of new bytes where nothing is (the folder was empty): the file recorded now, made on the other thread (its inode and ctime recorded once made: made()). */
  private fileOffThread(rel: string, bytes: Buffer, thread: OffThreadFiles): void {
    const { ensured, shown, same, report, touched } = this.open_();
    const dir = path.posix.dirname(rel);
    if (dir !== '.' && !ensured.has(dir)) handFolders(dir, ensured, thread);
    const to = same?.find(bytes) ?? null;
    // The file linked to is a file of this build, under the root (same-bytes.ts: root/path).
    const target = to === null ? null : to.file.slice(this.root.length + 1);
    const slot = this.record(rel, { size: bytes.length, ctimeMs: NaN, adopted: false }, true, 0);
    // Before the file is handed: handing it may take back made files (made()), which may say a link failed (same.failed).
    same?.keep(slot);
    if (target === null) thread.write(rel, bytes, slot);
    else thread.link(rel, target, slot, this.next.records.slot(target, false));
    report.changed?.add(rel);
    if (touched) touchFolders(touched, rel);
    shown.add(1, 1);
  }

  /** The thread that writes files over in a folder of a previous build, started once REWRITES_HERE files were written here (WriteOptions offThread); else null. */
  private rewrites(): OffThreadFiles | null {
    const session = this.open_();
    if (session.rewrites !== null) return session.rewrites;
    const { offThread, links } = this.options;
    // A link function of the tests' own cannot be called on another thread.
    if (offThread === false || typeof links === 'function' || (offThread !== true && session.report.written < REWRITES_HERE)) return null;
    session.rewrites = new OffThreadFiles(this.root, (f) => this.made(f));
    return session.rewrites;
  }

  /**
   * file() of bytes in a folder of a previous build, looked at here as writeIfChanged does (files.ts lookBefore), and
   * when they differ written over in place (the inode kept) or linked (same-bytes.ts) on the other thread, which
   * makes them in the order handed: a file linked to is there, with its bytes, when the link is made. The file's
   * ctime (a link's inode) recorded once made (made()). False, with nothing done, for a folder at the path (writeIfChanged).
   */
  private fileRewritten(rel: string, bytes: Buffer, rewrites: OffThreadFiles): boolean {
    const { ensured, shown, same, inodes, later, report, touched } = this.open_();
    const file = `${this.root}/${rel}`;
    const before = lookBefore(file, bytes, same);
    if ('unchanged' in before) {
      const w = before.unchanged;
      same?.keep(this.record(rel, { size: w.size, ctimeMs: w.ctimeMs, adopted: false }, false, w.ino));
      shown.add(1, 0);
      return true;
    }
    const { st, left } = before;
    // Written here (writeIfChanged), once every file handed is made: a file of these bytes it would link to is there.
    if (st !== undefined && !st.isFile()) {
      rewrites.finish();
      return false;
    }
    ensureFolder(this.root, path.posix.dirname(rel), ensured);
    const to = same?.find(bytes) ?? null;
    // Written over in place, a file keeps its inode; a new one's is known once made.
    const slot = this.record(rel, { size: bytes.length, ctimeMs: NaN, adopted: false }, true, to?.ino ?? st?.ino ?? 0);
    // Before the file is handed: handing it may take back made files (made()), which may say a link failed (same.failed).
    same?.keep(slot);
    if (to === null) rewrites.write(rel, bytes, slot);
    else {
      // The file there (the path's only name) moved aside and unlinked off this thread, as linkOver does (files.ts).
      if (st !== undefined) later.unlink(file);
      const target = to.file.slice(this.root.length + 1);
      rewrites.link(rel, target, slot, this.next.records.slot(target, false));
    }
    if (left >= 0) inodes.add(left);
    report.changed?.add(rel);
    if (touched) touchFolders(touched, rel);
    shown.add(1, 1);
    return true;
  }

  /** A file handed to the other thread is made: its inode and ctime (a link's: the inode linked to, its ctime read again at close, relinked). */
  private made(f: MadeFile): void {
    const { records } = this.next;
    const { inodes, same } = this.open_();
    if (f.ino === -1) {
      const ino = records.inoAt(f.linkedTo);
      records.setFileAt(f.slot, records.sizeAt(f.slot), NaN, false, ino);
      inodes.add(ino);
      return;
    }
    records.setFileAt(f.slot, records.sizeAt(f.slot), f.ctimeMs, false, f.ino);
    if (f.linkError) same?.failed(f.linkError);
  }

  /** Ends the writing of the plan: what it no longer has leaves the folder; the folders' mtimes are noted. */
  close(plan: OutputPlan, counts: { rendered: number; reused: number }): WriteReport {
    const { root, next } = this;
    const session = this.open_();
    const { previous, extras, compare, report, touched, inodes } = session;
    // The files handed to the other thread are made before anything reads the folder.
    for (const thread of [session.thread, session.rewrites]) {
      if (thread === null) continue;
      thread.finish();
      thread.close();
    }
    session.thread = null;
    session.rewrites = null;
    // The files by their bytes serve the render's files alone: let them go before the mirror step, but for
    // the digests of the files hashed, which the mirror step takes instead of hashing them again.
    this.digests = session.same?.written() ?? null;
    session.same = null;
    session.later.finish();
    this.stop();
    report.rendered = counts.rendered;
    report.reused = counts.reused;
    this.dropped = [];
    report.removed = prune({ root, next, previous, extras, folders: plan.folderList(), compare, touched: touched ?? undefined, inodes, dropped: this.dropped });
    this.relinked(inodes);
    // Carried, the state holds folders the plan does not: those a removal touched are read again (or forgotten, removed empty).
    if (this.carried && touched) {
      const planned = new Set(plan.folderList());
      for (const dir of touched) {
        if (planned.has(dir)) continue;
        const st = lstatAt(root, dir);
        if (st?.isDirectory()) next.dirs.set(dir, st.mtimeMs);
        else next.dirs.delete(dir);
      }
    }
    for (const dir of plan.folderList()) {
      // A folder this build did not touch keeps the mtime the previous state has (the writer checked it,
      // open: treeChanges); were it stale, the next build would only look into the folder again.
      const before = previous?.dirs.get(dir);
      if (before !== undefined && !touched!.has(dir)) {
        next.dirs.set(dir, before);
        continue;
      }
      const st = lstatAt(root, dir);
      if (st?.isDirectory()) next.dirs.set(dir, st.mtimeMs);
    }
    return report;
  }

  /** True when the previous build's state recorded the file and it is as recorded (size and ctime): e.g. an archive whose hash that build saved. */
  intact(rel: string): boolean {
    const { previous, altered } = this.open_();
    return previous !== null && previous.files.has(rel) && !altered.has(rel);
  }

  /** After close(): whether the folder holds a file the previous build's state did not (with nothing removed, a new file, written or found with its planned bytes); the mirror patches its archives only when not. */
  grew(): boolean {
    const { previous } = this.open_();
    return previous === null || this.next.files.size > previous.files.size;
  }

  /** What the folder holds after close(): every file written, kept or adopted, and every folder ("" is the root); the mirror archives it without reading every folder again.
   *  Spelt as they are iterated (once for each archive), not an array of 1.45 million paths at 10x. */
  listing(): SiteListing {
    const { files, dirs } = this.next;
    const { records } = this.next;
    const digests = this.digests;
    // The files by slot as well (files.keys() spells each slot's path in this order): the archive's order carries the slots, and finds the digests by them.
    const slotted = digests ? { slots: () => records.fileSlots(), pathAt: (slot: number) => records.pathAt(slot), digestAt: digests.at, digests: digests.digests } : undefined;
    return { files: { [Symbol.iterator]: () => files.keys() }, dirs: { [Symbol.iterator]: () => dirs.keys() }, sha256: digests ? (rel) => digests.sha256(rel) : undefined, slotted, removed: this.dropped, byFolder: { count: (spelt) => records.filesByFolder(spelt), has: (rel) => files.has(rel) } };
  }

  /** Ends the progress line (also when rendering failed: the folder stays marked in progress). */
  stop(): void {
    if (!this.session) return;
    // A build that failed stops the other thread (what it made stays: the folder is marked in progress).
    this.session.thread?.close();
    this.session.thread = null;
    this.session.rewrites?.close();
    this.session.rewrites = null;
    this.session.shown.end();
    this.session.shown = { add() {}, end() {} };
  }

  private open_() {
    if (!this.session) throw new Error('SiteWriter: open(plan) first');
    return this.session;
  }

  /** Records a file handed (its inode: ino); returns its slot in the records. */
  private record(rel: string, r: FileRecord, written: boolean, ino: number): number {
    const { report } = this.open_();
    const { records } = this.next;
    const slot = records.slot(rel, true);
    if (this.carried) {
      // A carried file handed again is counted once, with its new size.
      const before = records.fileAt(slot);
      if (before && !before.adopted) {
        report.bytes -= before.size;
        report.unchanged--;
      } else report.files++;
    }
    records.setFile(slot, r, ino);
    report.bytes += r.size;
    if (written) report.written++;
    else report.unchanged++;
    return slot;
  }

  /**
   * The ctime of every file whose inode gained or lost a name in this build (a link made to it, another
   * name written anew or removed: same-bytes.ts), read again now that all are made, once an inode: each
   * link() changed it, and a file not as recorded would be taken for one altered by hand, and rendered
   * again, by the next build. A file no longer at that inode is recorded with no ctime (NaN): the next
   * build looks at it again.
   */
  private relinked(inodes: ReadonlySet<number>): void {
    if (inodes.size === 0) return;
    const { records } = this.next;
    const now = new Map<number, number>();
    for (const slot of records.fileSlots()) {
      const ino = records.inoAt(slot);
      if (ino === 0 || !inodes.has(ino)) continue;
      let ctime = now.get(ino);
      if (ctime === undefined) {
        const st = lstatAt(this.root, records.pathAt(slot));
        if (!st?.isFile() || st.ino !== ino) {
          records.setCtimeAt(slot, NaN);
          continue;
        }
        ctime = st.ctimeMs;
        now.set(ino, ctime);
      }
      records.setCtimeAt(slot, ctime);
    }
  }

  /** Adopts what later steps added to the folder, saves the state and clears the in-progress mark.
   *  stepFolders: the only folders later steps wrote in, when the caller knows (the mirror's download
   *  folders): the others are not looked at again. */
  commit(report: unknown = null, stepFolders?: readonly string[]): void {
    const { root, next } = this;
    const adopt = (rel: string) => {
      const st = lstatAt(root, rel);
      if (!st || /[\t\n]/.test(rel)) return;
      if (st.isFile()) next.files.set(rel, { size: st.size, ctimeMs: st.ctimeMs, adopted: true });
      else if (st.isDirectory()) {
        next.dirs.set(rel, st.mtimeMs);
        for (const name of readdirSync(`${root}/${rel}`)) adopt(`${rel}/${name}`);
      }
    };
    const folders = stepFolders ? stepFolders.filter((d) => next.dirs.has(d)).map((d) => [d, next.dirs.get(d)!] as const) : [...next.dirs];
    for (const [dir, mtime] of folders) {
      const st = lstatAt(root, dir);
      if (!st?.isDirectory()) {
        next.dirs.delete(dir);
        continue;
      }
      if (st.mtimeMs === mtime) continue;
      next.dirs.set(dir, st.mtimeMs);
      for (const name of readdirSync(dir ? `${root}/${dir}` : root)) {
        const rel = dir ? `${dir}/${name}` : name;
        const known = next.files.get(rel);
        if ((known && !known.adopted) || next.dirs.has(rel)) continue;
        adopt(rel);
      }
    }
    // The adopted files alone, by their flags: every path spelt to find them was 30-40 ms of a one-count rebuild's
    // main thread (profile at load), after the archives.
    for (const rel of [...next.files.adopted()]) {
      const st = lstatAt(root, rel);
      if (st?.isFile()) next.files.set(rel, { size: st.size, ctimeMs: st.ctimeMs, adopted: true });
      else next.files.delete(rel);
    }
    next.report = report;
    saveState(root, next);
  }
}

/**
 * A folder not made yet handed to the other thread, after those above it that are not made either, top
 * down: each then made by one mkdir. Handed alone, a folder whose parent was not there cost a failed mkdir
 * (ENOENT) before its parent's and its own again, and the parent, made on the way but not noted, another
 * when a file of its own came (EEXIST): a full build of the shipped site made 46,669 mkdirs, 4,482 failing;
 * now 42,198, none failing on that thread (strace).
 */
function handFolders(dir: string, ensured: Folders, thread: OffThreadFiles): void {
  const slash = dir.lastIndexOf('/');
  if (slash > 0 && !ensured.has(dir.slice(0, slash))) handFolders(dir.slice(0, slash), ensured, thread);
  thread.folder(dir);
  ensured.add(dir);
}

/** A new file (or folder on its way) changes the mtime of the folders it is created in: rel's folders, up to the root (''), noted touched. */
function touchFolders(touched: Set<string>, rel: string): void {
  for (let dir = rel; dir.includes('/'); ) {
    dir = dir.slice(0, dir.lastIndexOf('/'));
    if (touched.has(dir)) break;
    touched.add(dir);
  }
  touched.add('');
}
