// Bulk files: what the real API makes people page through ten records at a
// time, in one file each, rendered by the same format modules as the API.
//  - The list (every page's results, in list order) in json, jaspar, meme,
//    transfac and pfm: the list resource without pagination.
//  - JASPAR's download bundles, by JASPAR's file names: CORE redundant (every
//    version) and non-redundant (the latest version of each base id), the
//    same per taxonomic group, and each other collection non-redundant, in
//    jaspar, meme and transfac. JASPAR writes its records in the order of its
//    database's internal ids, which a release does not carry; ours come in
//    matrix id order (base id, then version). Record for record they are
//    JASPAR's bytes (test/mirror/bulk.test.ts compares them with the real
//    2024 bundles).
import type { Matrix, Release } from '../dataset/types.ts';
import { FORMATS, type FormatId } from '../formats/registry.ts';
import type { FormatContext, Resource } from '../formats/types.ts';
import { flat, unkept } from '../formats/records.ts';
import { listItem, listOrder } from '../plan/resources.ts';
import type { Layout } from '../routes/shard.ts';
import { latestVersions } from '../plan/views.ts';
import { allMatricesPath, bundlePath } from './layout.ts';
import { digestsOf, hash128, matrixDigest } from '../dataset/digest.ts';

/** Formats of the whole-list files, with their file suffix. */
export const LIST_FILES: { format: FormatId; suffix: string }[] = [
  { format: 'json', suffix: '.json' },
  { format: 'jaspar', suffix: '_jaspar.txt' },
  { format: 'meme', suffix: '_meme.txt' },
  { format: 'transfac', suffix: '_transfac.txt' },
  { format: 'pfm', suffix: '_pfm.txt' },
];

/** The formats JASPAR offers its bundles in. */
export const BUNDLE_FORMATS = ['jaspar', 'meme', 'transfac'] as const satisfies readonly FormatId[];

export interface BundleSet {
  /** JASPAR's name of the set, e.g. "CORE_vertebrates_non-redundant". */
  set: string;
  collection: string;
  taxGroup: string | null;
  redundant: boolean;
  matrices: Matrix[];
}

export interface BulkFile {
  /** Root-relative URL path, e.g. "/download/all/JASPAR2024_all_matrices.json". */
  path: string;
  /** Empty when not rendered (rendered false) or not held (bulkFiles hold). */
  content: string;
  /** False when the caller knew the file by its key (bulkFiles known): its size is the one known. */
  rendered: boolean;
  /** What the content is made from (its records' digests, format, release description, base URL, layout): equal keys, equal bytes. */
  key: string;
  /** Renders the content again (the plan keeps this instead of the content: a large release's bulk files are hundreds of MB). */
  render: () => string;
  /** Renders the content again in pieces (the head, then each record), for a writer that writes them as they come: the content is never whole in memory. */
  pieces: () => Iterable<string>;
  /** UTF-8 bytes of the content. */
  bytes: number;
  matrices: number;
  /** The format (json, jaspar, …) and, for bundles, the set. */
  format: FormatId;
  bundle?: BundleSet;
}

/**
 * Records rendered by earlier builds, by what they are made from (the release description, base URL
 * and layout, the format, the record's digest): a rebuild after a one-matrix change renders the bulk
 * files that hold it, about thirty, each of thousands of records, of which one changed. The caller
 * keeps it for the generator sources that rendered it (build.ts).
 */
export interface RecordCache {
  get(key: string): string | undefined;
  set(key: string, text: string): void;
}

/** Matrix id order: base id, then version as a number. */
export function byMatrixId(a: Matrix, b: Matrix): number {
  return a.baseId < b.baseId ? -1 : a.baseId > b.baseId ? 1 : a.version - b.version;
}


/** The sets JASPAR publishes: CORE whole and per taxonomic group, redundant
 *  and non-redundant; every other collection non-redundant only (JASPAR has
 *  no all-versions bundle of UNVALIDATED). Empty sets are left out. */
