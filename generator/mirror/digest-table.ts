// SHA-256 digests held as columns and found by their bytes: the writer's files of the same bytes
// (same-bytes.ts) and the mirror archive's first file of each bytes (mirror/archive.ts FirstPlaces).
// About 40 bytes a distinct digest (its 32 bytes in one array, a number beside it, a slot in the
// table), where a Map of hex strings costs about 120: the 10x synthetic release has 1.45 million files.

/** Bytes of a SHA-256. */
export const DIGEST = 32;

/** Digests, each with a number (a slot, a place), by index in the order added; found by open addressing on their first four bytes. */
export class DigestTable {
  private digests = new Uint8Array(DIGEST * 1024);
  private values = new Int32Array(1024);
  private count = 0;
  /** Index + 1 by the digest's first four bytes, at most half full; 0: empty. */
  private table = new Int32Array(2048);

  /** The index of this digest (its DIGEST bytes from byte from of digest: a column of them, no view made), or -1. */
  find(digest: Uint8Array, from = 0): number {
    const mask = this.table.length - 1;
    for (let at = firstWord(digest, from) & mask; ; at = (at + 1) & mask) {
      const held = this.table[at];
      if (held === 0) return -1;
      if (this.holds(held - 1, digest, from)) return held - 1;
    }
  }

  /** Adds a digest the table does not hold (find: -1; its bytes from byte from) with its number; its index. */
  add(digest: Uint8Array, value: number, from = 0): number {
    const i = this.count++;
    if (i === this.values.length) {
      const digests = new Uint8Array(2 * i * DIGEST);
      digests.set(this.digests);
      this.digests = digests;
      const values = new Int32Array(2 * i);
      values.set(this.values);
      this.values = values;
    }
    this.digests.set(from === 0 && digest.length === DIGEST ? digest : digest.subarray(from, from + DIGEST), i * DIGEST);
    this.values[i] = value;
    if (this.count * 2 > this.table.length) {
      this.table = new Int32Array(this.table.length * 2);
      for (let j = 0; j < this.count; j++) this.place(j);
    } else this.place(i);
    return i;
  }

  value(i: number): number {
    return this.values[i];
  }

  setValue(i: number, value: number): void {
    this.values[i] = value;
  }

  /** The digests, DIGEST bytes each by index, as one buffer over their column (not copied: the table and the numbers can go). */
  column(): Buffer {
    const { digests } = this;
    return Buffer.from(digests.buffer, digests.byteOffset, this.count * DIGEST);
  }

  private holds(i: number, digest: Uint8Array, from: number): boolean {
    const d = this.digests;
    const at = i * DIGEST;
    for (let k = 0; k < DIGEST; k++) if (d[at + k] !== digest[from + k]) return false;
    return true;
  }

  private place(i: number): void {
    const mask = this.table.length - 1;
    let at = firstWord(this.digests, i * DIGEST) & mask;
    while (this.table[at] !== 0) at = (at + 1) & mask;
    this.table[at] = i + 1;
  }
}

/** The four bytes at `at` as a little-endian int32 (where a digest lands in the table). */
const firstWord = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
