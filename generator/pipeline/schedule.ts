// Which tasks are rendered, where, and in what order. A task whose key (a
// hash of what it renders from, salted with what renders it) is the previous
// build's, and whose files are intact, is not rendered at all, nor even
// built: the key comes from the planned resource's own key (its records'
// digests and its place, plan/resources.ts) or a logo's counts, with the
// release description its part renders with; the others go
// to the render workers in batches (or are rendered on this thread for a
// small plan). Every file's bytes come back to this thread and go to the
// sink (the writer: only it touches the output folder). The files planned
// with their content are handed over while the workers are busy.
import { createHash, hash } from 'node:crypto';
import { pfmDigest } from '../dataset/digest.ts';
import type { Matrix } from '../dataset/types.ts';
import { PyFloat } from '../formats/types.ts';
import { KeyedContent, forWriter, type Content, type OutputPlan, type PlanPart, type Task, type WriteContent } from './output-plan.ts';
import type { FragmentSink } from './fragments.ts';
import type { HereFragments } from './here-fragments.ts';
import { RenderPool, defaultWorkers, type WorkerInit } from './pool.ts';
import { formatContext, renderTask, resolveTask, type WireTask } from './render.ts';
import { mark } from './timeline.ts';
import { HELD, MatrixRefs, encodeTask } from './wire.ts';

export interface ScheduleOptions {
  /** Folded into every task key (generator sources, base URL, layout…). Without it no task is skipped by its key. */
  salt?: string;
  /** Render worker threads; 0 renders on this thread. Default: pool.ts defaultWorkers (one per core but the main thread's) when the plan is large. */
  workers?: number;
  /** Workers started earlier; closed here. */
  pool?: RenderPool;
  /**
   * Workers started during the plan, for a plan likely to render many tasks (startRenderPool): used where this
   * render would start its own (at once, or once WORKER_THRESHOLD tasks wait), else closed unused. Closed here.
   */
  early?: RenderPool;
  /** Records' texts kept across builds (fragments.ts): read by the workers, and what they make spooled. */
  fragments?: FragmentSink;
  /** Tasks keyed, and some rendered, before the writer could take files (renderAhead). */
  ahead?: Ahead;
  /** The kept texts for the tasks rendered on this thread (here-fragments.ts; renderAhead's, when it rendered). */
  here?: HereFragments;
}

/** What renderAhead did with a task: its key, and its files' contents when it rendered it. */
export type Ahead = Map<Task, { key: string; contents?: Content[] }>;

export interface ScheduleSink {
  /** A task's key, remembered under its first path. */
  key(first: string, key: string): void;
  /** True when the task's files are as the previous build left them with this key: kept, not rendered. */
  reuse(paths: readonly string[], key: string): boolean;
  /** A file's bytes (or their pieces, as rendered), on this thread: the sink's only until it returns (their memory is then reused). */
  file(rel: string, content: WriteContent): void;
}

/** Workers start once this many tasks need rendering; fewer are rendered on the main thread: starting
 *  two workers (each loads tsx and the generator) costs about as much CPU as rendering 2,000 tasks here,
 *  and a rebuild after a one-matrix change renders about 70 of 47,791 (issue 22). */
const WORKER_THRESHOLD = 2_000;
const BATCH_TASKS = 48;
/** A batch also ends once its files show this many records (a record in each format counted once): its
 *  files come back as one buffer, and a worker has two in flight. 48 list pages of 1,000 records are
 *  about 300 MB of files; the 10x synthetic release's unfiltered list has 53 of them, one after the
 *  other, early in the render. Its peak RSS came then: 2.7 GB without this cap, 2.1-2.5 GB with it (two
 *  runs at load 10-16: the peak at the render's start is not this cap's alone). A list page of ten records in nine
 *  formats weighs 90: most batches end at 48 tasks as before. */
const BATCH_RECORDS = 6_000;
/** Milliseconds of eager files written between two looks at the workers (a file once begun is finished). */
const EAGER_SLICE_MS = 20;

