// New files made on a thread of their own, the writer's main thread deciding (issue 22, the 10x synthetic
// release's wall time). A build into an empty folder creates every file: open(O_CREAT), write, fstat and
// close, or link, a folder made on the way now and then. In the kernel that was 4.2 s of the main
// thread's 8.9 s of CPU for JASPAR 2024 alone (148,076 files), while the one render worker waited for
// the main thread to take its batches. Here the main thread only copies the bytes and hands them over,
// about a megabyte at a time; this thread makes the files, in the order handed (a link's file, handed
// before it, is there when it is made), and says each file's inode and ctime back through a port the
// writer reads when it likes (receiveMessageOnPort): the writer's calls stay synchronous. A shared
// counter of batches done lets the writer wait for room (at most IN_FLIGHT_BYTES handed and not made)
// and for the end, blocking (Atomics.wait) without an event loop turn.
//
// Used for files whose bytes are at hand, where nothing is at the paths (compare=false: the folder was
// empty), and in a rebuild for the files the writer looked at and found different (writer.ts
// fileRewritten: written over in place, the file there cut after the write when it was longer, or what
// was there moved aside for a link). Content in pieces stays on the writer's thread (after everything
// handed here is made, in an empty folder).
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { codeThread } from '../mirror/threads.ts';

/** Bytes handed and not yet made past which the writer waits: a bounded share of the peak RSS. */
const IN_FLIGHT_BYTES = 16 << 20;
/** A batch is sent once it holds this many bytes (or files), else when the writer's synchronous run ends (a microtask). */
const BATCH_BYTES = 1 << 20;
const BATCH_FILES = 1024;
/** Staging buffers kept for use again: as many as may be in flight, and one being filled. */
const SPARE = (IN_FLIGHT_BYTES / BATCH_BYTES) + 1;

const MKDIR = 0;
const WRITE = 1;
const LINK = 2;

/** What became of a file handed (made(): its slot in the writer's records). */
export interface MadeFile {
  /** The slot the writer gave when handing it. */
  slot: number;
  /** Its inode; for a link, -1: the inode of the file linked to (its slot: linkedTo). */
  ino: number;
  ctimeMs: number;
  linkedTo: number;
  /** A link that could not be made (EMLINK, EPERM…): a copy of the file it would have named was made, and this says why. */
  linkError: NodeJS.ErrnoException | null;
}

