// Which tasks are rendered, where, and in what order. A task whose key (a
// hash of what it renders from, salted with what renders it) is the previous
// build's, and whose files are intact, is not rendered at all; the others go
// to the render workers in batches (or are rendered on this thread for a
// small plan). Every file's bytes come back to this thread and go to the
// sink (the writer: only it touches the output folder). The files planned
// with their content are handed over while the workers are busy.
import { createHash } from 'node:crypto';
import type { Content, LazyContent, OutputPlan } from './plan.ts';
import { RenderPool, defaultWorkers } from './pool.ts';
import { formatContext, renderTask, resolveTask } from './render.ts';
import { encodeTask } from './wire.ts';

export interface ScheduleOptions {
  /** Folded into every task key (generator sources, base URL, layout…). Without it no task is skipped by its key. */
  salt?: string;
  /** Render worker threads; 0 renders on this thread. Default: one per core when the plan is large. */
  workers?: number;
  /** Workers started earlier; closed here. */
  pool?: RenderPool;
}

export interface ScheduleSink {
  /** A task's key, remembered under its first path. */
  key(first: string, key: string): void;
  /** True when the task's files are as the previous build left them with this key: kept, not rendered. */
  reuse(paths: readonly string[], key: string): boolean;
  /** A file's bytes, on this thread. */
  file(rel: string, content: Content): void;
}

/** Plans smaller than this are rendered on the main thread: starting workers costs more. */
const WORKER_THRESHOLD = 2_000;
const BATCH_TASKS = 48;

/** Renders every task of the plan not reused and hands every file to the sink. */
export async function renderPlan(plan: OutputPlan, options: ScheduleOptions, sink: ScheduleSink): Promise<{ rendered: number; reused: number }> {
  const counts = { rendered: 0, reused: 0 };
  // Files planned with their content: handed over by this thread while the workers render.
  const eager: string[] = [];
  for (const rel of plan.files.keys()) if (typeof plan.files.raw(rel) !== 'object' || Buffer.isBuffer(plan.files.raw(rel))) eager.push(rel);
  let nextEager = 0;
  const writeEager = () => {
    const rel = eager[nextEager++];
    const raw = plan.files.raw(rel) as Content | LazyContent;
    sink.file(rel, typeof raw === 'function' ? raw() : raw);
  };

  const workers = options.workers ?? (plan.tasks.length >= WORKER_THRESHOLD ? defaultWorkers() : 0);
  const pool = options.pool ?? (workers > 0 ? new RenderPool(workers) : null);
  const contexts = plan.parts.map((p) => formatContext(p.release, p.layout));
  try {
    if (pool) pool.init({ parts: plan.parts });
    const inFlight = new Set<Promise<void>>();
    let batch: Buffer[] = [];
    let batchPaths: string[] = [];
    const dispatch = async () => {
      if (batch.length === 0) return;
      while (pool!.busy() && nextEager < eager.length) writeEager();
      await pool!.room();
      const paths = batchPaths;
      const done = pool!.run(batch).then((r) => {
        let offset = 0;
        paths.forEach((rel, i) => {
          sink.file(rel, Buffer.from(r.data.buffer, r.data.byteOffset + offset, r.lengths[i]));
          offset += r.lengths[i];
        });
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
      if (options.salt !== undefined && bytes) {
        const key = createHash('sha1').update(options.salt).update(bytes).digest('base64url');
        sink.key(task.paths[0], key);
        if (sink.reuse(task.paths, key)) {
          counts.reused++;
          continue;
        }
      }
      counts.rendered++;
      if (pool && bytes) {
        batch.push(bytes);
        batchPaths.push(...task.paths);
        if (batch.length >= BATCH_TASKS) await dispatch();
      } else {
        const contents = renderTask(wire, contexts);
        wire.paths.forEach((rel, i) => sink.file(rel, contents[i]));
      }
    }
    if (pool) await dispatch();
    while (nextEager < eager.length) writeEager();
    while (inFlight.size > 0) await Promise.all(inFlight);
  } finally {
    if (pool) await pool.close();
  }
  return counts;
}