/** What a task's files weigh, about: the records they show, once in each format. */
function recordsShown(task: WireTask): number {
  if (task.kind === 'logo') return 1;
  if (task.kind === 'resource') return task.resources.reduce((n, r) => n + r.matrices.length, 0);
  const p = task.planned;
  return task.formats.length * (p.kind === 'list' ? p.items.length : p.which === 'versions' ? p.versions.length : 1);
}

/** Renders every task of the plan not reused and hands every file to the sink. */
export async function renderPlan(plan: OutputPlan, options: ScheduleOptions, sink: ScheduleSink): Promise<{ rendered: number; reused: number }> {
  const counts = { rendered: 0, reused: 0 };
  // Files planned with their content: handed over by this thread while the workers render.
  const eager = plan.files.withContent();
  let nextEager = 0;
  const writeEager = () => {
    const rel = eager[nextEager++];
    const raw = plan.files.handOut(rel);
    if (raw instanceof KeyedContent) {
      if (options.salt !== undefined) {
        const key = fileKey(options.salt, raw.key);
        sink.key(rel, key);
        if (sink.reuse([rel], key)) return;
      }
      sink.file(rel, forWriter(raw.content));
    } else sink.file(rel, forWriter(raw));
  };

  const { parts, contexts, salts } = renderingOf(plan, options.salt);
  const ahead = options.ahead;
  // Workers as asked, else started only once enough tasks need rendering (those not reused): until then
  // the tasks wait, and are rendered here if no more come.
  const startedBefore = options.early ?? null;
  const started = () => startedBefore ?? new RenderPool(defaultWorkers());
  let pool: RenderPool | null = options.pool ?? (options.workers !== undefined && options.workers > 0 ? (startedBefore?.size === options.workers ? startedBefore : new RenderPool(options.workers)) : null);
  const lazy = options.pool === undefined && options.workers === undefined;
  // A plan that carried the previous build's files (tasks left out) holds little but what changed: with more
  // than WORKER_THRESHOLD tasks, most are rendered (a remove of MA1364.1: 4,908 of 5,237). Started now, the
  // worker loads and opens the kept texts' store (0.2-0.4 s at load) while this thread keys the first tasks,
  // not after WORKER_THRESHOLD of them were keyed.
  if (lazy && !pool && plan.leftOutCount > 0 && plan.tasks.length - (ahead?.size ?? 0) > WORKER_THRESHOLD) {
    pool = started();
    mark(`render worker ${pool === startedBefore ? 'started during the plan, taken' : 'started at once'} (${plan.tasks.length} tasks planned)`);
  }
  const init: WorkerInit = { parts, ...(options.fragments ? { fragments: options.fragments.readable } : {}) };
  const waiting: WireTask[] = [];
  const here = options.here;
  await here?.ready();
  here?.parts(parts, contexts);
  const renderHere = (wire: WireTask) => {
    const contents = here ? here.render(() => renderTask(wire, contexts)) : renderTask(wire, contexts);
    wire.paths.forEach((rel, i) => sink.file(rel, contents[i]));
  };
  try {
    if (pool) pool.init(init, options.fragments);
    // The workers forget the records of the windows gone by first (wire.ts MatrixRefs).
    const windows = recordWindows(plan.tasks);
    const refs = new MatrixRefs(HELD, (m) => windows.get(m));
    const inFlight = new Set<Promise<void>>();
    let firstBack = '';
    let batch: Buffer[] = [];
    let batchPaths: string[] = [];
    let batchRecords = 0;
    const dispatch = async () => {
      if (batch.length === 0) return;
      // The eager files in slices while every worker is busy, with a turn of the event loop after each:
      // a worker's finished batch is taken (and it gets its next) without waiting for every eager file,
      // and the slices' garbage (bulk files rendered again) is spread over the render.
      while (pool!.busy() && nextEager < eager.length) {
        const until = performance.now() + EAGER_SLICE_MS;
        while (nextEager < eager.length && performance.now() < until) writeEager();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await pool!.room();
      const paths = batchPaths;
      const { records, forget } = refs.take();
      pool!.define(records);
      const done = pool!.run(batch).then((r) => {
        if (!firstBack) mark((firstBack = 'first batch back'));
        let offset = 0;
        paths.forEach((rel, i) => {
          sink.file(rel, Buffer.from(r.data.buffer, r.data.byteOffset + offset, r.lengths[i]));
          offset += r.lengths[i];
        });
        // Taken by the sink (its file() is done with the bytes when it returns): back to a worker.
        pool!.recycle(r.data);
        inFlight.delete(done);
      });
      inFlight.add(done);
      if (forget) pool!.forget(forget);
      batch = [];
      batchPaths = [];
      batchRecords = 0;
    };

    for (const i of renderOrder(plan.tasks, WINDOW, windows)) {
      const task = plan.tasks[i]!;
      plan.tasks[i] = null; // handed out: let it go once written
      let wire: WireTask | null = null;
      const early = ahead?.get(task);
      if (salts) {
        // Spelt once here: a task makes its paths when asked (output-plan.ts Task).
        const paths = task.paths;
        const key = early?.key ?? taskKey(task, paths, options.salt!, salts, () => (wire = resolveTask(task)));
        sink.key(paths[0], key);
        if (sink.reuse(paths, key)) {
          counts.reused++;
          continue;
        }
        if (early?.contents) {
          counts.rendered++;
          early.contents.forEach((content, k) => sink.file(paths[k], content));
          continue;
        }
      }
      wire ??= resolveTask(task);
      counts.rendered++;
      if (lazy && !pool) {
        waiting.push(wire);
        if (waiting.length < WORKER_THRESHOLD) continue;
        pool = started();
        pool.init(init, options.fragments);
        mark(`render worker ${pool === startedBefore ? 'started during the plan, taken' : 'started'} (${WORKER_THRESHOLD} tasks waiting)`);
      }
      for (const w of waiting.length > 0 ? waiting.splice(0) : [wire]) {
        let bytes: Buffer | null = null;
        try {
          if (pool) bytes = encodeTask(w, refs);
        } catch {
          // Not plain data (a class or function in a resource): rendered here.
        }
        if (pool && bytes) {
          batch.push(bytes);
          batchPaths.push(...w.paths);
          batchRecords += recordsShown(w);
          if (batch.length >= BATCH_TASKS || batchRecords >= BATCH_RECORDS) await dispatch();
        } else renderHere(w);
      }
    }
    if (pool) await dispatch();
    for (const w of waiting.splice(0)) renderHere(w);
    while (nextEager < eager.length) writeEager();
    while (inFlight.size > 0) await Promise.all(inFlight);
    here?.finish();
  } finally {
    if (pool) await pool.close();
    // Started during the plan, and not needed after all (a small plan, rendered here).
    if (startedBefore && startedBefore !== pool) await startedBefore.close();
  }
  return counts;
}

/**
 * Render workers started before the plan ends, with the kept texts' store opened (fragments: the file the workers
 * read), for renderPlan (ScheduleOptions early). A rebuild after a matrix is removed or added renders about 4,900
 * tasks on the render worker, which bounds its render (the main thread slept 0.5 s of it, quiet); started at the
 * render, the worker's start (its bundle loaded, 35-63 ms) and the store's opening (80-110 ms) were on the render's
 * way, its first batch back 0.20-0.28 s after it started. That such a rebuild's records were added or removed is
 * known about 1 s before its plan ends (kept-plan.ts PlanShapes), while the main thread plans and the other core
 * mostly looks at the folder.
 */
export function startRenderPool(fragments: FragmentSink | undefined, workers = defaultWorkers()): RenderPool {
  const pool = new RenderPool(workers);
  const readable = fragments?.readable;
  if (readable) pool.open(readable);
  return pool;
}

/** What renders each part's tasks: its format context, and (with the build's salt) the salt of its tasks' keys: the
 *  build's salt, the part's release description and layout. */
function renderingOf(plan: OutputPlan, salt: string | undefined) {
  const parts = plan.parts.map(renderedPart);
  const contexts = parts.map((p) => formatContext(p.release, p.layout));
  const salts = salt === undefined ? null : parts.map((p) => createHash('sha1').update(salt).update('\0').update(JSON.stringify(p)).digest('hex'));
  return { parts, contexts, salts };
}

/** Contents rendered ahead at most (UTF-8 bytes, about): they are held until the writer takes them. A count of
 *  MA1364.1 (in both releases) renders 76 tasks, 28.7 MB (the timeline's mark): at 16 MB, 46 of them were rendered
 *  in the wait for the look and the others after it (scripts/rebuild-profile.ts --timeline). */
const AHEAD_BYTES = 64 << 20;
/** Tasks keyed ahead at most: each entry is held until the render (a rebuild of the 10x synthetic release has
 *  600,000 tasks, and its peak RSS little room under 1 GB). */
const AHEAD_TASKS = 50_000;
/** Milliseconds of work between two turns of the event loop (one lets the folder look's end be seen). */
const AHEAD_SLICE_MS = 5;

/**
 * While the writer cannot take files yet (waiting(): the folder look, write/changes.ts, runs on another
 * thread and the writer needs it first), keys the plan's tasks in render order on this thread, and renders
 * those whose key is not the previous build's (previousKey: by first path), which no look at the folder
 * would let be reused; renderPlan then takes both (ScheduleOptions ahead). A one-count rebuild's plan
 * ended about 0.1 s before the look (quiet), then rendered its 76 tasks on this thread (0.36 s) once the
 * writer was open: they are now rendered in that wait. At most WORKER_THRESHOLD tasks (a larger render
 * goes to the workers) and AHEAD_BYTES of contents, held until written; at most AHEAD_TASKS keyed.
 */
export async function renderAhead(plan: OutputPlan, salt: string, previousKey: (first: string) => string | undefined, waiting: () => boolean, here?: HereFragments): Promise<Ahead> {
  const ahead: Ahead = new Map();
  const { parts, contexts, salts } = renderingOf(plan, salt);
  await here?.ready();
  here?.parts(parts, contexts);
  let rendered = 0;
  let bytes = 0;
  let slice = performance.now();
  for (const i of renderOrder(plan.tasks)) {
    if (performance.now() - slice > AHEAD_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    if (!waiting() || ahead.size >= AHEAD_TASKS) break;
    const task = plan.tasks[i];
    if (task === null) continue;
    const paths = task.paths;
    let wire: WireTask | null = null;
    const key = taskKey(task, paths, salt, salts!, () => (wire = resolveTask(task)));
    if (previousKey(paths[0]) === key) {
      ahead.set(task, { key });
      continue;
    }
    if (rendered >= WORKER_THRESHOLD || bytes >= AHEAD_BYTES) {
      ahead.set(task, { key });
      continue;
    }
    const wired = wire ?? resolveTask(task);
    const contents = here ? here.render(() => renderTask(wired, contexts)) : renderTask(wired, contexts);
    for (const c of contents) bytes += c.length;
    ahead.set(task, { key, contents });
    rendered++;
  }
  return ahead;
}

/**
 * The order the tasks are rendered in (their indexes): those that show no record first, in plan order
 * (logos, index pages); then the others part by part, by the window of records in list order their
 * first record is in (WINDOW records a window), and in plan order within a window. The workers hold
 * about HELD records (wire.ts MatrixRefs), forgetting some past it; in plan order each list view
 * went through every record of the release in turn, so that past HELD records every record was sent
 * again for each view it is in: 419,863 records sent (955 MB serialized) for the 3x synthetic
 * release's 15,834, against 5,278 sent once for JASPAR 2024's 5,278. Through the records once, every
 * view's pages over the records held are rendered while they are held; in plan order within a window,
 * each view's pages are still written one after the other, in their folders (sorted by first record
 * alone, the files of all views were written in turn, and the kernel's share of the write grew).
 * The bytes of every file are the same in any order.
 */
export function renderOrder(tasks: readonly (Task | null)[], window = WINDOW, windowOf = recordWindows(tasks, window)): number[] {
  const taskWindow = tasks.map((t) => (t?.kind === 'resource' && t.planned.first !== undefined ? windowOf.get(t.planned.first)! : -1));
  return Array.from(tasks.keys()).sort((a, b) => taskWindow[a] - taskWindow[b] || a - b);
}

/**
 * The window of the render order each record shown first by some task is in (renderOrder): by part, then by its
 * place in its part's list order (by name, then row; every record is some detail's first), WINDOW records a window.
 * The workers forget the records of the windows gone by first (wire.ts MatrixRefs).
 */
export function recordWindows(tasks: readonly (Task | null)[], window = WINDOW): Map<Matrix, number> {
  const byPart = new Map<number, Set<Matrix>>();
  for (const t of tasks) {
    if (t?.kind !== 'resource' || t.planned.first === undefined) continue;
    let set = byPart.get(t.part);
    if (!set) byPart.set(t.part, (set = new Set()));
    set.add(t.planned.first);
  }
  const windows = Math.ceil(Math.max(0, ...[...byPart.values()].map((set) => set.size)) / window) + 1;
  const out = new Map<Matrix, number>();
  for (const [part, set] of byPart) {
    const ranked = [...set].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) || x.row - y.row);
    ranked.forEach((m, i) => out.set(m, part * windows + Math.floor(i / window)));
  }
  return out;
}

