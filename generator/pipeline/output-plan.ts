// The output plan (OutputPlan): every output path of the site, with either
// its content (small or whole-release files: rules, search index, bulk
// downloads) or a task that renders it later, on any thread (every planned
// resource in its formats, every logo). Paths are claimed when planned, so clashes, escapes and
// oversized folders fail before anything is rendered or written. (plan/
// says which resources the site holds; this file, which files they become.)
import { posix } from 'node:path';
import { DatasetError, type Problem } from '../dataset/diagnostics.ts';
import type { Matrix, ReleaseInfo } from '../dataset/types.ts';
import type { FormatId } from '../formats/registry.ts';
import { formatsOf, type PlannedResource } from '../plan/resources.ts';
import { MAX_DIR_ENTRIES, type Layout } from '../routes/shard.ts';
import { logoPath, outputPath } from '../routes/urls.ts';
import { formatContext, renderTask, resolveTask } from './render.ts';

export type Content = string | Buffer;

/**
 * Content handed to the writer piece by piece as it is rendered (write/files.ts): a bulk file of a large
 * release is tens of MB of thousands of records, and whole it was held three times over while written
 * (the pieces, the joined text, its Buffer). Rendered again each time it is asked for. A plain object
 * (mirror/downloads.ts makes them, below this folder).
 */
export interface StreamedContent {
  pieces(): Iterable<string>;
}

export const isStreamed = (content: unknown): content is StreamedContent =>
  typeof content === 'object' && content !== null && !Buffer.isBuffer(content) && typeof (content as StreamedContent).pieces === 'function';

/** Content rendered when the file is written (and again each time a reader asks): large files the plan should not hold. */
export type LazyContent = (() => Content) | StreamedContent;

/** What the writer is handed for a file: its bytes, or their pieces. */
export type WriteContent = Content | StreamedContent;

/** A lazy content's bytes, whole. */
const whole = (content: Content | LazyContent): Content => (isStreamed(content) ? [...content.pieces()].join('') : typeof content === 'function' ? content() : content);

/** A lazy content as the writer takes it: a function called, pieces left as they are. */
export const forWriter = (content: Content | LazyContent): WriteContent => (typeof content === 'function' ? content() : content);

/**
 * A whole-release file (a bulk download) with a key, as tasks have: what its bytes are made from (its
 * records' digests, the format, the release description, the site's base and layout), so that a
 * rebuild whose previous build wrote the file with this key neither renders nor compares it (the key
 * is salted with the generator's sources in pipeline/schedule.ts fileKey).
 */
export class KeyedContent {
  constructor(readonly key: string, readonly content: Content | LazyContent) {}
  resolve(): Content {
    return whole(this.content);
  }
}

/** Work described by data, so that a worker thread can do it (see wire.ts). */
export type Task =
  | { kind: 'resource'; paths: string[]; planned: PlannedResource; formats: readonly FormatId[]; part: number }
  | { kind: 'logo'; paths: [string]; matrix: Matrix };

/** What the formats need to render a part of the site: its release and folder layout (formatContext). */
export interface PlanPart {
  release: ReleaseInfo;
  layout: Layout;
}

/** Where a part of the site is planned: one release's files, under a folder of the output (prefix "" or "releases/2026/"). */
export interface PlanTarget {
  /** Where the target's files lie in the output ("" or "releases/2026/"). */
  readonly prefix: string;
  add(relPath: string, content: Content | LazyContent | KeyedContent): void;
  addResource(planned: PlannedResource): void;
  addLogo(matrix: Matrix): void;
  /** Whether a file is planned (relative to the target's folder). */
  has(relPath: string): boolean;
}

/** A planned file whose content a task renders: the task's index and the file's position among its paths, in one
 *  number (a small integer, no object: a 10x release plans 1.45 million of them). */
const DEFERRED_SLOTS = 16;
const deferred = (task: number, index: number) => task * DEFERRED_SLOTS + index;

/**
 * Lower-case spelling → the first path spelt so. Keyed by a 32-bit hash of
 * the lower-case spelling, with the path itself as the value (the string the
 * plan keys its files by): no second, lower-case copy of every path (a 10x
 * release plans 1.45 million, about 80 bytes each). Two spellings with one
 * hash are told apart by lower-casing the one kept; the rare second goes to
 * a map by its full text.
 */
class Spellings {
  private readonly byHash = new Map<number, string>([[fnv1a(''), '']]);
  private readonly byText = new Map<string, string>();

