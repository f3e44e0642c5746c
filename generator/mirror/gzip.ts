// The archive's gzip members, compressed by a one-shot call (libdeflate's or zlib's, mirror/deflate.ts) on worker
// threads (one a core) that each take members one after the other, not by zlib's asynchronous call a member: that call makes a
// stream and a zlib state and hands the member to the thread pool and back, about 140 us of CPU a
// member (9,099 small members: 0.4 s user + 0.9 s system at level 2), where the one-shot call takes
// 17 us. The bytes are the same (the same zlib, level and memory level). A rebuild compresses a few
// members: the first ones go to the threads already started (the archive's writer's), else are
// compressed on the main thread, and more threads start only for more.
//
// The same threads write the archive's bytes and hash them (ArchiveStream, for write/mirror.ts), so that
// the main thread only reads, tars and hands over. The threads are the process's, started when first
// needed and kept for the next archive (a build makes one a release): starting a thread is about 38 ms
// of CPU at load, and a one-count rebuild started six (two gzip workers and a writer an archive) where
// it now starts at most two. An idle thread does not keep the process alive (unref).
import type { Worker } from 'node:worker_threads';
import { codeThread } from './threads.ts';
import { statSync } from 'node:fs';
import { hashFile } from './manifest.ts';
import { OPEN_NO_ATIME_CODE } from './no-atime.ts';
import { GZIP_MEMBER_CODE, gzipMember } from './deflate.ts';
import os from 'node:os';

/** Members compressed before more threads start, on those started or else on the main thread (a rebuild's dozens, not the thousands of a full build). */
const INLINE = 64;
/** Bytes of an archive (members made, runs copied) handed to its thread at once. */
const STREAM_BATCH = 8 << 20;
/** Worker threads: one a core. */
const WORKERS = os.availableParallelism();