export function bundleSets(release: Release): BundleSet[] {
  const sets: BundleSet[] = [];
  const collections = [...new Set(release.matrices.map((m) => m.collection))].sort((a, b) => (a === 'CORE' ? -1 : b === 'CORE' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  for (const collection of collections) {
    const all = release.matrices.filter((m) => m.collection === collection).sort(byMatrixId);
    const latest = [...latestVersions(all)].sort(byMatrixId);
    const add = (taxGroup: string | null, redundant: boolean, matrices: Matrix[]) => {
      const name = [collection, taxGroup, redundant ? 'redundant' : 'non-redundant'].filter((p) => p !== null).map(safe).join('_');
      if (matrices.length > 0) sets.push({ set: name, collection, taxGroup, redundant, matrices });
    };
    if (collection !== 'CORE') {
      add(null, false, latest);
      continue;
    }
    add(null, false, latest);
    add(null, true, all);
    const groups = [...new Set(all.map((m) => m.taxGroup).filter((g) => g !== ''))].sort();
    for (const group of groups) {
      // JASPAR's per-taxon non-redundant bundles hold the latest version of each base id whose latest version is in the group.
      add(group, false, latest.filter((m) => m.taxGroup === group));
      add(group, true, all.filter((m) => m.taxGroup === group));
    }
  }
  return sets;
}

/** File names keep to letters, digits, "-", "." and "_". */
const safe = (part: string) => part.replace(/[^A-Za-z0-9.-]+/g, '_');

/**
 * The list of `matrices` as one resource, rendered in `format` by the format's own module, unkept (formats/records.ts):
 * a record's texts are kept by recordJoiner while the files are listed, and a file rendered again when written
 * renders its records afresh, one at a time (the 10x synthetic release's were about 120 MB of the main thread's
 * heap, kept through the render, with the formats' memos filled here).
 */
export function renderAll(matrices: Matrix[], format: FormatId, base: string, layout: Layout, context: FormatContext): string {
  const resource: Resource = {
    kind: 'list',
    body: { count: matrices.length, next: null, previous: null, results: matrices.map((m) => listItem(m, base, layout)) },
    matrices,
    nav: { title: '', dir: '', request: '', formats: [], breadcrumbs: [] },
  };
  return unkept(() => FORMATS[format].render(resource, context));
}

/** The records of a text-format list as pieces: its head, then each matrix's record, rendered one at a time and
 *  not kept (a file rendered again when written: its records were let go once every file was listed). */
function* recordPieces(format: FormatId, matrices: Matrix[], base: string, layout: Layout, context: FormatContext): Generator<string> {
  const head = renderAll([], format, base, layout, context);
  yield head;
  for (const m of matrices) yield renderAll([m], format, base, layout, context).slice(head.length);
}

/** A bulk file's content, empty when not held, and its UTF-8 bytes. */
interface Joined {
  content: string;
  bytes: number;
}

/**
 * The text formats write a list as a fixed head (MEME's header, else nothing) followed by one record per
 * matrix, which is how JASPAR's bundles are laid out too. Each matrix appears in up to four bundles of a
 * format, so its record is rendered once (by the format's module) and its size reused; its text is kept
 * only once a file that shows it is held (hold: the caller keeps the content until it is written). A
 * file not held needs its size only, for the downloads page: it is rendered again when written
 * (recordPieces). Every record's text kept until every file was listed was about 100 MB of the main
 * thread's heap at the end of the 10x synthetic release's plan.
 */
function recordJoiner(format: FormatId, base: string, layout: Layout, context: FormatContext, kept?: { cache: RecordCache; salt: string }): (matrices: Matrix[], hold: (bytes: number) => boolean) => Joined {
  const head = renderAll([], format, base, layout, context);
  const headBytes = Buffer.byteLength(head);
  /** The records of the files held so far. */
  const texts = new Map<Matrix, string>();
  /** The UTF-8 bytes of every record rendered. */
  const sizes = new Map<Matrix, number>();
  const render = (m: Matrix) => {
    const key = kept && `${kept.salt} ${format} ${matrixDigest(m)}`;
    // Flat (formats/records.ts flat): a text made by concatenation, kept, keeps its every piece.
    const text = (key && kept.cache.get(key)) ?? flat(renderAll([m], format, base, layout, context).slice(head.length));
    if (key) kept.cache.set(key, text);
    sizes.set(m, Buffer.byteLength(text));
    return text;
  };
  return (matrices, hold) => {
    // Rendered for this file: kept if it is held.
    const fresh = new Map<Matrix, string>();
    let bytes = headBytes;
    for (const m of matrices) {
      let size = sizes.get(m);
      if (size === undefined) {
        fresh.set(m, render(m));
        size = sizes.get(m)!;
      }
      bytes += size;
    }
    if (!hold(bytes)) return { content: '', bytes };
    const text = (m: Matrix) => {
      let t = texts.get(m) ?? fresh.get(m);
      if (t === undefined) t = render(m);
      texts.set(m, t);
      return t;
    };
    return { content: head + matrices.map(text).join(''), bytes };
  };
}

/**
 * The json list from its items' texts, each kept across builds like a text format's record (a rebuild after a
 * one-count change printed the whole list again, 5,000 items, for each release that holds the matrix: 42 ms
 * of the plan's 0.24 s of bulk files quiet, the only records it rendered that the cache held). The json format
 * prints a list as its body without the results, then the items joined by commas (formats/json.ts listJson):
 * null, and the list rendered whole, when the one-item and empty lists are not printed so.
 */
function jsonList(matrices: Matrix[], base: string, layout: Layout, context: FormatContext, kept: { cache: RecordCache; salt: string }): string | null {
  const empty = renderAll([], 'json', base, layout, context);
  const start = '{"count":0,';
  if (matrices.length === 0 || !empty.startsWith(start) || !empty.endsWith('[]}')) return null;
  const middle = empty.slice(start.length, -'[]}'.length);
  const head = (count: number) => `{"count":${count},${middle}[`;
  const items: string[] = [];
  for (const m of matrices) {
    const key = `${kept.salt} json ${matrixDigest(m)}`;
    let item = kept.cache.get(key);
    if (item === undefined) {
      const one = renderAll([m], 'json', base, layout, context);
      if (!one.startsWith(head(1)) || !one.endsWith(']}')) return null;
      item = flat(one.slice(head(1).length, -2));
    }
    kept.cache.set(key, item);
    items.push(item);
  }
  return `${head(matrices.length)}${items.join(',')}]}`;
}

/**
 * Every bulk file, rendered one at a time (a caller that streams holds one at a time). known: the size
 * of a file a previous build wrote with this key, which is then not rendered (a rebuild after a
 * one-matrix change renders the files that hold the matrix, not the forty others). hold(bytes): whether
 * the caller keeps the content of a file of that size (asked once a file, in order); a file not held
 * has its size and an empty content.
 */
export function* bulkFiles(release: Release, base: string, layout: Layout, context: FormatContext, known: (path: string, key: string) => number | undefined = () => undefined, cache?: RecordCache, hold: (bytes: number) => boolean = () => true): Generator<BulkFile> {
  const year = release.info.year;
  // The release description as the formats print it (the notes on the other releases are the home page's).
  const { siteNotes: _notes, ...info } = release.info;
  const salt = `${base}\n${JSON.stringify(layout)}\n${JSON.stringify(info)}`;
  // The records' digests hashed once a list of records, not once a format: the whole list is five files, each bundle
  // three (about 17 digests a record, 33 characters each, joined and hashed in plain JavaScript).
  const hashed = new Map<Matrix[], string>();
  const file = (path: string, format: FormatId, matrices: Matrix[], bundle?: BundleSet): BulkFile => {
    let records = hashed.get(matrices);
    if (records === undefined) hashed.set(matrices, (records = hash128(digestsOf(matrices))));
    const key = `${format} ${hash128(`${salt}\n${format}\n${records}`)}`;
    const size = known(path, key);
    const { content, bytes } = size === undefined ? render(format, matrices) : { content: '', bytes: size };
    return { path, content, rendered: size === undefined, key, render: again(format, matrices), pieces: piecesAgain(format, matrices), bytes, matrices: matrices.length, format, ...(bundle ? { bundle } : {}) };
  };
  const ordered = listOrder(release.matrices);
  const joiners = new Map<FormatId, (matrices: Matrix[], hold: (bytes: number) => boolean) => Joined>();
  const kept = cache && { cache, salt: hash128(salt) };
  const render = (format: FormatId, matrices: Matrix[]): Joined => {
    if (format === 'json') {
      const content = (kept && jsonList(matrices, base, layout, context, kept)) ?? renderAll(matrices, format, base, layout, context);
      const bytes = Buffer.byteLength(content);
      return { content: hold(bytes) ? content : '', bytes };
    }
    if (!joiners.has(format)) joiners.set(format, recordJoiner(format, base, layout, context, kept));
    return joiners.get(format)!(matrices, hold);
  };
  // Without the shared record texts, for rendering again when the file is written (memory stays one file's
  // worth), nor the records kept across builds: those are let go once the plan is made (build.ts planKept),
  // and a record set there after was held with the plan (about 45 MB for the 3x synthetic release) and gave nothing.
  const again = (format: FormatId, matrices: Matrix[]) => () => (format === 'json' ? renderAll(matrices, format, base, layout, context) : recordJoiner(format, base, layout, context)(matrices, () => true).content);
  const piecesAgain = (format: FormatId, matrices: Matrix[]) => (): Iterable<string> => (format === 'json' ? [renderAll(matrices, format, base, layout, context)] : recordPieces(format, matrices, base, layout, context));
  try {
    for (const { format, suffix } of LIST_FILES) yield file(allMatricesPath(year, suffix), format, ordered);
    for (const bundle of bundleSets(release)) {
      for (const format of BUNDLE_FORMATS) yield file(bundlePath(year, bundle.collection, bundle.set, format), format, bundle.matrices, bundle);
    }
  } finally {
    // The held files' record texts are in the scope of every file's render(), which the plan keeps
    // until the file is written: dropped once every file is listed.
    joiners.clear();
  }
}
