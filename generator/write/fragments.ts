// The main thread's side of the records' texts kept across builds (pipeline/fragments.ts: the file's
// format, and the render workers' reading side): the texts the workers made, spooled until the build's
// state is saved, then added to the state folder's file. Here because only the writer's modules write
// files (test/write/only-the-writer-writes.test.ts).
import { closeSync, existsSync, ftruncateSync, openSync, readSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { MAX_FRAGMENT_BYTES, entriesEnd, headerOf, trailer, type FragmentSink } from '../pipeline/fragments.ts';
import { spoolDir, stateDir } from './state.ts';

/** Where a site's fragments are kept. */
export const fragmentFile = (outDir: string): string => path.join(stateDir(outDir), 'fragments.bin');

/** Closes a spool's file when a build let it go unsaved (a failed build never calls save). */
const unsaved = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * The main thread's side: whether the kept file can be read (the workers are told), and the texts the
 * workers made, spooled until the build's state is saved.
 */
export class FragmentSpool implements FragmentSink {
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
