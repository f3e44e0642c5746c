// The SHA-256 of the mid-sized files a rebuild's render hands the writer, taken from the bytes handed, for the
// archives' patch (mirror/archive.ts patchPlan). The writer hashes the files of at most LINKED_MAX bytes itself
// (write/same-bytes.ts); every other written file was read again and hashed on the mirror threads once the render
// had ended, and each archive's patch waited for them (a remove of MA1364.1: 3,700 list pages and bulk files,
// 214 MB, about 0.5 s between "mirror root begins" and "patch planned", while during the render the main thread
// slept 0.46 s and the mirror threads did nothing). The files under CHUNKING.large are hashed here, on the main
// thread, as they are handed (SHA-256 of bytes in memory, no read: about 1.3 GB/s here); larger ones are still
// read on the mirror threads, which cut them into their chunks from the same read (hashFiles).
import { hash } from 'node:crypto';
import type { WriteContent } from '../pipeline/output-plan.ts';
import type { ScheduleSink } from '../pipeline/schedule.ts';
import { LINKED_MAX } from '../write/same-bytes.ts';
import { CHUNKING } from './archive.ts';

/** Files hashed at most (their paths and hex digests held to the archives: about 250 bytes each); past it the mirror threads read the others, as before. */
const MAX_FILES = 1 << 16;

export class HandedDigests {
  private readonly digests = new Map<string, string>();

  /** The sink the render hands files to, each mid-sized file's bytes hashed before the writer takes them (they are the sink's only until it returns). */
  sink(writer: ScheduleSink): ScheduleSink {
    return {
      key: (first, key) => writer.key(first, key),
      reuse: (paths, key) => writer.reuse(paths, key),
      file: (rel, content) => {
        this.take(rel, content);
        writer.file(rel, content);
      },
    };
  }

  private take(rel: string, content: WriteContent): void {
    if (this.digests.size >= MAX_FILES) return;
    let bytes: number;
    if (Buffer.isBuffer(content)) bytes = content.length;
    else if (typeof content === 'string') bytes = content.length <= LINKED_MAX / 3 ? 0 : Buffer.byteLength(content);
    // Content in pieces: read on the mirror threads.
    else return;
    if (bytes <= LINKED_MAX || bytes >= CHUNKING.large) return;
    // A string is written as its UTF-8 (write/writer.ts), which is what hash() takes of it.
    this.digests.set(rel, hash('sha256', content, 'hex'));
  }

  /** The SHA-256 (hex) of a file handed with these bytes, else undefined. Asked only of files the writer wrote: a file handed is written with its bytes or left as it was. */
  sha256(rel: string): string | undefined {
    return this.digests.get(rel);
  }
}