  get(lower: string): string | undefined {
    const first = this.byHash.get(fnv1a(lower));
    if (first === undefined) return undefined;
    return first.toLowerCase() === lower ? first : this.byText.get(lower);
  }

  /** Records the spelling of a lower-case path not recorded yet. */
  set(lower: string, path: string): void {
    const hash = fnv1a(lower);
    if (this.byHash.has(hash)) this.byText.set(lower, path);
    else this.byHash.set(hash, path);
  }

  /** get, then set when there was none: the first path spelt so (undefined when this is the first), hashing once. */
  claim(lower: string, path: string): string | undefined {
    const hash = fnv1a(lower);
    const first = this.byHash.get(hash);
    if (first === undefined) {
      this.byHash.set(hash, path);
      return undefined;
    }
    if (first.toLowerCase() === lower) return first;
    const earlier = this.byText.get(lower);
    if (earlier === undefined) this.byText.set(lower, path);
    return earlier;
  }
}

/** What posix.normalize leaves as it is, relative and inside: no empty, "." or ".." segment (0.3 s less than normalize over a 285,000-path plan). */
function cleanRelative(p: string): boolean {
  if (p === '' || p.charCodeAt(0) === 47 || p.charCodeAt(p.length - 1) === 47 || p.includes('//')) return false;
  if (p.charCodeAt(0) === 46 && (p.length === 1 || p.charCodeAt(1) === 47 || (p.charCodeAt(1) === 46 && (p.length === 2 || p.charCodeAt(2) === 47)))) return false;
  return !p.includes('/.') || !/\/\.\.?(\/|$)/.test(p);
}

/** FNV-1a over the UTF-16 code units, as a small integer (a Map key without a heap number). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** What a file planned with its content holds once handed to the writer (PlannedFiles.handOut). */
const HANDED: unique symbol = Symbol('handed to the writer');

/**
 * path → content, for readers of a plan (tests, checks): a task's outputs are
 * rendered on this thread when asked for. The build itself never asks; it
 * hands the tasks to its workers.
 */
export class PlannedFiles extends Map<string, Content> {
  private last: { task: number; contents: Content[] } | null = null;
  constructor(private readonly owner: OutputPlan) {
    super();
  }

  /** The planned content, or the task index and position that renders it. */
  raw(path: string): Content | LazyContent | KeyedContent | { task: number; index: number } | undefined {
    const value = super.get(path) as Content | LazyContent | KeyedContent | number | typeof HANDED | undefined;
    if (value === HANDED) throw new Error(`${path} was already handed to the writer`);
    return typeof value === 'number' ? { task: Math.floor(value / DEFERRED_SLOTS), index: value % DEFERRED_SLOTS } : value;
  }

  /** A file planned with its content, let go by the plan as the writer takes it (as tasks are): the bulk files
   *  held (up to 64 MB a release, mirror/downloads.ts) were held through the render otherwise. */
  handOut(path: string): Content | LazyContent | KeyedContent {
    const value = this.raw(path);
    if (value === undefined || (typeof value === 'object' && 'task' in value)) throw new Error(`${path} is not planned with its content`);
    super.set(path, HANDED as unknown as Content);
    return value;
  }

  /** Bytes of the files planned with their content and not handed out yet (lazy ones are counted when written). */
  contentBytes(): number {
    let total = 0;
    super.forEach((value) => {
      const c = value instanceof KeyedContent ? value.content : value;
      if (typeof c === 'string') total += Buffer.byteLength(c);
      else if (Buffer.isBuffer(c)) total += c.length;
    });
    return total;
  }

  /** The paths planned with their content (or a function or key that gives it), not by a task, in plan order:
   *  one pass over the stored values (raw() for each of the shipped site's 285,000 paths was 0.3 s). */
  withContent(): string[] {
    const paths: string[] = [];
    super.forEach((value, path) => {
      if (typeof value !== 'number') paths.push(path);
    });
    return paths;
  }

  override get(path: string): Content | undefined {
    const value = super.get(path) as Content | LazyContent | KeyedContent | number | typeof HANDED | undefined;
    if (value === HANDED) throw new Error(`${path} was already handed to the writer`);
    if (typeof value === 'function' || isStreamed(value)) return whole(value);
    if (value instanceof KeyedContent) return value.resolve();
    if (typeof value !== 'number') return value;
    const task = Math.floor(value / DEFERRED_SLOTS);
    if (this.last?.task !== task) this.last = { task, contents: this.owner.renderHere(task) };
    return this.last.contents[value % DEFERRED_SLOTS];
  }

