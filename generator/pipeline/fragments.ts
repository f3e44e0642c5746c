// Records' texts kept from one build to the next (formats/records.ts
// Fragments): a rebuild after a matrix is added or removed renders the list
// pages after it in every view and format (DRF's pagination shifts them),
// 4,908 tasks of the shipped site's 47,785, and its render worker made every
// record's texts on those pages cold. Kept, a shifted page is its head, its
// records' texts looked up, and its tail.
//
// One file in the build's state folder (write/state.ts stateDir):
//   header   "jaspar fragments 1\n" + the salt + "\n" (the generator sources and options: pipeline/schedule.ts)
//   entries  key bytes (u32 LE), text bytes (u32 LE), key, text (UTF-8)
//   trailer  TRAILER_MAGIC, then the file's length before the trailer (u32 LE, low and high)
// A file whose header is not this build's salt, or whose trailer is missing or does not give its
// length (a save cut short), is not read: every text is rendered as without it. A key names what its
// text is made from (records.ts), so an entry is right for any record it is looked up for.
//
// The render worker reads the file whole and looks texts up by offset; the texts it makes that
// the file does not hold come back to the main thread with each batch (pool.ts), which spools them
// (an unlinked file: a build that fails leaves nothing) and, once the build's state is saved, appends
// them to the file (or writes it anew under another salt).
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { spoolDir, stateDir } from '../write/state.ts';

const HEADER = 'jaspar fragments 1\n';
const TRAILER_MAGIC = 0x3167_6672; // "rfg1"
const TRAILER_BYTES = 12;
/**
 * The largest file kept: a worker reads it whole, and holds it and a key for each text through the render.
 * The shipped site's is 49 MB (73,000 texts of 9,850 records); a release ten times that size would hold
 * about 500 MB in its worker on top of its records (the 10x synthetic release's peak is 854-916 MB of the
 * issue's 1 GB), so past this none is kept and its rebuilds render every text, as before.
 */
export const MAX_FRAGMENT_BYTES = 128 * 1024 * 1024;

/** Where a site's fragments are kept. */
export const fragmentFile = (outDir: string): string => path.join(stateDir(outDir), 'fragments.bin');

const headerOf = (salt: string): Buffer => Buffer.from(`${HEADER}${salt}\n`);

/** The length of the entries' end (where the trailer begins) of a file that is whole and of this salt, else null. */
function entriesEnd(fd: number, salt: string): number | null {
  const header = headerOf(salt);
  const size = fstatSync(fd).size;
  if (size < header.length + TRAILER_BYTES) return null;
  const head = Buffer.alloc(header.length);
  if (readSync(fd, head, 0, head.length, 0) !== head.length || !head.equals(header)) return null;
  const tail = Buffer.alloc(TRAILER_BYTES);
  if (readSync(fd, tail, 0, TRAILER_BYTES, size - TRAILER_BYTES) !== TRAILER_BYTES) return null;
  const end = size - TRAILER_BYTES;
  if (tail.readUInt32LE(0) !== TRAILER_MAGIC || tail.readUInt32LE(4) !== end % 2 ** 32 || tail.readUInt32LE(8) !== Math.floor(end / 2 ** 32)) return null;
  return end;
}

function trailer(end: number): Buffer {
  const tail = Buffer.alloc(TRAILER_BYTES);
  tail.writeUInt32LE(TRAILER_MAGIC, 0);
  tail.writeUInt32LE(end % 2 ** 32, 4);
  tail.writeUInt32LE(Math.floor(end / 2 ** 32), 8);
  return tail;
}

/** A render worker's side: the kept texts by key, read from the file at once and decoded when asked. */
export class FragmentStore {
  private readonly bytes: Buffer;
  /** Each key's text: start and end in bytes. */
  private readonly at = new Map<string, number>();

  private constructor(bytes: Buffer, start: number, end: number) {
    this.bytes = bytes;
    let offset = start;
    while (offset + 8 <= end) {
      const keyBytes = bytes.readUInt32LE(offset);
      const textBytes = bytes.readUInt32LE(offset + 4);
      const keyAt = offset + 8;
      const textAt = keyAt + keyBytes;
      if (textAt + textBytes > end) break;
      // A key's last entry wins (there is one a key: only texts the file did not hold are added).
      this.at.set(bytes.toString('utf8', keyAt, textAt), offset);
      offset = textAt + textBytes;
    }
  }

  /** The store of file when it is whole and of this salt; else an empty one. */
  static open(file: string, salt: string): FragmentStore {
    let bytes: Buffer;
    try {
      if (statSync(file).size > MAX_FRAGMENT_BYTES) throw new Error('too large');
      bytes = readFileSync(file);
    } catch {
      return new FragmentStore(Buffer.alloc(0), 0, 0);
    }
    const header = headerOf(salt);
    const end = bytes.length - TRAILER_BYTES;
    const whole = end >= header.length && bytes.subarray(0, header.length).equals(header) && bytes.readUInt32LE(end) === TRAILER_MAGIC && bytes.readUInt32LE(end + 4) === end % 2 ** 32 && bytes.readUInt32LE(end + 8) === Math.floor(end / 2 ** 32);
    return whole ? new FragmentStore(bytes, header.length, end) : new FragmentStore(Buffer.alloc(0), 0, 0);
  }

