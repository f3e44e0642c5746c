// The only module that changes the output folder. It updates the folder in
// place and rewrites only files whose bytes change, so unchanged files keep
// their mtime (deploy tools and rsync see no change):
// - a task (a resource in its formats, a logo) whose key (hash of what it
//   renders from) is the one of the previous build and whose files are as
//   that build left them is not rendered at all;
// - anything else is rendered (by the render workers, which also write) and
//   compared with the file on disk;
// - files of the previous build that this one does not plan, and entries
//   someone else put in the folder, are removed; emptied folders too.
// The state that makes this possible lives beside the folder (state.ts). A
// build that dies half way leaves an in-progress mark, and the next build
// trusts nothing: it renders everything and compares every file.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { OutputPlan, type Content, type LazyContent } from '../pipeline/plan.ts';
import { RenderPool, defaultWorkers } from '../pipeline/pool.ts';
import { progress as showProgress } from '../pipeline/progress.ts';
import { formatContext, renderTask, resolveTask, type WireTask } from '../pipeline/render.ts';
import { encodeTask } from '../pipeline/wire.ts';
import { remove, removeEmptyFolders, walk, writeIfChanged } from './files.ts';
import { emptyState, markInProgress, readState, saveState, type BuildState, type FileRecord } from './state.ts';

export { MAX_DIR_ENTRIES } from '../routes/shard.ts';
export { OutputPlan } from '../pipeline/plan.ts';

export interface WriteOptions {
  /** Fingerprint of everything the site is built from; remembered for the next build. */
  fingerprint?: string;
  /** Folded into every task key (generator sources, base URL, layout…). Without it no task is skipped by its key. */
  salt?: string;
  /** Render worker threads; 0 renders on this thread. Default: one per core when the plan is large. */
  workers?: number;
  /** Workers started earlier (build() starts them before reading the release); closed here. */
  pool?: RenderPool;
  /** Progress on stderr when it is a terminal. */
  progress?: boolean;
}

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
}

/** Plans smaller than this are rendered on the main thread: starting workers costs more. */
const WORKER_THRESHOLD = 2_000;
const BATCH_TASKS = 48;

const statAt = (root: string, rel: string) => {
  try {
    return statSync(rel ? `${root}/${rel}` : root);
  } catch {
    return undefined;
  }
};