  override *entries(): MapIterator<[string, Content]> {
    for (const path of this.keys()) yield [path, this.get(path)!];
  }

  override [Symbol.iterator](): MapIterator<[string, Content]> {
    return this.entries();
  }

  override *values(): MapIterator<Content> {
    for (const path of this.keys()) yield this.get(path)!;
  }

  override forEach(fn: (value: Content, key: string, map: Map<string, Content>) => void, self?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(self, v, k, this);
  }
}

export class OutputPlan {
  readonly files: PlannedFiles = new PlannedFiles(this);
  /** Rendering tasks; the writer drops each (null) once it is handed out. */
  readonly tasks: (Task | null)[] = [];
  /** Folders the planned files need, with how many entries each will hold ("" is the root). */
  private readonly entries = new Map<string, number>([['', 0]]);
  private readonly folders = new Set<string>(['']);
  /** Every planned file and folder by its lower-case spelling: paths that differ only in case are one on macOS and Windows and in archives unpacked there. */
  private readonly spellings = new Spellings();
  /** The folder of the last path spelt, and whether its spelling is the first of its lower-case form (a task's
   *  paths share a folder: asked once for them; no map of every folder, which a 10x release has 420,000 of). */
  private lastFolder: { folder: string; first: boolean } | null = null;
  private readonly caseClashes: [string, string][] = [];

  /** The releases the site's resources are rendered for: the first is the plan's own (release, layout);
   *  a site with several releases adds one per release (part()). */
  readonly parts: PlanPart[] = [];

  /** release: what the formats print about the release (needed for resources); layout: the site's folder
   *  layout (routes/shard.ts), where logos lie and what pages link (needed for resources and logos). */
  constructor(readonly release?: ReleaseInfo, readonly layout?: Layout) {
    if (release && layout) this.parts.push({ release, layout });
  }

  /** This plan as a target: the plan's own release at the root of the output. */
  get root(): PlanTarget {
    return this.part('', this.release!, this.layout!);
  }

  /**
   * Another release's part of the site: its files under `prefix` ("releases/2026/", or "" for files at
   * the root rendered with another release's description), its resources rendered with its own
   * description and layout. Logos lie in the site's layout under the prefix.
   */
  part(prefix: string, release: ReleaseInfo, layout: Layout): PlanTarget {
    if (prefix !== '' && !/^[a-z0-9_-]+(\/[a-z0-9_-]+)*\/$/.test(prefix)) throw new Error(`part prefix "${prefix}" is not a relative folder path ending in "/"`);
    let index = this.parts.findIndex((p) => p.release === release && p.layout === layout);
    if (index < 0) index = this.parts.push({ release, layout }) - 1;
    return {
      prefix,
      add: (relPath, content) => this.add(`${prefix}${relPath}`, content),
      addResource: (planned) => {
        const formats = formatsOf(planned);
        this.addTask({ kind: 'resource', paths: formats.map((f) => `${prefix}${outputPath(planned.dir, f)}`), planned, formats, part: index });
      },
      addLogo: (matrix) => this.addTask({ kind: 'logo', paths: [`${prefix}${logoPath(layout, matrix.matrixId).slice(1)}`], matrix }),
      has: (relPath) => this.files.has(`${prefix}${relPath}`),
    };
  }

  /** Plans a file with its content; relative path with "/" separators. Refuses clashes and escapes. */
  add(relPath: string, content: Content | LazyContent | KeyedContent): void {
    this.claim(relPath);
    (this.files as Map<string, unknown>).set(relPath, content);
  }

  /** Plans a resource in each of its formats (formatsOf), rendered later by a worker. */
  addResource(planned: PlannedResource): void {
    if (!this.release || !this.layout) throw new Error('an OutputPlan needs the release description and the site\'s layout to plan resources (new OutputPlan(release, layout))');
    this.root.addResource(planned);
  }

  /** Plans a matrix's logo, rendered later by a worker. */
  addLogo(matrix: Matrix): void {
    if (!this.layout) throw new Error('an OutputPlan needs the site\'s layout to plan logos (new OutputPlan(release, layout))');
    this.addTask({ kind: 'logo', paths: [logoPath(this.layout, matrix.matrixId).slice(1)], matrix });
  }