// Plain CommonJS, evaluated (no loader): the build runs from a bundle, tests from tsx.
const WORKER = `const { parentPort } = require('node:worker_threads');
${GZIP_MEMBER_CODE}
const { closeSync, constants, fstatSync, readSync, writeSync } = require('node:fs');
const { createHash } = require('node:crypto');
const streams = new Map();
const buffer = Buffer.allocUnsafe(4 << 20);
// Files read without setting their access time while the thread may ask it (mirror/no-atime.ts).
${OPEN_NO_ATIME_CODE}
// A file's SHA-256 (hex) and size, read through the thread's buffer; with chunking given, a file of at
// least chunking.large bytes is read whole and its chunks given too (hashFiles).
const KEPT = 16 << 20;
let whole = Buffer.allocUnsafe(0);
const ZEROS = Buffer.alloc(512);
const hashOne = (file, chunking, before) => {
  const h = createHash('sha256');
  const fd = openNoAtime(file, constants.O_RDONLY);
  let size = 0;
  try {
    const known = chunking ? fstatSync(fd).size : 0;
    if (chunking && known >= chunking.large) {
      // One buffer kept for files up to KEPT bytes (a new one a file is as many pages the kernel zeroes); a larger
      // file (a bulk file of a 10x site) in its own, let go after it (as the main thread reads it whole to cut it).
      const into = known <= KEPT ? (whole.length < known ? (whole = Buffer.allocUnsafe(KEPT)) : whole) : Buffer.allocUnsafe(known);
      for (let got; size < known && (got = readSync(fd, into, size, known - size, size)) > 0; ) size += got;
      const content = into.subarray(0, size);
      h.update(content);
      if (readSync(fd, buffer, 0, 1, size) === 0) return [h.digest('hex'), size, chunksOf(content, chunking, before)];
      // Grown since its size was asked: the rest hashed below, its chunks left to the main thread.
    }
    for (let got; (got = readSync(fd, buffer, 0, buffer.length, size)) > 0; size += got) h.update(buffer.subarray(0, got));
  } finally {
    closeSync(fd);
  }
  return [h.digest('hex'), size, null];
};
// A large file's chunks as mirror/archive.ts contentChunks cuts them (its cutAt, the gear hash's table and
// sizes given; before: the file's previous chunks' sizes and digests, tried first where they may begin, as
// there), each with its digest (chunkDigest: its tar bytes, the last one padded to the block): from, to, digest.
const digestOf = (content, from, to) => {
  const sha1 = createHash('sha1').update(content.subarray(from, to));
  if (to === content.length) sha1.update(ZEROS.subarray(0, (512 - (content.length % 512)) % 512));
  return 'c' + sha1.digest('base64url');
};
const cutAt = (content, from, { min, max, bits, gear }) => {
  const mask = (2 ** bits - 1) * 2 ** (32 - bits);
  const last = Math.min(content.length, from + max);
  let h = 0;
  for (let i = from + min; i < last; i++) {
    h = ((h << 1) + gear[content[i]]) >>> 0;
    if ((h & mask) === 0) return i + 1;
  }
  return last;
};
const chunksOf = (content, chunking, before) => {
  const out = [];
  const sizes = before ? before[0] : [];
  const digests = before ? before[1] : [];
  const starts = new Map();
  let oldLength = 0;
  for (let k = 0; k < sizes.length; k++) {
    starts.set(oldLength, k);
    oldLength += sizes[k];
  }
  const shift = content.length - oldLength;
  const ordered = [...starts.keys()];
  let tries = sizes.length > 0 ? [0] : [];
  let from = 0;
  outer: while (from < content.length) {
    for (const k of tries) {
      if (k < 0 || k >= sizes.length || from + sizes[k] > content.length || (k === sizes.length - 1 && from + sizes[k] !== content.length)) continue;
      const to = from + sizes[k];
      const digest = digestOf(content, from, to);
      if (digest !== digests[k]) continue;
      out.push([from, to, digest]);
      from = to;
      tries = [k + 1];
      continue outer;
    }
    const to = cutAt(content, from, chunking);
    out.push([from, to, digestOf(content, from, to)]);
    from = to;
    let lo = 0;
    for (let hi = ordered.length; lo < hi; ) {
      const mid = (lo + hi) >>> 1;
      if (ordered[mid] < to) lo = mid + 1;
      else hi = mid;
    }
    const next = starts.get(to - shift);
    const here = starts.get(to);
    tries = [...new Set([next === undefined ? -1 : next, here === undefined ? -1 : here, lo - 1, lo])];
  }
  return out;
};
const put = (s, bytes) => {
  s.sha256.update(bytes);
  for (let at = 0; at < bytes.length; ) at += writeSync(s.out, bytes, at);
};
parentPort.on('message', (m) => {
  if (m.hash !== undefined) {
    const hashes = [];
    try {
      for (const [k, file] of m.hash.entries()) hashes.push(...hashOne(file, m.chunking, m.before ? m.before[k] : null));
    } catch (error) {
      parentPort.postMessage({ id: m.id, error: String((error && error.message) || error) });
      return;
    }
    parentPort.postMessage({ id: m.id, hashes });
    return;
  }
  if (m.stream === undefined) {
    const { id, data, level } = m;
    let out;
    try {
      out = gzipMember(data, level);
    } catch (error) {
      parentPort.postMessage({ id, error: String(error) });
      return;
    }
    // Its own buffer, handed over (a view's structured clone copies the whole buffer under it).
    const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : new Uint8Array(out);
    parentPort.postMessage({ id, out: own }, [own.buffer]);
    return;
  }
  // An archive's bytes, written at its file's position and hashed, in the order they come.
  let s = streams.get(m.stream);
  if (s === undefined) streams.set(m.stream, (s = { out: m.out, sha256: createHash('sha256'), failed: null }));
  if (m.end) {
    streams.delete(m.stream);
    parentPort.postMessage(s.failed === null ? { stream: m.stream, sha256: s.sha256.digest('hex') } : { stream: m.stream, error: s.failed });
    return;
  }
  if (s.failed !== null) return;
  try {
    for (const op of m.ops) {
      if (op.data) put(s, Buffer.from(op.data.buffer, op.data.byteOffset, op.data.byteLength));
      else {
        const [fd, offset, length] = op.copy;
        for (let at = 0; at < length; ) {
          const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - at), offset + at);
          if (n === 0) throw new Error('the previous archive ended before its member at ' + (offset + at));
          put(s, buffer.subarray(0, n));
          at += n;
        }
      }
    }
  } catch (error) {
    s.failed = String((error && error.message) || error);
  }
});`;