// The thread (CommonJS, no generator module: it only makes files). Every batch is made in order; the first error
// stops the batch and is said with the index of the file it is about. The file is opened as the writer's own
// (files.ts WRITE: no link followed, not truncated: nothing is there); a link that fails becomes a copy of the
// file it would have named, which its digest's group keeps as it was (same-bytes.ts: which paths share an inode
// may vary only where a link fails).
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { port, done } = workerData;
const C = fs.constants;
const OPEN = C.O_WRONLY | C.O_CREAT | C.O_NOFOLLOW;
parentPort.on('message', (m) => {
  try {
    make(m);
  } catch (e) {
    // Not an error of a file's (those are said with their index): said as the batch's first.
    port.postMessage({ out: new Float64Array(0), fell: [], error: { at: 0, code: e && e.code, message: String(e && e.message) }, data: new ArrayBuffer(0) });
  } finally {
    // Counted done whatever happened: the writer may be waiting for it (Atomics.wait).
    Atomics.add(done, 0, 1);
    Atomics.notify(done, 0);
  }
});
function make(m) {
  const { root, kinds, paths, lengths, targets, data } = m;
  const bytes = new Uint8Array(data);
  const out = new Float64Array(kinds.length * 2);
  const fell = [];
  let offset = 0;
  let error = null;
  for (let i = 0; i < kinds.length; i++) {
    const file = root + '/' + paths[i];
    try {
      if (kinds[i] === ${MKDIR}) fs.mkdirSync(file, { recursive: true });
      else if (kinds[i] === ${WRITE}) {
        const fd = fs.openSync(file, OPEN, 0o666);
        try {
          const end = offset + lengths[i];
          let at = offset;
          while (at < end) at += fs.writeSync(fd, bytes, at, end - at, at - offset);
          let st = fs.fstatSync(fd);
          // Written over a longer file in place (a rebuild's: files.ts WRITE), cut to its length here.
          if (st.size > lengths[i]) {
            fs.ftruncateSync(fd, lengths[i]);
            st = fs.fstatSync(fd);
          }
          out[2 * i] = st.ino;
          out[2 * i + 1] = st.ctimeMs;
        } finally {
          fs.closeSync(fd);
        }
        offset += lengths[i];
      } else {
        const to = root + '/' + targets[i];
        try {
          fs.linkSync(to, file);
          out[2 * i] = -1;
        } catch (e) {
          // Something at the path, put there since the folder was checked: a link is never written through (ELOOP, as open(O_NOFOLLOW) says).
          if (e.code === 'EEXIST' && fs.lstatSync(file).isSymbolicLink()) throw Object.assign(new Error(e.message), { code: 'ELOOP' });
          fs.copyFileSync(to, file, C.COPYFILE_EXCL);
          const st = fs.lstatSync(file);
          out[2 * i] = st.ino;
          out[2 * i + 1] = st.ctimeMs;
          fell.push([i, e.code, e.message]);
        }
      }
    } catch (e) {
      error = { at: i, code: e.code, message: e.message };
      break;
    }
  }
  // The bytes' memory back to the writer, for its next batches: let go here, it waited for this thread's
  // garbage collection, which its few objects seldom call for.
  port.postMessage({ out, fell, error, data }, [out.buffer, data]);
}
`;

interface Batch {
  kinds: number[];
  paths: string[];
  lengths: number[];
  targets: (string | null)[];
  slots: number[];
  linkedTo: number[];
  bytes: number;
}

const emptyBatch = (): Batch => ({ kinds: [], paths: [], lengths: [], targets: [], slots: [], linkedTo: [], bytes: 0 });

export class OffThreadFiles {
  private readonly thread: Worker;
  private readonly port: MessagePort;
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private batch = emptyBatch();
  private staging: Buffer | null = null;
  private staged = 0;
  private flushQueued = false;
  /** Batches sent and not yet taken back, oldest first. */
  private readonly sent: Batch[] = [];
  /** Batches taken back in all (the thread's shared counter counts those done). */
  private taken = 0;
  private inFlight = 0;
  private failure: Error | null = null;
  /** Staging memory the thread gave back (BATCH_BYTES each), used again. */
  private readonly spare: ArrayBuffer[] = [];

  /** made: called for every file made, in the order handed, when the writer takes them back (take(), wait()). */
  constructor(private readonly root: string, private readonly made: (f: MadeFile) => void) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.thread = codeThread(THREAD, { workerData: { port: port2, done: this.done }, transferList: [port2] });
    // Its errors come back as messages; an exit is the process's own (terminate()).
    this.thread.unref();
  }

  /** A folder (and those above it) made before the files handed after it. */
  folder(rel: string): void {
    this.add(MKDIR, rel, 0, null, -1, -1);
  }

  /** A new file of these bytes at rel (copied: the caller's memory is its own again on return). */
  write(rel: string, bytes: Uint8Array, slot: number): void {
    if (this.staging === null || this.staged + bytes.length > this.staging.length) {
      if (this.staged > 0) this.flush();
      this.staging = bytes.length <= BATCH_BYTES && this.spare.length > 0 ? Buffer.from(this.spare.pop()!) : Buffer.allocUnsafeSlow(Math.max(BATCH_BYTES, bytes.length));
      this.staged = 0;
    }
    this.staging.set(bytes, this.staged);
    this.staged += bytes.length;
    this.add(WRITE, rel, bytes.length, null, slot, -1);
  }

  /** A hard link at rel to target (a file of this build, handed before or made already), whose slot is targetSlot. */
  link(rel: string, target: string, slot: number, targetSlot: number): void {
    this.add(LINK, rel, 0, target, slot, targetSlot);
  }

  /** Takes back what the thread has made so far (made() called for each); throws the thread's first error. */
  take(): void {
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) this.taken_(m.message);
    if (this.failure) throw this.failure;
  }

  /** Blocks until every file handed is made and taken back. */
  finish(): void {
    this.flush();
    this.waitFor(0);
  }

  /** Stops the thread (after finish(), or when the build failed). */
  close(): void {
    void this.thread.terminate();
    this.port.close();
  }

  private add(kind: number, rel: string, length: number, target: string | null, slot: number, linkedTo: number): void {
    const b = this.batch;
    b.kinds.push(kind);
    b.paths.push(rel);
    b.lengths.push(length);
    b.targets.push(target);
    b.slots.push(slot);
    b.linkedTo.push(linkedTo);
    b.bytes += length;
    if (b.kinds.length >= BATCH_FILES || this.staged >= BATCH_BYTES) this.flush();
    else if (!this.flushQueued) {
      // The writer's run of files (a render batch's, a slice of eager files) ends before the microtasks run.
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        if (this.failure === null) this.flush();
      });
    }
  }

  private flush(): void {
    // What is made so far taken back here, not at every file: a look at the port is a call into Node's C++.
    this.take();
    const b = this.batch;
    if (b.kinds.length === 0) return;
    // Room first: at most IN_FLIGHT_BYTES handed and not made.
    while (this.inFlight > 0 && this.inFlight + b.bytes > IN_FLIGHT_BYTES) this.waitFor(this.sent.length - 1);
    // The staging memory is moved when mostly used (and made anew for the next files); a small part is copied
    // and the rest used again: a render batch of small files is sent alone, at the end of its run.
    let data = new ArrayBuffer(0);
    if (this.staging !== null && this.staged > 0) {
      if (this.staged * 4 < this.staging.length) data = this.staging.buffer.slice(0, this.staged) as ArrayBuffer;
      else {
        data = this.staging.buffer as ArrayBuffer;
        this.staging = null;
      }
    }
    this.staged = 0;
    this.batch = emptyBatch();
    this.sent.push(b);
    this.inFlight += b.bytes;
    this.thread.postMessage({ root: this.root, kinds: Uint8Array.from(b.kinds), paths: b.paths, lengths: b.lengths, targets: b.targets, data }, [data]);
  }

  /** Blocks until at most `left` batches sent are not yet taken back. */
  private waitFor(left: number): void {
    for (;;) {
      this.take();
      if (this.sent.length <= left) return;
      const done = Atomics.load(this.done, 0);
      // A batch is posted back before it is counted done: one counted and not received is on its way.
      if (done > this.taken) continue;
      Atomics.wait(this.done, 0, done);
    }
  }

  private taken_(message: { out: Float64Array; fell: [number, string, string][]; error: { at: number; code?: string; message: string } | null; data: ArrayBuffer }): void {
    if (message.data.byteLength === BATCH_BYTES && this.spare.length < SPARE) this.spare.push(message.data);
    const b = this.sent.shift()!;
    this.taken++;
    this.inFlight -= b.bytes;
    const { out, fell, error } = message;
    const fellAt = new Map(fell.map(([i, code, text]) => [i, Object.assign(new Error(text), { code }) as NodeJS.ErrnoException]));
    const end = error ? error.at : b.kinds.length;
    for (let i = 0; i < end; i++) {
      if (b.kinds[i] === MKDIR) continue;
      this.made({ slot: b.slots[i], ino: out[2 * i], ctimeMs: out[2 * i + 1], linkedTo: b.linkedTo[i], linkError: fellAt.get(i) ?? null });
    }
    if (error && this.failure === null) {
      const rel = b.paths[error.at];
      this.failure = error.code === 'ELOOP'
        ? new Error(`${rel} in the output folder became a link while the build wrote; it was not followed (fix: remove the link and build again)`)
        : Object.assign(new Error(`${rel}: ${error.message}`), { code: error.code });
    }
  }
}