  private addTask(task: Task): void {
    const index = this.tasks.length;
    if (task.paths.length > DEFERRED_SLOTS) throw new Error(`a task renders at most ${DEFERRED_SLOTS} files (${task.paths[0]}: ${task.paths.length})`);
    task.paths.forEach((p) => this.claim(p));
    this.tasks.push(task);
    task.paths.forEach((p, i) => (this.files as Map<string, unknown>).set(p, deferred(index, i)));
  }

  /** Renders a task on this thread (for readers of the plan). */
  renderHere(index: number): Content[] {
    const task = this.tasks[index];
    if (!task) throw new Error(`task ${index} was already handed to the writer`);
    return renderTask(resolveTask(task), this.parts.map((p) => formatContext(p.release, p.layout)));
  }

  private claim(relPath: string): void {
    if (!cleanRelative(relPath) && (posix.normalize(relPath) !== relPath || relPath.startsWith('../') || relPath.startsWith('/') || relPath === '..' || relPath === '.')) {
      throw new Error(`output path "${relPath}" is not a clean relative path inside the output folder`);
    }
    if (this.files.has(relPath)) throw new Error(`two resources map to the same output file ${relPath}`);
    if (this.folders.has(relPath)) throw new Error(`output file ${relPath} would replace a folder of other outputs`);
    const cut = relPath.lastIndexOf('/');
    const parent = cut < 0 ? '' : relPath.slice(0, cut);
    if (!this.folders.has(parent)) {
      // A new folder: check each ancestor once and count it in its own parent.
      const parts = relPath.split('/');
      let above = '';
      for (let i = 0; i < parts.length - 1; i++) {
        const folder = i === 0 ? parts[0] : `${above}/${parts[i]}`;
        if (this.files.has(folder)) throw new Error(`output file ${relPath} needs ${folder} to be a folder, but it is an output file`);
        if (!this.folders.has(folder)) {
          this.spell(folder);
          this.folders.add(folder);
          this.entries.set(folder, 0);
          this.entries.set(above, this.entries.get(above)! + 1);
        }
        above = folder;
      }
    }
    this.entries.set(parent, this.entries.get(parent)! + 1);
    this.spell(relPath);
  }

  /** Records a new file or folder's spelling; a clash is reported for the top-most path only (what lies under it clashes too). */
  private spell(relPath: string): void {
    const cut = relPath.lastIndexOf('/');
    if (cut > 0) {
      // The same answer for every entry of a folder (a folder's first spelling never changes).
      const parent = relPath.slice(0, cut);
      if (this.lastFolder?.folder !== parent) this.lastFolder = { folder: parent, first: this.spellings.get(parent.toLowerCase()) === parent };
      if (!this.lastFolder.first) return;
    }
    const earlier = this.spellings.claim(relPath.toLowerCase(), relPath);
    if (earlier !== undefined && earlier !== relPath) this.caseClashes.push([earlier, relPath]);
  }

  /**
   * Throws a DatasetError listing every pair of planned paths that differ
   * only in case, with the values that differ (sourceOf: where the release
   * uses a value, e.g. "collection of MA0004.1 (matrices.csv)").
   */
  checkCaseClashes(sourceOf: (value: string) => string | null = () => null): void {
    if (this.caseClashes.length === 0) return;
    const problems: Problem[] = this.caseClashes.map(([first, second]) => {
      const a = first.split('/');
      const b = second.split('/');
      const i = a.findIndex((segment, j) => segment !== b[j]);
      const values = [a[i], b[i]].map((v) => {
        const source = sourceOf(v);
        return `"${v}"${source ? ` (${source})` : ''}`;
      });
      return {
        file: second,
        line: 0,
        message: `output path differs only in case from ${first}: ${values.join(' and ')} name the same file on case-insensitive file systems (macOS, Windows) and in the archive unpacked there`,
        fix: `spell the value one way throughout the release`,
      };
    });
    throw new DatasetError(problems);
  }

  /** Every folder the planned files need ("" is the root). */
  folderList(): string[] {
    return [...this.folders];
  }

  /** Throws when a folder would hold more entries than a host accepts. */
  checkFolderSizes(limit = MAX_DIR_ENTRIES): void {
    for (const [dir, count] of this.entries) {
      if (count > limit) throw new Error(`folder "${dir || '.'}" would hold ${count} entries; Netlify accepts at most ${limit}`);
    }
  }

  /** Bytes of the files planned with their content (rendered and lazy files are counted when written). */
  get bytes(): number {
    return this.files.contentBytes();
  }

}
