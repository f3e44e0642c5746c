// Render workers. Each is a worker thread that renders and returns bytes (only
// the writer writes, issue 13); it loads the generator from a bundle (start.mjs):
// a worker does not inherit the TypeScript loader of its parent, however
// the parent was started (`npm run build`, `node --import tsx …`). Workers start before the
// release is read and get the layout, release description and output folder
// in an init message once those are known.
import os from 'node:os';
import { serialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { fieldsBut, matrixDigest } from '../dataset/digest.ts';
import { sitesFile } from '../dataset/sites.ts';
import type { Matrix, ReleaseInfo } from '../dataset/types.ts';
import type { Layout } from '../routes/shard.ts';
import { codeThread } from '../mirror/threads.ts';
import type { FragmentSink } from './fragments.ts';

export interface WorkerInit {
  /** Each release's description and folder layout (OutputPlan.parts): what the pages print and link (none for a plan of logos and files only). */
  parts?: { release: ReleaseInfo; layout: Layout }[];
  /** The texts kept across builds (fragments.ts): the file to read (null: none to read) and the salt it must have been written with; absent: none kept. */
  fragments?: { file: string; salt: string } | null;
}

/** A batch's tasks as the worker gets them: each task's bytes (wire.ts encodeTask) one after the other in data, each task's length in lengths. */
export interface BatchTasks {
  id: number;
  data: Uint8Array;
  lengths: number[];
}

/** A batch's files: their bytes one after the other in data (moved, not copied, from the worker), each file's length in lengths. */
export interface BatchResult {
  id: number;
  data: Uint8Array;
  lengths: number[];
  /** Records' texts the worker made that the kept ones lacked (fragments.ts encodeFragments). */
  fragments?: Uint8Array;
  error?: string;
}

/**
 * Worker threads to use by default: one per core but the main thread's, which writes every file (about
 * 19 s of a full build's 42 s of CPU here: files.ts, same-bytes.ts) while the workers render. With one
 * per core on this 2-core machine, three threads shared two cores, and each worker rendered (and was
 * sent, and held) every record its pages show: a record's texts are made once per worker (formats/
 * records.ts). One worker instead: the full build 41.8 -> 37.6 s of CPU (render+write 23.2 -> 19.3 s),
 * peak RSS 511 -> 380 MB, the same bytes; a rebuild after a matrix is removed or added, render+write
 * 6.6-6.7 -> 5.1-5.5 s of CPU (shift24's measures, at load 9-20: wall not compared).
 */
export const defaultWorkers = (): number => Math.max(1, os.availableParallelism() - 1);

// Neither inheriting the parent's execArgv nor `execArgv: ['--import', 'tsx']`
// gets the loader into a worker on Node 20 ("Unknown file extension .ts"). A
// worker starts from a bundle of worker.ts as `npm run build` starts the build
// (start.mjs bundled: made once for these sources, tsx where .cache/ cannot be
// written): through tsx's hooks each worker loaded the formats, logos and
// routes module by module (about 1 s of each worker's time in a build's
// profile, at load: resolving through the hooks' thread and compiling).
const START = new URL('../start.mjs', import.meta.url).href;
const BOOT = `import(${JSON.stringify(START)}).then((start) => start.bundled('generator/pipeline/worker.ts'))`;

export class RenderPool {
  private readonly workers: { worker: Worker; inFlight: number; ready: Promise<void> }[] = [];
  private readonly pending = new Map<number, { resolve: (r: BatchResult) => void; reject: (e: Error) => void; slot: number }>();
  private nextId = 0;
  private nextSpare = 0;
  private waiters: (() => void)[] = [];
  private failure: Error | null = null;
  private closed = false;

  /** Where the texts the workers made go (fragments.ts FragmentSpool), when kept. */
  private spool: FragmentSink | null = null;

  constructor(size: number, private readonly perWorker = 2) {
    for (let i = 0; i < size; i++) {
      // V8's default heap limits: 128/32 MB cut JASPAR 2024's peak RSS from 749 to 637 MB, but the 10x
      // synthetic build then failed (ERR_WORKER_OUT_OF_MEMORY). A limit is a release size past which no
      // build can be made; no limit costs memory only.
      const worker = codeThread(BOOT);
      let onReady!: () => void;
      const ready = new Promise<void>((resolve) => (onReady = resolve));
      const slot = { worker, inFlight: 0, ready };
      worker.on('message', (m: BatchResult | { ready: true }) => {
        if ('ready' in m) return onReady();
        const p = this.pending.get(m.id)!;
        this.pending.delete(m.id);
        slot.inFlight--;
        this.wake();
        if (m.fragments !== undefined) this.spool?.add(m.fragments);
        if (m.error) p.reject(new Error(`render worker: ${m.error}`));
        else p.resolve(m);
      });
      worker.on('error', (error) => this.fail(error as Error));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`render worker exited with code ${code}`));
      });
      this.workers.push(slot);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Has every worker read the kept texts' file now, before init (a store of 44 MB for the shipped site, 73,000 keys
   * put in a Map: 80-110 ms of the worker's CPU); an init for the same file and salt takes it. A pool started during a
   * rebuild's plan (schedule.ts startRenderPool) does it while the main thread plans, not on the render's way.
   */
  open(fragments: { file: string; salt: string }): void {
    for (const w of this.workers) w.worker.postMessage({ open: fragments });
  }

  /** spool: where the texts the workers made go, when init.fragments says texts are kept. */
  init(init: WorkerInit, spool?: FragmentSink): void {
    this.spool = init.fragments !== undefined ? (spool ?? null) : null;
    for (const w of this.workers) w.worker.postMessage({ init });
  }

  /**
   * Records every worker keeps by number (wire.ts MatrixRefs), sent before the batches that show them: a
   * worker takes its messages in order. Serialized once for all the workers, each sent a copy of the bytes:
   * posted as objects, they were serialized again for each worker (a record carries its BED sites).
   */
  define(records: [number, Matrix][]): void {
    if (records.length === 0) return;
    // With each record its digest, computed by the plan already (its texts' keys across builds). A record whose
    // sites are read from their file when asked (dataset/sites.ts) goes without them, with the file: serialized,
    // the record's text was read (and its MD5 checked) here for every record a batch shows, most of them on list
    // pages that do not print it (0.2 s of a remove's main thread, and the copies), and the worker reads the
    // file itself when a task prints it (worker.ts).
    const bytes = serialize(records.map(([id, m]) => {
      const file = sitesFile(m);
      return file === null ? [id, m, matrixDigest(m)] : [id, fieldsBut(m, 'sites'), matrixDigest(m), file];
    }));
    for (const w of this.workers) {
      const own = ownCopy(bytes);
      w.worker.postMessage({ records: own }, [own.buffer as ArrayBuffer]);
    }
  }

  /**
   * A batch's files' memory, once the sink has taken them, moved back to a worker for its next batches
   * (worker.ts BatchBytes spare): each batch's is otherwise garbage here until collected. The main thread
   * held 165-205 MB of ArrayBuffers late in the 10x synthetic release's render, at its peak RSS (sampled
   * every 250 ms); what this saves there is not yet measured.
   */
  recycle(data: Uint8Array): void {
    const slot = this.workers[this.nextSpare++ % this.workers.length];
    slot.worker.postMessage({ spare: data.buffer }, [data.buffer as ArrayBuffer]);
  }

  /** Every worker drops these records (by number) once the batches sent so far are rendered. */
  forget(ids: number[]): void {
    for (const w of this.workers) w.worker.postMessage({ forget: ids });
  }

  /** True when every worker has as many batches as it may queue. */
  busy(): boolean {
    return !this.workers.some((w) => w.inFlight < this.perWorker);
  }

  /** Resolves when a worker can take another batch. */
  async room(): Promise<void> {
    while (!this.failure && this.busy()) await new Promise<void>((r) => this.waiters.push(r));
    if (this.failure) throw this.failure;
  }

  /**
   * Sends a batch of encoded tasks to the least busy worker, one after the other in one buffer of their
   * own that is moved, not copied: posted as an array of Buffers, each was cloned with the whole memory
   * it is a view of (about 2 s of the main thread's profile of a full build, at load).
   */
  run(tasks: Buffer[]): Promise<BatchResult> {
    if (this.failure) return Promise.reject(this.failure);
    const slot = this.workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    slot.inFlight++;
    const id = this.nextId++;
    const lengths = tasks.map((t) => t.length);
    const data = Buffer.allocUnsafeSlow(lengths.reduce((a, b) => a + b, 0));
    let offset = 0;
    for (const t of tasks) offset += t.copy(data, offset);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot: this.workers.indexOf(slot) });
      slot.worker.postMessage({ id, data, lengths } satisfies BatchTasks, [data.buffer as ArrayBuffer]);
    });
  }

  /** Ends the workers (again: nothing more). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    this.wake();
  }
}

/** The bytes in memory of their own (never Node's shared pool, whose memory cannot be moved to another thread). */
function ownCopy(bytes: Uint8Array): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  own.set(bytes);
  return own;
}