  get size(): number {
    return this.at.size;
  }

  /** The kept file's bytes (0 when none is read). */
  get bytesRead(): number {
    return this.bytes.length;
  }

  get(key: string): string | undefined {
    const offset = this.at.get(key);
    if (offset === undefined) return undefined;
    const textAt = offset + 8 + this.bytes.readUInt32LE(offset);
    // Decoded from the bytes: one flat string (formats/records.ts flat), not a tree of pieces.
    return this.bytes.toString('utf8', textAt, textAt + this.bytes.readUInt32LE(offset + 4));
  }
}

/** Entries as the file holds them, one after the other. */
export function encodeFragments(entries: readonly [string, string][]): Buffer {
  let size = 0;
  for (const [key, text] of entries) size += 8 + Buffer.byteLength(key) + Buffer.byteLength(text);
  // Memory of its own, not Node's shared pool: it is moved to the main thread.
  const out = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  for (const [key, text] of entries) {
    const keyBytes = out.write(key, offset + 8);
    const textBytes = out.write(text, offset + 8 + keyBytes);
    out.writeUInt32LE(keyBytes, offset);
    out.writeUInt32LE(textBytes, offset + 4);
    offset += 8 + keyBytes + textBytes;
  }
  return out;
}

/** Closes a spool's file when a build let it go unsaved (a failed build never calls save). */
const unsaved = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * The main thread's side: whether the kept file can be read (the workers are told), and the texts the
 * workers made, spooled until the build's state is saved.
 */
export class FragmentSpool {
  readonly file: string;
  /** Where the kept file's entries end when it is whole and of this salt: new entries go there. */
  private readonly end: number | null;
  private fd: number | null = null;
  private spooled = 0;

  constructor(private readonly outDir: string, readonly salt: string) {
    this.file = fragmentFile(outDir);
    let fd: number | undefined;
    try {
      fd = openSync(this.file, 'r');
      this.end = entriesEnd(fd, salt);
    } catch {
      this.end = null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** What a worker reads: the kept file when it is whole and of this salt. */
  get readable(): { file: string; salt: string } | null {
    return this.end === null ? null : { file: this.file, salt: this.salt };
  }

  /** Entries (encodeFragments) a worker made. */
  add(bytes: Uint8Array): void {
    // Past the largest file kept, nothing more is spooled (save keeps none).
    if (bytes.length === 0 || (this.end ?? 0) + this.spooled > MAX_FRAGMENT_BYTES) return;
    if (this.fd === null) {
      // Beside the output folder (where its state goes), unlinked at once: nothing is left if the build fails.
      const spool = path.join(spoolDir(this.outDir), `.fragments-${process.pid}-${Date.now()}.spool`);
      this.fd = openSync(spool, 'w+');
      unlinkSync(spool);
      unsaved.register(this, this.fd, this);
    }
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.spooled + done);
    this.spooled += bytes.length;
  }

  /** Adds the spooled entries to the kept file (written anew when it was not whole or of this salt); once the build's state is saved. */
  save(): void {
    const fd = this.fd;
    if (fd === null) return;
    this.fd = null;
    unsaved.unregister(this);
    try {
      if (!existsSync(stateDir(this.outDir))) return;
      // Too large to keep: nothing added (a file of another salt, which no build will read, is removed).
      if ((this.end ?? 0) + this.spooled > MAX_FRAGMENT_BYTES) {
        if (this.end === null) rmSync(this.file, { force: true });
        return;
      }
      const append = this.end !== null;
      const target = append ? this.file : `${this.file}.tmp`;
      const out = openSync(target, append ? 'r+' : 'w');
      try {
        let at = append ? this.end! : 0;
        const put = (bytes: Buffer) => {
          for (let done = 0; done < bytes.length; ) done += writeSync(out, bytes, done, bytes.length - done, at + done);
          at += bytes.length;
        };
        if (!append) put(headerOf(this.salt));
        // The trailer is written last: a save cut short leaves a file no build reads.
        const chunk = Buffer.allocUnsafe(Math.min(this.spooled, 1 << 20));
        for (let from = 0; from < this.spooled; ) {
          const n = readSync(fd, chunk, 0, Math.min(chunk.length, this.spooled - from), from);
          if (n === 0) throw new Error('fragment spool cut short');
          put(chunk.subarray(0, n));
          from += n;
        }
        put(trailer(at));
        ftruncateSync(out, at);
      } finally {
        closeSync(out);
      }
      if (!append) renameSync(target, this.file);
    } finally {
      closeSync(fd);
    }
  }
}
