// The archive's gzip members, compressed by zlib's one-shot call on worker threads (one a core) that
// each take members one after the other, not by zlib's asynchronous call a member: that call makes a
// stream and a zlib state and hands the member to the thread pool and back, about 140 us of CPU a
// member (9,099 small members: 0.4 s user + 0.9 s system at level 2), where the one-shot call takes
// 17 us. The bytes are the same (the same zlib, level and memory level). A rebuild compresses a few
// members: the first ones are compressed on the main thread, and the workers start only for more.
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import os from 'node:os';

/** Members compressed on the main thread before the workers start (a rebuild's dozens, not the thousands of a full build). */
const INLINE = 64;
/** Worker threads: one a core. */
const WORKERS = os.availableParallelism();

// Plain CommonJS, evaluated (no loader): the build runs from a bundle, tests from tsx.
const WORKER = `const { parentPort } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
parentPort.on('message', ({ id, data, level }) => {
  let out;
  try {
    out = gzipSync(data, { level, memLevel: 9 });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
    return;
  }
  // Its own buffer, handed over (a view's structured clone copies the whole buffer under it).
  const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : new Uint8Array(out);
  parentPort.postMessage({ id, out: own }, [own.buffer]);
});`;

/** zlib writes the OS it was built for into byte 9 of the header: 3 (Unix) everywhere. */
function fix(member: Uint8Array): Buffer {
  const out = Buffer.isBuffer(member) ? member : Buffer.from(member.buffer, member.byteOffset, member.byteLength);
  out[9] = 3;
  return out;
}

export class Compressor {
  private readonly workers: { worker: Worker; pending: number }[] = [];
  private readonly waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void; at: { pending: number } }>();
  private asked = 0;
  private failed: Error | null = null;

  constructor(private readonly level: number) {}

  /** A member's tar bytes as one gzip member (its bytes are not changed; a view of a larger buffer is copied to the worker). */
  compress(tar: Buffer): Promise<Buffer> {
    // After a turn of the event loop: a member a turn, as zlib's asynchronous call gave (a test worker's
    // loop is watched, test/support/event-loop.ts; a server in the same process keeps answering).
    if (this.asked++ < INLINE || WORKERS < 2) {
      return new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(fix(gzipSync(tar, { level: this.level, memLevel: 9 })));
          } catch (error) {
            reject(error);
          }
        }),
      );
    }
    if (this.failed) return Promise.reject(this.failed);
    if (this.workers.length === 0) this.start();
    const at = this.workers.reduce((a, b) => (b.pending < a.pending ? b : a));
    at.pending++;
    const id = this.asked;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, at });
      // A buffer of its own is handed over, not copied. A view (of a file read, of a pooled buffer) is copied
      // into one first: the structured clone of a view copies its whole buffer (a 4 MB arena for a chunk).
      const owns = tar.byteOffset === 0 && tar.byteLength === tar.buffer.byteLength && tar.buffer instanceof ArrayBuffer;
      const data = owns ? tar : new Uint8Array(tar);
      try {
        at.worker.postMessage({ id, data, level: this.level }, [data.buffer as ArrayBuffer]);
      } catch {
        // An ArrayBuffer Node marked as not to be handed over: copied.
        at.worker.postMessage({ id, data: new Uint8Array(tar), level: this.level });
      }
    });
  }

  /** Stops the workers (every member asked for has come back, or is no longer wanted). */
  close(): void {
    for (const { worker } of this.workers) void worker.terminate();
    this.workers.length = 0;
  }

  private start(): void {
    for (let i = 0; i < WORKERS; i++) {
      const worker = new Worker(WORKER, { eval: true });
      const slot = { worker, pending: 0 };
      worker.on('message', ({ id, out, error }: { id: number; out?: Uint8Array; error?: string }) => {
        const job = this.waiting.get(id)!;
        this.waiting.delete(id);
        job.at.pending--;
        if (error !== undefined) job.reject(new Error(`gzip: ${error}`));
        else job.resolve(fix(out!));
      });
      worker.on('error', (error: Error) => this.fail(error));
      worker.on('exit', (code) => {
        if (this.workers.includes(slot)) this.fail(new Error(`a gzip worker stopped (exit code ${code})`));
      });
      this.workers.push(slot);
    }
  }

  private fail(error: Error): void {
    this.failed = error;
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
    this.close();
  }
}