/** zlib writes the OS it was built for into byte 9 of the header, libdeflate 255 (unknown): 3 (Unix) everywhere. */
function fix(member: Uint8Array): Buffer {
  const out = Buffer.isBuffer(member) ? member : Buffer.from(member.buffer, member.byteOffset, member.byteLength);
  out[9] = 3;
  return out;
}

interface Slot {
  worker: Worker;
  /** Jobs asked of it and not answered (an archive stream counts one until it ends): it keeps the process alive while any is. */
  pending: number;
}

/** What a thread's answer settles: a member's gzip bytes, an archive stream's SHA-256, or files' SHA-256 and size (hashFiles). */
type Answer = Buffer | string | HashAnswer;
/** hashFiles' answer from a thread: a file's hex, size and chunks (or null), one after the other. */
type HashAnswer = (string | number | FileChunk[] | null)[];
interface Waiting {
  resolve: (value: Answer) => void;
  reject: (e: Error) => void;
  at: Slot;
  /** What a failure's message names (a member's compression by default). */
  label?: string;
}

/** The process's mirror threads (started as needed, up to WORKERS), and what they have yet to answer. */
const threads: Slot[] = [];
const waiting = new Map<number, Waiting>();
let asked = 0;
let failed: Error | null = null;

/** The threads, at least n of them started (a failed one is replaced by new ones). */
function started(n: number): Slot[] {
  if (failed) {
    failed = null;
    stopThreads();
  }
  while (threads.length < n) {
    const worker = codeThread(WORKER);
    const slot: Slot = { worker, pending: 0 };
    worker.on('message', (m: { id?: number; out?: Uint8Array; hashes?: HashAnswer; stream?: number; sha256?: string; error?: string }) => {
      const key = m.id ?? m.stream!;
      const job = waiting.get(key);
      if (!job) return;
      waiting.delete(key);
      done(job.at);
      if (m.error !== undefined) job.reject(new Error(m.id === undefined ? `writing the archive: ${m.error}` : `${job.label ?? 'gzip'}: ${m.error}`));
      else job.resolve(m.id === undefined ? m.sha256! : m.hashes ?? fix(m.out!));
    });
    worker.on('error', (error: Error) => fail(error));
    worker.on('exit', (code) => {
      if (threads.includes(slot)) fail(new Error(`a mirror thread stopped (exit code ${code})`));
    });
    // Unreferenced after its listeners: adding a 'message' listener references the thread again (Node 20), and a
    // thread started and never asked (startThreadsAhead) kept the process from exiting.
    worker.unref();
    threads.push(slot);
  }
  return threads;
}

function ask(at: Slot): void {
  if (at.pending++ === 0) at.worker.ref();
}

function done(at: Slot): void {
  if (--at.pending === 0) at.worker.unref();
}

/** Every thread stopped, and what they had yet to answer refused. */
function fail(error: Error): void {
  failed = error;
  for (const job of waiting.values()) job.reject(error);
  waiting.clear();
  for (const slot of threads) slot.pending = 0;
  stopThreads();
}

/** Starts n mirror threads (at most one a core) ahead of the archives that will use them: a rebuild starts them
 *  while its main thread renders and the other core is idle, not when its first archive begins (build.ts). */
export function startThreadsAhead(n: number): void {
  started(Math.min(WORKERS, n));
}

/** How many mirror threads are started (the tests check when they start). */
export const startedThreads = (): number => threads.length;

/** Stops the mirror threads (a test's or a long-lived process's clean-up; the next archive starts new ones). */
export function stopThreads(): void {
  const stopping = threads.splice(0);
  for (const { worker } of stopping) void worker.terminate();
}

