// The records' texts kept by earlier builds (fragments.ts), for the tasks the main thread renders itself: a
// small rebuild's, in the wait for the folder look and after it (schedule.ts renderAhead, renderPlan below
// WORKER_THRESHOLD tasks). Without them its memos (formats/records.ts) rendered every record of its pages cold:
// a count of MA1364.1 renders the first page of 1,000 records of five list views in both releases, about 3,000
// records in the jaspar, meme, transfac, pfm and api formats, most of the 0.34 s of the main thread's CPU its
// render took, though the kept file held every text (the render workers read it; the main thread did not).
// Looked up as a render worker looks them up (worker.ts): a record by its digest, a memo's second argument (a
// part's format context or release description) by its part's key; the texts made here that the file lacks
// (the changed records') are spooled for the next build as the workers' are. Made before the plan: the file is
// read meanwhile, off this thread.
import { hash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { matrixDigest } from '../dataset/digest.ts';
import { useFragments, type Fragments } from '../formats/records.ts';
import type { FormatContext } from '../formats/types.ts';
import { FragmentStore, MAX_FRAGMENT_BYTES, encodeFragments, type FragmentSink } from './fragments.ts';
import type { PlanPart } from './output-plan.ts';

export class HereFragments {
  /** The kept file's bytes, read on libuv's threads from the start (the shipped site's 44 MB: 25 ms of the thread
   *  that reads it, page faults and copy), while this thread plans; null when there is none to read. */
  private reading: Promise<Buffer | null> | null;
  /** The store, made of them when the first task is about to be rendered here (ready()). */
  private store: FragmentStore | null = null;
  private made: [string, string][] = [];
  private readonly partKeys = new WeakMap<object, string>();
  private readonly fragments: Fragments = {
    record: (m) => matrixDigest(m),
    with: (w) => this.partKeys.get(w),
    get: (key) => this.store?.get(key),
    made: (key, text) => void this.made.push([key, text]),
  };

  constructor(private readonly sink: FragmentSink) {
    const readable = sink.readable;
    this.reading = readable === null ? null : readKept(readable.file);
  }

  /** Waits for the kept file, and makes the store of it (once): before a task is rendered with render(). */
  async ready(): Promise<void> {
    if (this.store !== null || this.reading === null) return;
    const bytes = await this.reading;
    this.store ??= bytes === null ? null : FragmentStore.of(bytes, this.sink.readable!.salt);
  }

  /** The parts' format contexts (schedule.ts renderingOf), keyed as worker.ts keys them: what a memo's second argument is. */
  parts(parts: readonly PlanPart[], contexts: readonly FormatContext[]): void {
    contexts.forEach((context, i) => {
      const key = hash('sha1', JSON.stringify(parts[i]), 'base64url');
      this.partKeys.set(context, key);
      this.partKeys.set(context.release, key);
    });
  }

  /** render() with the kept texts, once ready() made the store (else as before: the memos alone). */
  render<T>(render: () => T): T {
    if (this.store === null) return render();
    useFragments(this.fragments);
    try {
      return render();
    } finally {
      useFragments(null);
    }
  }

  /** Once the render is done: spools the texts made here (FragmentSink add), for the next build, and lets the kept
   *  file go (not held through the mirror archives); render() renders as without it from then on. */
  finish(): void {
    if (this.made.length > 0) this.sink.add(encodeFragments(this.made.splice(0)));
    this.store = null;
    this.reading = null;
  }
}

/** The kept file's bytes, null when it cannot be read or is larger than any kept (FragmentStore.open alike). */
async function readKept(file: string): Promise<Buffer | null> {
  try {
    if ((await stat(file)).size > MAX_FRAGMENT_BYTES) return null;
    return await readFile(file);
  } catch {
    return null;
  }
}
