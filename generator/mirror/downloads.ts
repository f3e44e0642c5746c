// What the offline mirror adds to the site plan: the bulk files, the
// downloads page (which lists them with their sizes) and its script. The
// archive and the manifest come after the site is written (archive.ts).
import type { Release } from '../dataset/types.ts';
import type { FormatContext } from '../formats/types.ts';
import type { Layout } from '../routes/shard.ts';
import { DOWNLOADS_SCRIPT, downloadsPage } from '../pages/downloads.ts';
import { type BulkFile, bulkFiles } from './bulk.ts';
import { DOWNLOADS, DOWNLOADS_JS, rel } from './layout.ts';

/** [output path, content] of every file the mirror adds to the site; the bulk files as functions that render them when written. `archive`: false in a compact build, which has none. */
export function* downloadFiles(release: Release, base: string, layout: Layout, context: FormatContext, { archive = true } = {}): Generator<[string, string | (() => string)]> {
  // The page needs every file's size; the contents are not kept for it.
  const listed: BulkFile[] = [];
  for (const file of bulkFiles(release, base, layout, context)) {
    yield [rel(file.path), file.render];
    listed.push({ ...file, content: '' });
  }
  yield [`${rel(DOWNLOADS)}index.html`, downloadsPage(release, base, listed, { archive })];
  yield [rel(DOWNLOADS_JS), DOWNLOADS_SCRIPT];
}