/** A buffer to post: its own when it is the whole of one, else a copy (the structured clone of a view copies its whole buffer: a 4 MB arena for a chunk). */
function transferable(bytes: Buffer): Uint8Array {
  const owns = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return owns ? bytes : new Uint8Array(bytes);
}

/** Posts a message to a mirror thread, handing over the buffers of transfer (a buffer Node will not hand over is copied). */
function post(at: Slot, message: Record<string, unknown>, transfer: ArrayBuffer[] = []): void {
  try {
    at.worker.postMessage(message, transfer);
  } catch {
    // An ArrayBuffer Node marked as not to be handed over: copied (structured clone).
    at.worker.postMessage(message);
  }
}

export class Compressor {
  private asked = 0;

  constructor(private readonly level: number) {}

  /** A member's tar bytes as one gzip member (its bytes are not changed, and not used after the call: a view of a larger buffer is copied). */
  compress(tar: Buffer): Promise<Buffer> {
    // After a turn of the event loop: a member a turn, as zlib's asynchronous call gave (a test worker's
    // loop is watched, test/support/event-loop.ts; a server in the same process keeps answering).
    // The first ones go to the threads already started (the archive's writer starts one), none started for them.
    const pool = this.asked++ < INLINE ? threads : WORKERS < 2 ? [] : started(WORKERS);
    if (pool.length === 0) {
      // Copied now when a view: the caller reads other files over its buffer before the next turn (archive.ts ReadArena).
      const data = transferable(tar);
      return new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(fix(gzipMember(data, this.level)));
          } catch (error) {
            reject(error);
          }
        }),
      );
    }
    const at = pool.reduce((a, b) => (b.pending < a.pending ? b : a));
    const id = ++asked;
    return new Promise<Answer>((resolve, reject) => {
      waiting.set(id, { resolve, reject, at });
      ask(at);
      const data = transferable(tar);
      post(at, { id, level: this.level, data }, [data.buffer as ArrayBuffer]);
    }) as Promise<Buffer>;
  }

  /** Nothing to stop: the threads are the process's, kept for the next archive (stopThreads). */
  close(): void {}
}

/** Files hashed on a mirror thread at once (one message each way a batch: a message costs the main thread about 60-85 us at load). */
const HASH_BATCH = 64;

/** A large file's chunk: its bytes from, to, and its member's digest (mirror/archive.ts contentChunks, chunkDigest). */
export type FileChunk = [number, number, string];

/** A large file's chunks in the previous archive (their sizes and digests, in order), tried first as contentChunks tries them. */
export type PreviousChunks = [number[], string[]];

/** How mirror/archive.ts cuts a large file (contentChunks): files of `large` bytes or more, its cutAt's sizes and gear table. */
export interface Chunking {
  large: number;
  min: number;
  max: number;
  bits: number;
  gear: Uint32Array;
}

/**
 * The SHA-256 (hex) and size of each of files (absolute paths), read and hashed on the mirror threads
 * while the main thread goes on: a remove's patchPlan hashes the 3,700 written files over 16 KiB that the
 * writer did not (214 MB), which on the main thread came before each archive's first member, the second
 * archive's behind the first's. With chunking, a file of chunking.large bytes or more has its chunks too,
 * from the same read (the main thread read the 110 MB of a remove's bulk files again to cut them), its
 * previous chunks tried first where given (before, by file: a chunk found so is not scanned). With one
 * core, on the main thread (no thread to run beside it), without chunks.
 */
