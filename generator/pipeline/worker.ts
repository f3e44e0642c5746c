// A render worker: renders the tasks it is sent and returns their bytes to
// the main thread, whose writer alone touches the output folder. It
// rebuilds the format context and the URL layout from the data it is given.
import { hash } from 'node:crypto';
import { deserialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { withSites } from '../dataset/sites.ts';
import type { Matrix } from '../dataset/types.ts';
import { useFragments } from '../formats/records.ts';
import type { FormatContext } from '../formats/types.ts';
import { FragmentStore, MAX_FRAGMENT_BYTES, encodeFragments } from './fragments.ts';
import { formatContext, renderTask } from './render.ts';
import { decodeTask } from './wire.ts';
import type { BatchResult, BatchTasks, WorkerInit } from './pool.ts';

let contexts: FormatContext[] = [];
/** The records the tasks show, by number (wire.ts MatrixRefs): each sent once, before the first task that shows it. */
const matrices = new Map<number, Matrix>();
/** Each record's digest (sent with it): its texts' keys across builds (formats/records.ts Fragments). */
const digests = new WeakMap<Matrix, string>();
/** Each part's key (its release description and layout, hashed), by its format context and release description: what a memo's second argument is. */
const partKeys = new WeakMap<object, string>();
/** The texts kept by the previous build (none until init says where), and those made since the last batch ended. */
let store: FragmentStore | null = null;
/** The store opened before init (pool.ts open: during the plan of a rebuild whose records were added or removed), taken by an init for the same file and salt. */
let opened: { file: string; salt: string; store: FragmentStore } | null = null;
let made: [string, string][] = [];
/** Characters reported made so far, with the kept file's bytes: past fragments.ts MAX_FRAGMENT_BYTES the main thread keeps none, and no more are sent (a 10x release's full build would encode and send about 500 MB for nothing). */
let madeSize = 0;

parentPort!.on('message', (message: { init: WorkerInit } | { open: { file: string; salt: string } } | { records: Uint8Array } | { forget: number[] } | { spare: ArrayBuffer } | BatchTasks) => {
  // A batch's memory back from the main thread (pool.ts recycle).
  if ('spare' in message) {
    BatchBytes.spare(message.spare);
    return;
  }
  if ('open' in message) {
    opened = { ...message.open, store: FragmentStore.open(message.open.file, message.open.salt) };
    return;
  }
  if ('init' in message) {
    const init = message.init;
    contexts = (init.parts ?? []).map((p) => formatContext(p.release, p.layout));
    contexts.forEach((context, i) => {
      const key = hash('sha1', JSON.stringify(init.parts![i]), 'base64url');
      partKeys.set(context, key);
      partKeys.set(context.release, key);
    });
    if (init.fragments !== undefined) {
      const f = init.fragments;
      store = f === null ? null : opened !== null && opened.file === f.file && opened.salt === f.salt ? opened.store : FragmentStore.open(f.file, f.salt);
      opened = null;
      madeSize = store?.bytesRead ?? 0;
      useFragments({
        record: (m) => digests.get(m),
        with: (w) => partKeys.get(w),
        get: (key) => store?.get(key),
        made: (key, text) => {
          // The text that goes past is sent: the main thread, which counts bytes (at least as many), sees it go past too.
          if (madeSize > MAX_FRAGMENT_BYTES) return;
          madeSize += 8 + key.length + text.length;
          made.push([key, text]);
        },
      });
    }
    return;
  }
  if ('records' in message) {
    // Serialized once on the main thread for every worker (pool.ts define).
    for (const [id, m, digest, file] of deserialize(message.records) as [number, Matrix, string, { real: string; length: number; md5: string } | undefined][]) {
      // Sent without its sites, with their file: read here when a task prints them, checked as the main thread would.
      if (file !== undefined) withSites(m, file.real, { length: file.length, md5: file.md5 });
      matrices.set(id, m);
      digests.set(m, digest);
    }
    return;
  }
  // The batches before this message were the last to show these records (MatrixRefs.take).
  if ('forget' in message) {
    for (const id of message.forget) matrices.delete(id);
    return;
  }
  let result: BatchResult = { id: message.id, data: new Uint8Array(0), lengths: [] };
  try {
    const out = new BatchBytes();
    let offset = 0;
    for (const length of message.lengths) {
      const bytes = message.data.subarray(offset, (offset += length));
      for (const content of renderTask(decodeTask(bytes, matrices), contexts)) out.add(content);
    }
    result = { id: message.id, ...out.take() };
    if (made.length > 0) {
      result.fragments = encodeFragments(made);
      made = [];
    }
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
  }
  const moved = [result.data, result.fragments].filter((b) => b !== undefined && b.byteLength > 0).map((b) => b!.buffer as ArrayBuffer);
  parentPort!.postMessage(result, moved);
});
parentPort!.postMessage({ ready: true });

/**
 * A batch's files, one after the other in one buffer of its own (not from Node's shared pool), so that it
 * can be moved to the main thread. Each file is copied in as soon as its task is rendered: held until the
 * batch ended, a batch's texts (up to a few hundred MB for pages of 1,000 records) outlived the young
 * generation's collections and were copied into the old one, then collected there.
 */
class BatchBytes {
  /** The last batch's size (at most 16 MiB: a batch of pages of 1,000 records is hundreds of MB, and
   *  the next are small): the next starts with room for as much, and rarely grows. */
  private static expected = 1 << 20;
  /** Batches' memory back from the main thread, reused: a few at most (a worker has two batches in flight). */
  private static spares: ArrayBuffer[] = [];
  private data = BatchBytes.alloc(BatchBytes.expected);
  private used = 0;
  private readonly lengths: number[] = [];

  add(content: string | Buffer): void {
    let n: number;
    if (typeof content !== 'string') {
      this.room(content.length);
      n = content.copy(this.data, this.used);
    } else {
      // At most three bytes a UTF-16 unit: written at once when there is room for that, else measured first.
      if (this.data.length - this.used < 3 * content.length) this.room(Buffer.byteLength(content));
      n = this.data.write(content, this.used);
    }
    this.used += n;
    this.lengths.push(n);
  }

  take(): { data: Uint8Array; lengths: number[] } {
    BatchBytes.expected = Math.min(1 << 24, Math.max(1 << 16, this.used));
    return { data: this.data.subarray(0, this.used), lengths: this.lengths };
  }

  static spare(buffer: ArrayBuffer): void {
    if (BatchBytes.spares.length < 4) BatchBytes.spares.push(buffer);
  }

  /** At least n bytes of memory of their own: a spare large enough, else new. */
  private static alloc(n: number): Buffer {
    const i = BatchBytes.spares.findIndex((b) => b.byteLength >= n);
    return i < 0 ? Buffer.allocUnsafeSlow(n) : Buffer.from(BatchBytes.spares.splice(i, 1)[0]);
  }

  private room(n: number): void {
    if (this.data.length - this.used >= n) return;
    const grown = BatchBytes.alloc(Math.max(2 * this.data.length, this.used + n));
    this.data.copy(grown, 0, 0, this.used);
    this.data = grown;
  }
}
