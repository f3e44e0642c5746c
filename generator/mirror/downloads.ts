// What the offline mirror adds to the site plan: the bulk files, the
// downloads page (which lists them with their sizes) and its script. The
// archive and the manifest come after the site is written (archive.ts).
import type { Release } from '../dataset/types.ts';
import type { FormatContext } from '../formats/types.ts';
import type { Layout } from '../routes/shard.ts';
import { DOWNLOADS_SCRIPT, downloadsPage } from '../pages/downloads.ts';
import { type BulkFile, type RecordCache, bulkFiles } from './bulk.ts';
import { DOWNLOADS, DOWNLOADS_JS, rel } from './layout.ts';

/** Rendered bulk files kept for the writer, at most this many bytes a release; the others are rendered again when written (a large release's bulk files are hundreds of MB). */
const HELD_BYTES = 64 << 20;

/**
 * [output path, content, key] of every file the mirror adds to the site. The bulk files have a key
 * (bulk.ts BulkFile key: a rebuild need not render one written with the same key; known gives the size
 * of such a file, for the page), and are held when rendered here or rendered again when written.
 * `archive`: false in a compact build, which has none.
 */
export function* downloadFiles(release: Release, base: string, layout: Layout, context: FormatContext, { archive = true, known, records }: { archive?: boolean; known?: (path: string, key: string) => number | undefined; records?: RecordCache } = {}): Generator<[string, string | (() => string) | { pieces(): Iterable<string> }, string?]> {
  // The page needs every file's size; the contents are not kept for it.
  const listed: BulkFile[] = [];
  let held = 0;
  // Asked by bulkFiles before it joins a file's records: one not held is not joined.
  const hold = (bytes: number) => held + bytes <= HELD_BYTES;
  for (const file of bulkFiles(release, base, layout, context, known && ((p, key) => known(rel(p), key)), records, hold)) {
    const keep = file.rendered && hold(file.bytes);
    if (keep) held += file.bytes;
    // Not held: rendered again when written, record by record (pipeline/output-plan.ts StreamedContent).
    yield [rel(file.path), keep ? file.content : { pieces: file.pieces }, file.key];
    listed.push({ ...file, content: '' });
  }
  yield [`${rel(DOWNLOADS)}index.html`, downloadsPage(release, base, listed, { archive })];
  yield [rel(DOWNLOADS_JS), DOWNLOADS_SCRIPT];
}