export function hashFiles(files: readonly string[], chunking: Chunking | null = null, before: readonly (PreviousChunks | null)[] = []): Promise<{ hex: string; size: number; chunks: FileChunk[] | null }[]> {
  if (files.length === 0) return Promise.resolve([]);
  if (WORKERS < 2) return Promise.resolve(files.map((file) => ({ hex: hashFile(file), size: statSync(file).size, chunks: null })));
  const pool = started(WORKERS);
  const batches: Promise<HashAnswer>[] = [];
  for (let from = 0; from < files.length; from += HASH_BATCH) {
    const batch = files.slice(from, from + HASH_BATCH);
    const previous = before.length > 0 ? before.slice(from, from + HASH_BATCH) : null;
    const at = pool.reduce((a, b) => (b.pending < a.pending ? b : a));
    const id = ++asked;
    batches.push(
      new Promise<Answer>((resolve, reject) => {
        waiting.set(id, { resolve, reject, at, label: 'hashing a written file' });
        ask(at);
        post(at, { id, hash: batch, chunking, before: previous });
      }) as Promise<HashAnswer>,
    );
  }
  return Promise.all(batches).then((answers) => {
    const out: { hex: string; size: number; chunks: FileChunk[] | null }[] = [];
    for (const triples of answers) for (let k = 0; k < triples.length; k += 3) out.push({ hex: triples[k] as string, size: triples[k + 1] as number, chunks: triples[k + 2] as FileChunk[] | null });
    return out;
  });
}

/**
 * An archive's bytes written at its open file's position and hashed (SHA-256) on one mirror thread, in
 * the order given: made members handed over, runs of the previous archive's members copied from its
 * open file (descriptors are the process's). On the main thread, a one-count rebuild read, hashed and
 * wrote the 161 MB of its two archives between members (about 0.25 s at load), and a full build hashed
 * and wrote them, none of it beside the reading and tarring.
 */
export class ArchiveStream {
  /** Archives being written: a rebuild writes its two at once (build.ts), each on a thread of its own. */
  private static open = 0;
  private readonly at: Slot;
  private readonly id = ++asked;
  private readonly result: Promise<string>;
  private bytes = 0;
  /** What is to be written and not yet handed over (in one message: a message cost the main thread about 60-85 us at load,
   *  one a member made and one a run of copied members, about 520 for a one-count rebuild's two archives). */
  private ops: ({ data: Uint8Array } | { copy: [number, number, number] })[] = [];
  private transfer: ArrayBuffer[] = [];
  private pending = 0;
  /** out: the archive file, open for writing, written from its position on. */
  constructor(private readonly out: number) {
    // The least busy thread (the first started, when none is: a rebuild's few members need no other), of
    // as many as archives are being written: two archives' runs copied on one thread were copied in turn.
    this.at = started(Math.min(WORKERS, ++ArchiveStream.open)).reduce((a, b) => (b.pending < a.pending ? b : a));
    this.result = new Promise<Answer>((resolve, reject) => {
      waiting.set(this.id, { resolve, reject, at: this.at });
    }) as Promise<string>;
    ask(this.at);
    // Not waited on until end(): a failure is its rejection then, not an unhandled one now.
    this.result.catch(() => {});
  }
  /** A made member's bytes (handed over when the buffer is theirs alone: detached here). */
  put(data: Buffer): void {
    this.bytes += data.length;
    const own = transferable(data);
    this.ops.push({ data: own });
    this.transfer.push(own.buffer as ArrayBuffer);
    this.pending += data.length;
    this.flushSome();
  }
  /** length bytes of the open file fd from offset on (the previous archive: open until end() is over). */
  copy(fd: number, offset: number, length: number): void {
    this.bytes += length;
    this.ops.push({ copy: [fd, offset, length] });
    this.pending += length;
    this.flushSome();
  }
  /** Handed over once a few MB are waiting (the thread writes while the main thread goes on), or at the end. */
  private flushSome(): void {
    if (this.pending >= STREAM_BATCH) this.flush();
  }
  private flush(): void {
    if (this.ops.length === 0) return;
    post(this.at, { stream: this.id, out: this.out, ops: this.ops }, this.transfer);
    this.ops = [];
    this.transfer = [];
    this.pending = 0;
  }
  /** Once every byte given is written: their count and SHA-256. */
  async end(): Promise<{ bytes: number; sha256: string }> {
    try {
      this.flush();
      post(this.at, { stream: this.id, out: this.out, end: true });
      return { bytes: this.bytes, sha256: await this.result };
    } finally {
      ArchiveStream.open--;
    }
  }
}