/** Records in list order a window of the render order goes through: half the records a worker holds, so that the
 *  pages whose records reach past their window's still find most of theirs held. */
const WINDOW = HELD / 2;

/** The key a keyed file (output-plan.ts KeyedContent) is remembered with: its own key, salted with the build's (the generator's sources, base URL, links). */
export const fileKey = (salt: string, key: string): string => sha1(`${salt}\0file ${key}`);

/** SHA-1 of a text in one call (crypto.hash: no Hash object; a rebuild keys 47,791 tasks). The keys are those of
 *  the earlier updates one part at a time: the same bytes hashed. */
const sha1 = (text: string): string => hash('sha1', text, 'base64url');

/**
 * What a part's tasks are rendered with: its release description without
 * the notes on the release beside the others (build.ts withSiteNotes), which
 * only the home page prints (planned with its content, not a task): the
 * notes count a release's matrices, and would otherwise key every task of
 * the release to its size.
 */
function renderedPart(part: PlanPart): PlanPart {
  // olderVersions is where the build read older versions' counts (an absolute path): no format prints it, and
  // the records carry what was read there, so a site built from a moved or cloned folder reuses its tasks.
  const { siteNotes: _notes, ...release } = part.release;
  return { release: { ...release, olderVersions: null }, layout: part.layout };
}

