// The site files an archive's pass is about to read, read once on a thread of their own a little ahead of it, so
// that the main thread finds them in the page cache. A large site is no longer there when the archive step
// comes: the 10x synthetic release writes 7.1 GB, and Linux keeps a file read or written once on its inactive
// list, which another workload's files (those read twice: active) had squeezed to 1.3-2.7 GB of this machine's
// 24 GB. The main thread then read most of them from the disk, in the archive's order (by name, across every
// folder: no readahead helps), one blocking read after the other: 13.7 us of kernel time a file against 3.6 us
// at 1x, and waits for the disk besides (perf: read_pages, ext4 inode-table and directory blocks read again,
// dentries allocated again). The thread takes those waits; the main thread's read of the same file is then a
// copy from the cache.
//
// Only a whole pass over a site past PREFETCH_MIN_FILES files asks it: a smaller site's files are still cached
// when it is archived (the read here would be a second copy of each, about 3.5 us of CPU a file), and a
// rebuild reads few files, which it cannot tell ahead.
import type { Worker } from 'node:worker_threads';
import { codeThread } from './threads.ts';
import { OPEN_NO_ATIME_CODE } from './no-atime.ts';

/** Files of a pass at least, for its reads to be made ahead (the 10x synthetic release's root: 1.45 million; the shipped site's: 157,000). */
export const PREFETCH_MIN_FILES = 600_000;
/** How far ahead of the pass files are read (places in its order), and how many are sent to the thread at once. */
const WINDOW = 2048;
const BATCH = 256;

// Plain CommonJS, evaluated (threads.ts). Each batch is read in order; a file the pass has reached (its place at
// most the pass's, shared[0]) is left to it. A file that cannot be read is left to the pass too, which says why.
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const reached = new Int32Array(workerData.shared);
const buffer = Buffer.allocUnsafe(${64 << 10});
${OPEN_NO_ATIME_CODE}
parentPort.on('message', ({ from, files }) => {
  for (let i = 0; i < files.length; i++) {
    if (files[i] === '' || Atomics.load(reached, 0) >= from + i) continue;
    let fd;
    try {
      fd = openNoAtime(files[i], fs.constants.O_RDONLY);
    } catch {
      continue;
    }
    try {
      // Past the first read the kernel's own readahead follows the file.
      while (fs.readSync(fd, buffer, 0, buffer.length, null) === buffer.length);
    } catch {
    } finally {
      fs.closeSync(fd);
    }
  }
});
`;

/** Reads made ahead of a pass over count places; fileAt(place): the file the pass will read there, or null. */
export class Prefetch {
  private readonly reached = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  /** Places up to here were sent to the thread. */
  private sent = 0;

  constructor(private readonly count: number, private readonly fileAt: (place: number) => string | null) {
    this.reached[0] = -1;
    this.worker = codeThread(THREAD_CODE, { workerData: { shared: this.reached.buffer } });
    // Never what keeps the process alive, nor what fails a build: the pass reads every file itself.
    this.worker.unref();
    this.worker.on('error', () => {});
  }

  /** The pass is at place: the files up to WINDOW places after it are sent to be read. */
  reach(place: number): void {
    Atomics.store(this.reached, 0, place);
    if (this.sent < place + 1) this.sent = place + 1;
    while (this.sent < this.count && this.sent < place + WINDOW) {
      const from = this.sent;
      const to = Math.min(this.count, from + BATCH);
      const files: string[] = [];
      for (let k = from; k < to; k++) files.push(this.fileAt(k) ?? '');
      this.worker.postMessage({ from, files });
      this.sent = to;
    }
  }

  close(): void {
    void this.worker.terminate();
  }
}
