// The site files an archive's pass is about to read, read on threads of their own a little ahead of it, into
// memory the pass then takes them from (take): the main thread, the 10x synthetic release's archive step's critical
// path, neither opens nor reads them. A large site is no longer in the page cache when the archive step comes:
// the 10x synthetic release writes 7.1 GB, and Linux keeps a file read or written once on its inactive list,
// which another workload's files (those read twice: active) had squeezed to 1.3-2.7 GB of this machine's 24 GB.
// The main thread then read most of them from the disk, in the archive's order (by name, across every folder: no
// readahead helps), one blocking read after the other: 13.7 us of kernel time a file against 3.6 us at 1x, and
// waits for the disk besides (perf: read_pages, ext4 inode-table and directory blocks read again, dentries
// allocated again). The threads take those waits. A thread first only read the files for the page cache, and the
// main thread read each again from it (open, fstat, read, close), or read it first from the disk when the thread
// was behind; now they hand over the bytes, with what the pass's fstat gave (a hard link of a file read before is
// not hashed again), two threads (READERS) each a batch in turn.
//
// Handing over, without a message a file: each place ahead has a slot (SLOTS of them, by place) whose state is
// the place's tag (place * 4) plus PENDING, READING, READY or OWN. A thread claims a pending place (PENDING ->
// READING) once its bytes have room in its part of the ring, reads them there and marks it READY; the pass claims
// a pending one itself (PENDING -> OWN, then reads it as before) and waits only for one a thread is reading. So
// neither waits for the other but for a read under way, and threads slower than the pass (or stopped) cost
// nothing but the pass's own reads. A file of LARGE bytes or more (bulk files, list pages of 1,000 records) is
// the pass's own (OWN), as is anything but a regular file: the thread reads it for the page cache only, as
// before. The ring's bytes of a place stay until the pass releases it (release: every view of a file before that
// place is gone, as ReadArena reuse says).
//
// Only a whole pass over a site past PREFETCH_MIN_FILES files asks it: a smaller site's files are still cached
// when it is archived (the read on the thread would be a second copy of each, about 3.5 us of CPU a file), and a
// rebuild reads few files, which it cannot tell ahead.
import type { Worker } from 'node:worker_threads';
import { codeThread } from './threads.ts';
import { OPEN_NO_ATIME_CODE } from './no-atime.ts';

/** Files of a pass at least, for its reads to be made ahead (the 10x synthetic release's root: 1.45 million; the shipped site's: 157,000). */
export const PREFETCH_MIN_FILES = 600_000;
/** How far ahead of the pass files are read (places in its order), and how many are sent to a thread at once. */
const WINDOW = 2048;
const BATCH = 256;
/** Slots of places: every place sent and not passed has its own (reach sends at most WINDOW + BATCH places past the pass). */
const SLOTS = WINDOW + BATCH;
/** Bytes of the ring the threads read files into (half each): about 3,000 of the 10x site's files (4.9 kB on average), a window's worth. */
const RING = 16 << 20;
/** A file of this many bytes or more is the pass's to read (archive.ts LARGE: such a file is cut into members from its own buffer). */
const HANDED_MAX = 128 * 1024;
/** Threads reading, each its part of the ring and every other batch: a file not in the page cache is a wait for the
 *  disk, which two threads wait for at once (the pass then finds the next file read, and reads fewer itself). */
const READERS = 2;

// A slot's state: its place's tag (place * 4) plus one of these.
const PENDING = 0;
const READING = 1;
const READY = 2;
const OWN = 3;
/** No place's tag: a slot never sent. */
const NONE = -1;
/** Per slot in meta: the bytes' offset in the ring and length, the file's device, inode and links. */
const META = 5;
/** control: [0] the place the pass has reached; [1] the place before which it released every file's bytes. */
const REACHED = 0;
const RELEASED = 1;