/**
 * A task's key: its paths (the resource's place and formats), the build's
 * salt (with its part's release for a resource), and what it renders from: a logo's counts; a resource's own key
 * (plan/resources.ts), or else the resource as built (resolve), printed
 * exactly (floats as Python floats are tagged so that 1 and 1.0 differ).
 */
function taskKey(task: Task, paths: readonly string[], salt: string, salts: readonly string[], resolve: () => WireTask): string {
  const head = `${paths.join('\n')}\0`;
  // A logo is drawn from its counts alone, whatever the release says.
  if (task.kind === 'logo') return sha1(`${head}${salt}\0logo ${pfmDigest(task.matrix.pfm)}`);
  const own = task.planned.key;
  if (own !== undefined) return sha1(`${head}${salts[task.part]}\0${task.formats.join(',')} ${own}`);
  const wire = resolve();
  return sha1(`${head}${salts[task.part]}\0${JSON.stringify(wire.kind === 'resource' ? wire.resources : wire, exactJson)}`);
}

const exactJson = (_key: string, v: unknown) => {
  if (v instanceof PyFloat) return { PyFloat: Object.is(v.value, -0) ? '-0' : String(v.value) };
  if (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v))) return `number ${Object.is(v, -0) ? '-0' : v}`;
  return v;
};
