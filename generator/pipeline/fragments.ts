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
// (write/fragments.ts FragmentSpool: an unlinked file, so a build that fails leaves nothing) and, once
// the build's state is saved, appends them to the file (or writes it anew under another salt).
import { fstatSync, readFileSync, readSync, statSync } from 'node:fs';

const HEADER = 'jaspar fragments 1\n';
const TRAILER_MAGIC = 0x3167_6672; // "rfg1"
export const TRAILER_BYTES = 12;
/**
 * The largest file kept: a worker reads it whole, and holds it and a key for each text through the render.
 * The shipped site's is 49 MB (73,000 texts of 9,850 records); a release ten times that size would hold
 * about 500 MB in its worker on top of its records (the 10x synthetic release's peak is 854-916 MB of the
 * issue's 1 GB), so past this none is kept and its rebuilds render every text, as before.
 */
export const MAX_FRAGMENT_BYTES = 128 * 1024 * 1024;

export const headerOf = (salt: string): Buffer => Buffer.from(`${HEADER}${salt}\n`);

/** The length of the entries' end (where the trailer begins) of a file that is whole and of this salt, else null. */
export function entriesEnd(fd: number, salt: string): number | null {
  const header = headerOf(salt);
  const size = fstatSync(fd).size;
  if (size < header.length + TRAILER_BYTES) return null;
  const head = Buffer.alloc(header.length);
  if (readSync(fd, head, 0, head.length, 0) !== head.length || !head.equals(header)) return null;
  const tail = Buffer.alloc(TRAILER_BYTES);
  if (readSync(fd, tail, 0, TRAILER_BYTES, size - TRAILER_BYTES) !== TRAILER_BYTES) return null;
  const end = size - TRAILER_BYTES;
  return trailer(end).equals(tail) ? end : null;
}

/** The trailer of a file whose entries end at end: what a whole file ends with. */
export function trailer(end: number): Buffer {
  const tail = Buffer.alloc(TRAILER_BYTES);
  tail.writeUInt32LE(TRAILER_MAGIC, 0);
  tail.writeUInt32LE(end % 2 ** 32, 4);
  tail.writeUInt32LE(Math.floor(end / 2 ** 32), 8);
  return tail;
}

/**
 * A render worker's side (and the main thread's for the tasks it renders: here-fragments.ts): the kept texts by
 * key, read from the file at once and decoded when asked. Each key is found by a hash of its bytes in a table of
 * numbers (open addressing), its bytes compared in place: no string is made of the 73,000 keys of the shipped site's
 * file, nor a Map entry for each (35-40 ms of the thread that opened it, against about 10).
 */
export class FragmentStore {
  private readonly bytes: Buffer;
  /** Each slot: the offset of an entry plus one (0: empty), and the hash of its key's bytes. */
  private slots: Int32Array;
  private hashes: Int32Array;
  private count = 0;
  /** A key's UTF-8 bytes, written here to be looked up (grown when a key is longer). */
  private scratch = Buffer.allocUnsafe(256);

  private constructor(bytes: Buffer, start: number, end: number) {
    this.bytes = bytes;
    // About one entry in 600 bytes (the shipped site's 44 MB hold 80,000): at most half the slots taken, or grown.
    let size = 16;
    while (size < (end - start) / 300) size *= 2;
    this.slots = new Int32Array(size);
    this.hashes = new Int32Array(size);
    let offset = start;
    while (offset + 8 <= end) {
      const keyBytes = bytes.readUInt32LE(offset);
      const textBytes = bytes.readUInt32LE(offset + 4);
      const keyAt = offset + 8;
      const textAt = keyAt + keyBytes;
      if (textAt + textBytes > end) break;
      // A key's last entry wins (there is one a key: only texts the file did not hold are added).
      const hash = bytesHash(bytes, keyAt, textAt);
      const i = this.find(bytes, keyAt, keyBytes, hash);
      if (this.slots[i] === 0) this.count++;
      this.slots[i] = offset + 1;
      this.hashes[i] = hash;
      if (this.count * 2 > this.slots.length) this.grow();
      offset = textAt + textBytes;
    }
  }

  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2);
    this.hashes = new Int32Array(slots.length * 2);
    const mask = this.slots.length - 1;
    for (let j = 0; j < slots.length; j++) {
      if (slots[j] === 0) continue;
      let i = hashes[j] & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = slots[j];
      this.hashes[i] = hashes[j];
    }
  }

  /** The slot of the entry whose key is key's length bytes at keyAt, else the empty slot it would take. */
  private find(key: Buffer, keyAt: number, length: number, hash: number): number {
    const { slots, hashes, bytes } = this;
    const mask = slots.length - 1;
    let i = hash & mask;
    for (; slots[i] !== 0; i = (i + 1) & mask) {
      if (hashes[i] !== hash) continue;
      const at = slots[i] - 1;
      if (bytes.readUInt32LE(at) === length && key.compare(bytes, at + 8, at + 8 + length, keyAt, keyAt + length) === 0) return i;
    }
    return i;
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
    return FragmentStore.of(bytes, salt);
  }

  /** The store of a file's bytes (read otherwise: here-fragments.ts) when they are whole and of this salt; else an empty one. */
  static of(bytes: Buffer, salt: string): FragmentStore {
    const header = headerOf(salt);
    const end = bytes.length - TRAILER_BYTES;
    const whole = end >= header.length && bytes.subarray(0, header.length).equals(header) && bytes.subarray(end).equals(trailer(end));
    return whole ? new FragmentStore(bytes, header.length, end) : new FragmentStore(Buffer.alloc(0), 0, 0);
  }

  get size(): number {
    return this.count;
  }

  /** The kept file's bytes (0 when none is read). */
  get bytesRead(): number {
    return this.bytes.length;
  }

  get(key: string): string | undefined {
    if (this.count === 0) return undefined;
    if (this.scratch.length < 3 * key.length) this.scratch = Buffer.allocUnsafe(3 * key.length);
    const length = this.scratch.write(key, 0);
    const i = this.find(this.scratch, 0, length, bytesHash(this.scratch, 0, length));
    if (this.slots[i] === 0) return undefined;
    const offset = this.slots[i] - 1;
    const textAt = offset + 8 + this.bytes.readUInt32LE(offset);
    // Decoded from the bytes: one flat string (formats/records.ts flat), not a tree of pieces.
    return this.bytes.toString('utf8', textAt, textAt + this.bytes.readUInt32LE(offset + 4));
  }
}

/**
 * FNV-1a of a key's bytes, start to end (in the file or as looked up), of its first 32 bytes and last 16 only: a key
 * is a memo's name and what it is made from, a record's digest last or a list item's JSON, its matrix id among the
 * first bytes (the shipped site's 80,000 keys are 10 MB; keys that share both ends are told apart when compared).
 */
function bytesHash(bytes: Buffer, start: number, end: number): number {
  let h = (0x811c9dc5 ^ (end - start)) | 0;
  const head = Math.min(end, start + 32);
  for (let i = start; i < head; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  for (let i = Math.max(head, end - 16); i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
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

/** The main thread's side as the pool sees it (write/fragments.ts FragmentSpool: only the writer's modules write files). */
export interface FragmentSink {
  /** What a worker reads: the kept file when it is whole and of this salt. */
  readonly readable: { file: string; salt: string } | null;
  /** Entries (encodeFragments) a worker made. */
  add(bytes: Uint8Array): void;
}