// Plain CommonJS, evaluated (threads.ts). Each batch is read in order. A file that cannot be opened or read, or
// changed size while it was, is left to the pass, which says why or reads it whole.
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const control = new Int32Array(workerData.control);
const state = new Int32Array(workerData.state);
const meta = new Float64Array(workerData.meta);
// Its own part of the ring, from base.
const base = workerData.from;
const ring = Buffer.from(workerData.ring, base, workerData.length);
const RING = ring.length;
const SLOTS = state.length;
const scratch = Buffer.allocUnsafe(${64 << 10});
${OPEN_NO_ATIME_CODE}
// The ring's bytes in use, in place order: [place, start, end]; head: where the next bytes go.
let live = [];
let first = 0;
let head = 0;
/** Where n bytes fit in the ring now (after the places the pass released), or -1. */
function room(n) {
  const released = Atomics.load(control, ${RELEASED});
  while (first < live.length && live[first][0] < released) first++;
  if (first === live.length) {
    live = [];
    first = 0;
    head = 0;
    return n <= RING ? 0 : -1;
  }
  if (first > 1024) {
    live = live.slice(first);
    first = 0;
  }
  const tail = live[first][1];
  if (head > tail) return head + n <= RING ? head : n <= tail ? 0 : -1;
  return head + n <= tail ? head : -1;
}
/** Reads the open file's bytes (size of them, and one more to see that it did not grow) to ring at; false when they were not size. */
function readInto(fd, at, size) {
  let got = 0;
  for (let n; got <= size && (n = fs.readSync(fd, ring, at + got, size + 1 - got, got)) > 0; ) got += n;
  return got === size;
}
function one(place, file) {
  const slot = place % SLOTS;
  const tag = place * 4;
  if (Atomics.load(state, slot) !== tag + ${PENDING}) return;
  let fd;
  try {
    fd = openNoAtime(file, fs.constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.size >= ${HANDED_MAX} || !st.isFile()) {
      if (Atomics.compareExchange(state, slot, tag + ${PENDING}, tag + ${OWN}) !== tag + ${PENDING}) return;
      Atomics.notify(state, slot);
      // For the page cache only, unless the pass came to it: past the first read the kernel's readahead follows the file.
      if (Atomics.load(control, ${REACHED}) >= place) return;
      while (fs.readSync(fd, scratch, 0, scratch.length, null) === scratch.length);
      return;
    }
    // Room for its bytes and one more, on an 8-byte boundary; while there is none, the pass may take the file itself.
    const n = (st.size + 8) & ~7;
    let at;
    while ((at = room(n)) < 0) {
      if (Atomics.load(state, slot) !== tag + ${PENDING} || n > RING) return;
      Atomics.wait(control, ${RELEASED}, Atomics.load(control, ${RELEASED}), 5);
    }
    if (Atomics.compareExchange(state, slot, tag + ${PENDING}, tag + ${READING}) !== tag + ${PENDING}) return;
    let done = false;
    try {
      done = readInto(fd, at, st.size);
    } catch {}
    if (done) {
      live.push([place, at, at + n]);
      head = at + n;
      const m = slot * ${META};
      meta[m] = base + at;
      meta[m + 1] = st.size;
      meta[m + 2] = st.dev;
      meta[m + 3] = st.ino;
      meta[m + 4] = st.nlink;
    }
    Atomics.compareExchange(state, slot, tag + ${READING}, tag + (done ? ${READY} : ${OWN}));
    Atomics.notify(state, slot);
  } catch {
  } finally {
    fs.closeSync(fd);
  }
}
parentPort.on('message', ({ from, files }) => {
  for (let i = 0; i < files.length; i++) if (files[i] !== '') one(from + i, files[i]);
});
`;

/** A file's bytes read on the thread (a view of its ring, valid until released), and what its fstat said. */
export interface Taken {
  content: Buffer;
  dev: number;
  ino: number;
  nlink: number;
}

/** Reads made ahead of a pass over count places; fileAt(place): the file the pass will read there, or null. */
export class Prefetch {
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * SLOTS)).fill(NONE);
  private readonly meta = new Float64Array(new SharedArrayBuffer(8 * META * SLOTS));
  private readonly ring = new SharedArrayBuffer(RING);
  private readonly bytes = Buffer.from(this.ring);
  private readonly workers: Worker[] = [];
  /** Batches sent (they go to the threads in turn). */
  private batches = 0;
  /** Places up to here were sent to the thread. */
  private sent = 0;

  constructor(private readonly count: number, private readonly fileAt: (place: number) => string | null) {
    this.control[REACHED] = -1;
    const part = RING / READERS;
    for (let i = 0; i < READERS; i++) {
      const worker = codeThread(THREAD_CODE, { workerData: { control: this.control.buffer, state: this.state.buffer, meta: this.meta.buffer, ring: this.ring, from: i * part, length: part } });
      // Never what keeps the process alive, nor what fails a build: the pass reads every file not handed over itself.
      worker.unref();
      worker.on('error', () => {});
      this.workers.push(worker);
    }
  }

  /** The pass is at place: the files up to WINDOW places after it are sent to be read. */
  reach(place: number): void {
    Atomics.store(this.control, REACHED, place);
    if (this.sent < place + 1) this.sent = place + 1;
    while (this.sent < this.count && this.sent < place + WINDOW) {
      const from = this.sent;
      const to = Math.min(this.count, from + BATCH);
      const files: string[] = [];
      for (let k = from; k < to; k++) {
        const file = this.fileAt(k);
        // Its slot's place before was passed (SLOTS places ago): whatever the thread still does with it fails its tag.
        Atomics.store(this.state, k % SLOTS, k * 4 + (file === null ? OWN : PENDING));
        files.push(file ?? '');
      }
      this.workers[this.batches++ % READERS].postMessage({ from, files });
      this.sent = to;
    }
  }

  /**
   * The bytes of the file at place when the thread read them (waiting for a read under way), else null: the pass
   * reads it (and the thread no longer will). A view valid until release(p) for a p past place.
   */
  take(place: number): Taken | null {
    const slot = place % SLOTS;
    const tag = place * 4;
    let now = Atomics.compareExchange(this.state, slot, tag + PENDING, tag + OWN);
    if (now === tag + PENDING) return null;
    // A second at a time: a thread gone mid-read (terminated) does not hold the pass.
    for (let waits = 0; now === tag + READING && waits < 60; waits++) {
      Atomics.wait(this.state, slot, now, 1000);
      now = Atomics.load(this.state, slot);
    }
    // Handed over once: the slot is the pass's from now on.
    if (now !== tag + READY || Atomics.compareExchange(this.state, slot, tag + READY, tag + OWN) !== tag + READY) return null;
    const m = slot * META;
    const at = this.meta[m];
    return { content: this.bytes.subarray(at, at + this.meta[m + 1]), dev: this.meta[m + 2], ino: this.meta[m + 3], nlink: this.meta[m + 4] };
  }

  /** Every view taken of a place before place is gone: their bytes may be read over. */
  release(place: number): void {
    if (Atomics.load(this.control, RELEASED) >= place) return;
    Atomics.store(this.control, RELEASED, place);
    Atomics.notify(this.control, RELEASED);
  }

  close(): void {
    for (const worker of this.workers) void worker.terminate();
  }
}
