// The SHA-256 of the mid-sized files a rebuild's render hands the writer, taken from the bytes handed, for the
// archives' patch (mirror/archive.ts patchPlan). The writer hashes the files of at most LINKED_MAX bytes itself
// (write/same-bytes.ts); every other written file was read again and hashed on the mirror threads once the render
// had ended, and each archive's patch waited for them (a remove of MA1364.1: 3,700 list pages and bulk files,
// 214 MB, about 0.5 s between "mirror root begins" and "patch planned", while during the render the main thread
// slept 0.46 s and the mirror threads did nothing). The files under CHUNKING.large are hashed here, on the main
// thread, as they are handed (SHA-256 of bytes in memory, no read: about 1.3 GB/s here); larger ones (bulk files:
// a remove's 260, 110 MB) are handed to a mirror thread, which hashes them and cuts them into their chunks during
// the render (hashBytes), as hashFiles did from a read once it had ended.
import { hash } from 'node:crypto';
import type { WriteContent } from '../pipeline/output-plan.ts';
import type { ScheduleSink } from '../pipeline/schedule.ts';
import { LINKED_MAX } from '../write/same-bytes.ts';
import { CHUNKING } from './archive.ts';
import { hashBytes, type FileChunk } from './gzip.ts';

/** A large file's SHA-256, size and chunks (hashFiles' answer). */
type Hashed = { hex: string; size: number; chunks: FileChunk[] | null };

/** Files hashed at most (their paths and hex digests held to the archives: about 250 bytes each); past it the mirror threads read the others, as before. */
const MAX_FILES = 1 << 16;
/** Bytes of large files handed to the threads and not yet hashed there at most (a bound on the memory they hold meanwhile); a file past it is read on a thread after the render, as before. */
const MAX_LARGE_BYTES = 64 << 20;

export class HandedDigests {
  private readonly digests = new Map<string, string>();
  private readonly large = new Map<string, Promise<Hashed>>();
  /** Bytes of large files handed to the threads and not hashed yet (MAX_LARGE_BYTES). */
  private largeBytes = 0;

  /** The sink the render hands files to, each mid-sized file's bytes hashed before the writer takes them (they are the sink's only until it returns). */
  sink(writer: ScheduleSink): ScheduleSink {
    return {
      key: (first, key) => writer.key(first, key),
      reuse: (paths, key) => writer.reuse(paths, key),
      file: (rel, content) => {
        const large = this.take(rel, content);
        // A large file's bytes made here go to the writer (it would make the same from the string) and then, whole, to a thread.
        writer.file(rel, large ?? content);
        if (large) this.hand(rel, large);
      },
    };
  }

  /** Hashes a mid-sized file's bytes; a large one's returned as a Buffer of its own (a string encoded, bytes copied: theirs are reused once the call returns), to hand over. */
  private take(rel: string, content: WriteContent): Buffer | null {
    if (this.digests.size + this.large.size >= MAX_FILES) return null;
    let bytes: number;
    if (Buffer.isBuffer(content)) bytes = content.length;
    else if (typeof content === 'string') bytes = content.length <= LINKED_MAX / 3 ? 0 : Buffer.byteLength(content);
    // Content in pieces: read on the mirror threads.
    else return null;
    if (bytes <= LINKED_MAX) return null;
    if (bytes >= CHUNKING.large) {
      if (this.largeBytes + bytes > MAX_LARGE_BYTES) return null;
      this.largeBytes += bytes;
      const own = Buffer.allocUnsafeSlow(bytes);
      if (typeof content === 'string') own.write(content);
      else content.copy(own);
      return own;
    }
    // A string is written as its UTF-8 (write/writer.ts), which is what hash() takes of it.
    this.digests.set(rel, hash('sha256', content, 'hex'));
    return null;
  }

  private hand(rel: string, bytes: Buffer): void {
    const hashed = hashBytes(bytes.buffer as ArrayBuffer, CHUNKING);
    if (hashed === null) {
      this.largeBytes -= bytes.length;
      return;
    }
    // Awaited by the archives' patch, if it asks; a build that fails first does not leave it unhandled (the then's second function).
    const size = bytes.length;
    const hashedThere = () => {
      this.largeBytes -= size;
    };
    hashed.then(hashedThere, hashedThere);
    this.large.set(rel, hashed);
  }

  /** A large file handed with these bytes: its SHA-256, size and chunks once its thread is done; else undefined. Asked only of files the writer wrote. */
  chunked(rel: string): Promise<Hashed> | undefined {
    return this.large.get(rel);
  }

  /** The SHA-256 (hex) of a file handed with these bytes, else undefined. Asked only of files the writer wrote: a file handed is written with its bytes or left as it was. */
  sha256(rel: string): string | undefined {
    return this.digests.get(rel);
  }
}