/** Files recorded in the state that are not as it says (changed, replaced, missing), and entries it does not know. */
export function treeChanges(root: string, state: BuildState, firstOnly = false): { altered: Set<string>; extras: string[] } {
  const altered = new Set<string>();
  const extras: string[] = [];
  for (const [rel, r] of state.files) {
    const st = statAt(root, rel);
    if (!st || !st.isFile() || st.size !== r.size || st.ctimeMs !== r.ctimeMs) {
      altered.add(rel);
      if (firstOnly) return { altered, extras };
    }
  }
  for (const [dir, mtime] of state.dirs) {
    const st = statAt(root, dir);
    if (!st || st.mtimeMs === mtime) continue;
    if (!st.isDirectory()) {
      extras.push(dir);
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

/** The previous build's state when the folder is exactly as it left it and its fingerprint is this one. */
export function unchangedSite(outDir: string, fingerprint: string): BuildState | null {
  const state = readState(outDir);
  if (!state || state.fingerprint !== fingerprint) return null;
  const { altered, extras } = treeChanges(path.resolve(outDir), state, true);
  return altered.size === 0 && extras.length === 0 ? state : null;
}

/**
 * Writes a plan into outDir. Between write() and commit() other steps may add
 * files to the folder (the mirror archive): commit() adopts them into the
 * state, so the next build checks them and does not delete them.
 */
export class SiteWriter {
  readonly root: string;
  private readonly previous: BuildState | null;
  private readonly next: BuildState = emptyState();

  constructor(readonly outDir: string, private readonly options: WriteOptions = {}) {
    this.root = path.resolve(outDir);
    this.previous = readState(outDir);
  }

  async write(plan: OutputPlan): Promise<WriteReport> {
    const { root, next } = this;
    const existed = statAt(root, '') !== undefined;
    // The state is kept beside the folder: a folder deleted since (rm -rf public) leaves nothing it describes.
    const previous = existed ? this.previous : null;
    const { altered, extras } = previous ? treeChanges(root, previous) : { altered: new Set<string>(), extras: [] };
    const intact = (rel: string) => previous !== null && previous.files.has(rel) && !altered.has(rel);
    const compare = existed && readdirSync(root).length > 0;
    markInProgress(root);
    mkdirSync(root, { recursive: true });
    next.fingerprint = this.options.fingerprint ?? '';

    const report: WriteReport = { files: plan.files.size, bytes: 0, written: 0, unchanged: 0, removed: 0, rendered: 0, reused: 0, incremental: previous !== null };
    const shown = showProgress(plan.files.size, this.options.progress ? process.stderr : ({ isTTY: false } as NodeJS.WriteStream));
    const record = (rel: string, r: FileRecord, written: boolean) => {
      next.files.set(rel, r);
      report.bytes += r.size;
      if (written) report.written++;
      else report.unchanged++;
    };
    const ensured = new Set<string>();
    const writeHere = (rel: string, content: Content) => {
      const w = writeIfChanged(root, rel, content, compare, ensured);
      record(rel, { size: w.size, ctimeMs: w.ctimeMs, adopted: false }, w.written);
      shown.add(1, w.written ? 1 : 0);
    };

    // Files planned with their content: written by this thread while the workers render.
    const eager: string[] = [];
    for (const rel of plan.files.keys()) if (typeof plan.files.raw(rel) !== 'object' || Buffer.isBuffer(plan.files.raw(rel))) eager.push(rel);
    let nextEager = 0;
    const writeEager = () => {
      const rel = eager[nextEager++];
      const raw = plan.files.raw(rel) as Content | LazyContent;
      writeHere(rel, typeof raw === 'function' ? raw() : raw);
    };

    const workers = this.options.workers ?? (plan.tasks.length >= WORKER_THRESHOLD ? defaultWorkers() : 0);
    const pool = this.options.pool ?? (workers > 0 ? new RenderPool(workers) : null);
    const context = plan.release && plan.layout ? formatContext(plan.release, plan.layout) : null;
    try {
      if (pool) pool.init({ layout: plan.layout, release: plan.release, root, compare });
      const inFlight = new Set<Promise<void>>();
      let batch: Buffer[] = [];
      let batchPaths: string[] = [];
      const dispatch = async () => {
        if (batch.length === 0) return;
        while (pool!.busy() && nextEager < eager.length) writeEager();
        await pool!.room();
        const paths = batchPaths;
        const done = pool!.run(batch).then((r) => {
          let written = 0;
          paths.forEach((rel, i) => {
            record(rel, { size: r.sizes[i], ctimeMs: r.ctimes[i], adopted: false }, r.written[i] === 1);
            written += r.written[i];
          });
          shown.add(paths.length, written);
          inFlight.delete(done);
        });
        inFlight.add(done);
        batch = [];
        batchPaths = [];
      };

      for (let i = 0; i < plan.tasks.length; i++) {
        const task = plan.tasks[i]!;
        plan.tasks[i] = null; // handed out: let it go once written
        const wire = resolveTask(task);
        let bytes: Buffer | null = null;
        try {
          bytes = encodeTask(wire);
        } catch {
          // Not plain data (a class or function in a resource): rendered here.
        }
        if (this.options.salt !== undefined && bytes) {
          const key = createHash('sha1').update(this.options.salt).update(bytes).digest('base64url');
          next.keys.set(task.paths[0], key);
          if (previous?.keys.get(task.paths[0]) === key && task.paths.every(intact)) {
            for (const rel of task.paths) record(rel, previous.files.get(rel)!, false);
            shown.add(task.paths.length, 0);
            report.reused++;
            continue;
          }
        }
        report.rendered++;
        if (pool && bytes) {
          batch.push(bytes);
          batchPaths.push(...task.paths);
          if (batch.length >= BATCH_TASKS) await dispatch();
        } else {
          renderHere(wire, context, writeHere);
        }
      }
      if (pool) await dispatch();
      while (nextEager < eager.length) writeEager();
      while (inFlight.size > 0) await Promise.all(inFlight);
    } finally {
      if (pool) await pool.close();
      shown.end();
    }

    // What this build does not plan goes: the previous build's files, and
    // anything else found in the folder.
    const removedFrom: string[] = [];
    const drop = (rel: string) => {
      remove(root, rel);
      removedFrom.push(path.posix.dirname(rel));
      report.removed++;
    };
    if (previous) {
      for (const [rel, r] of previous.files) {
        if (next.files.has(rel)) continue;
        // Files that a later step adopted are that step's to keep or replace.
        if (r.adopted) next.files.set(rel, r);
        else drop(rel);
      }
      for (const rel of extras) if (!next.files.has(rel)) drop(rel);
    } else if (compare) {
      const found = walk(root);
      for (const rel of found.files) if (!next.files.has(rel)) drop(rel);
      const planned = new Set(plan.folderList());
      // Unplanned folders, the top-most of each branch (removing it removes what it holds).
      const parentOf = (dir: string) => (dir.includes('/') ? path.posix.dirname(dir) : '');
      for (const dir of found.dirs) if (!planned.has(dir) && planned.has(parentOf(dir))) drop(dir);
    }
    removeEmptyFolders(root, removedFrom);
    for (const dir of plan.folderList()) {
      const st = statAt(root, dir);
      if (st) next.dirs.set(dir, st.mtimeMs);
    }
    return report;
  }

  /** Adopts what later steps added to the folder, saves the state and clears the in-progress mark. */
  commit(report: unknown = null): void {
    const { root, next } = this;
    const adopt = (rel: string) => {
      const st = statAt(root, rel);
      if (!st || /[\t\n]/.test(rel)) return;
      if (st.isFile()) next.files.set(rel, { size: st.size, ctimeMs: st.ctimeMs, adopted: true });
      else if (st.isDirectory()) {
        next.dirs.set(rel, st.mtimeMs);
        for (const name of readdirSync(`${root}/${rel}`)) adopt(`${rel}/${name}`);
      }
    };
    for (const [dir, mtime] of next.dirs) {
      const st = statAt(root, dir);
      if (!st) {
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
    for (const [rel, r] of next.files) {
      if (!r.adopted) continue;
      const st = statAt(root, rel);
      if (st?.isFile()) next.files.set(rel, { size: st.size, ctimeMs: st.ctimeMs, adopted: true });
      else next.files.delete(rel);
    }
    next.report = report;
    saveState(root, next);
  }
}

function renderHere(task: WireTask, context: ReturnType<typeof formatContext> | null, write: (rel: string, content: Content) => void): void {
  if (task.kind === 'resource' && !context) throw new Error('an OutputPlan needs the release description and the site\'s layout to render resources');
  const contents = renderTask(task, context!);
  task.paths.forEach((rel, i) => write(rel, contents[i]));
}

/** Writes a plan into outDir and saves the state: write() and commit() in one. */
export async function writeSite(plan: OutputPlan, outDir: string, options: WriteOptions = {}): Promise<WriteReport> {
  const writer = new SiteWriter(outDir, options);
  const report = await writer.write(plan);
  writer.commit();
  return report;
}
