// The output plan (OutputPlan): every output path of the site, with either
// its content (small or whole-release files: rules, search index, bulk
// downloads) or a task that renders it later, on any thread (every planned
// resource in its formats, every logo). Paths are claimed when planned, so clashes, escapes and
// oversized folders fail before anything is rendered or written. (plan/
// says which resources the site holds; this file, which files they become.)
import { posix } from 'node:path';
import { DatasetError, type Problem } from '../dataset/diagnostics.ts';
import type { Matrix, ReleaseInfo } from '../dataset/types.ts';
import { fnv1a } from '../dataset/digest.ts';
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

/**
 * Work described by data, so that a worker thread can do it (see wire.ts). A task's paths are spelt when
 * asked for (paths, pathAt), from what it holds anyway: the 10x synthetic release's 1.45 million paths,
 * about 90 bytes each, were 130 MB of the plan's heap held from the plan to the end of the render.
 */
export type Task = ResourceTask | LogoTask;

/** A resource in its formats (formatsOf), its files in its folder under the part's prefix. */
class ResourceTask {
  readonly kind = 'resource' as const;
  constructor(readonly prefix: string, readonly planned: PlannedResource, readonly formats: readonly FormatId[], readonly part: number) {}
  get paths(): string[] {
    return this.formats.map((_, i) => this.pathAt(i));
  }
  pathAt(i: number): string {
    return `${this.prefix}${outputPath(this.planned.dir, this.formats[i])}`;
  }
}

/** A matrix's logo, in the site's layout under the part's prefix. */
class LogoTask {
  readonly kind = 'logo' as const;
  constructor(readonly prefix: string, private readonly layout: Layout, readonly matrix: Matrix) {}
  get paths(): [string] {
    return [this.pathAt()];
  }
  pathAt(): string {
    return `${this.prefix}${logoPath(this.layout, this.matrix.matrixId).slice(1)}`;
  }
}

/**
 * Whether a plan holds a task as it is planned (pipeline/kept-plan.ts: a rebuild leaves out the tasks the
 * previous build rendered with the key they would have now). part: the index of the task's part (plan.parts).
 */
export interface TaskFilter {
  take(task: Task, part: number): boolean;
}

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
 * Who holds a planned file's path, as one number: a task's file (deferred(), even) or the
 * j-th file planned with its content (odd). The plan keeps the path only where its owner
 * does (the task's paths, the list of content files): no path in a table of its own.
 */
const taskOwner = (task: number, index: number) => deferred(task, index) * 2;
const contentOwner = (j: number) => j * 2 + 1;

/**
 * A set of names (paths, folders, their lower-case spellings) as numbers in
 * typed arrays: each name's 32-bit hash and a number its owner spells it by
 * (spell), in open addressing. Neither the names nor a Map entry for each
 * is kept: a 10x release plans 1.45 million paths in 420,000 folders, whose
 * Maps and Sets (files, folders, spellings) were about 250 MB of the plan's
 * heap, and held every path until the build ended. A name whose owner no
 * longer spells it (a task handed to the writer) is not found again.
 */
class NameTable {
  /** owner + 1 for each slot (0: empty), and the hash of the name there. */
  private slots = new Int32Array(1 << 10);
  private hashes = new Int32Array(1 << 10);
  private count = 0;

  /** spell: the name an owner stands for (undefined once it is gone); same: whether that is the name looked for. */
  constructor(private readonly spell: (owner: number) => string | undefined) {}

  /** The owner of the name, or -1. folded: a spelling is the name's when their lower-case forms are equal (else: when they are
   *  equal), compared only on a hash match (no function made a call: a plan makes about five lookups a path). */
  find(name: string, hash: number, folded = false): number {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    let lower: string | undefined;
    for (let i = hash & mask; slots[i] !== 0; i = (i + 1) & mask) {
      if (hashes[i] !== hash) continue;
      const spelt = this.spell(slots[i] - 1);
      if (spelt === undefined) continue;
      if (folded ? spelt.toLowerCase() === (lower ??= name.toLowerCase()) : spelt === name) return slots[i] - 1;
    }
    return -1;
  }

  /** The owner of the name that is text's first `length` characters, or -1 (the folder of a path, found without slicing it: a claim a path). */
  findPrefix(text: string, length: number, hash: number): number {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    for (let i = hash & mask; slots[i] !== 0; i = (i + 1) & mask) {
      if (hashes[i] !== hash) continue;
      const spelt = this.spell(slots[i] - 1);
      if (spelt !== undefined && spelt.length === length && text.startsWith(spelt)) return slots[i] - 1;
    }
    return -1;
  }

  /** Adds a name not in the table yet (find first). */
  insert(hash: number, owner: number): void {
    // At most three slots in four taken: linear probes stay short.
    if ((this.count + 1) * 4 > this.slots.length * 3) this.grow();
    this.place(hash, owner + 1);
    this.count++;
  }

  private place(hash: number, slot: number): void {
    const mask = this.slots.length - 1;
    let i = hash & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = slot;
    this.hashes[i] = hash;
  }

  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2);
    this.hashes = new Int32Array(slots.length * 2);
    for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) this.place(hashes[i], slots[i]);
  }
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The hash of a name's lower-case spelling (the case-clash table's; any other way would do, the same throughout a plan):
 *  fnv1a of its ASCII letters lowered, without the lower-case string made, or of toLowerCase() when it has other characters. */
function lowerHash(name: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 127) return fnv1a(name.toLowerCase());
    hash = Math.imul(hash ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
  }
  return hash;
}

/** What posix.normalize leaves as it is, relative and inside: no empty, "." or ".." segment (0.3 s less than normalize over a 285,000-path plan). */
function cleanRelative(p: string): boolean {
  if (p === '' || p.charCodeAt(0) === 47 || p.charCodeAt(p.length - 1) === 47 || p.includes('//')) return false;
  if (p.charCodeAt(0) === 46 && (p.length === 1 || p.charCodeAt(1) === 47 || (p.charCodeAt(1) === 46 && (p.length === 2 || p.charCodeAt(2) === 47)))) return false;
  return !p.includes('/.') || !/\/\.\.?(\/|$)/.test(p);
}

/** What a file planned with its content holds once handed to the writer (PlannedFiles.handOut). */
const HANDED: unique symbol = Symbol('handed to the writer');

type Planned = Content | LazyContent | KeyedContent;

/**
 * path → content, for readers of a plan (tests, checks): a task's outputs are
 * rendered on this thread when asked for. The build itself never asks; it
 * hands the tasks to its workers. The paths are the owners' (the tasks', and
 * this list's for files planned with their content), found through a NameTable.
 */
export class PlannedFiles {
  private last: { task: number; contents: Content[] } | null = null;
  /** The files planned with their content, in plan order: path and content (HANDED once the writer took it). */
  private readonly contentPaths: string[] = [];
  private readonly contents: (Planned | typeof HANDED)[] = [];
  /** Every planned file's owner, in plan order (keys()). */
  private order = new Int32Array(1 << 10);
  private count = 0;
  private readonly table = new NameTable((owner) => this.pathOf(owner));

  constructor(private readonly owner: OutputPlan) {}

  /** The path an owner number stands for; undefined for a task handed to the writer. */
  pathOf(owner: number): string | undefined {
    if (owner % 2 === 1) return this.contentPaths[(owner - 1) / 2];
    const d = owner / 2;
    return this.owner.tasks[Math.floor(d / DEFERRED_SLOTS)]?.pathAt(d % DEFERRED_SLOTS);
  }

  /** The owner of a planned path, or -1 (hash: fnv1a of the path, when the caller has it). */
  ownerOf(path: string, hash = fnv1a(path)): number {
    return this.table.find(path, hash);
  }

  /** Plans a path not planned yet (the plan claimed it) for its owner. */
  plan(path: string, owner: number, hash: number): void {
    this.table.insert(hash, owner);
    if (this.count === this.order.length) {
      const grown = new Int32Array(this.order.length * 2);
      grown.set(this.order);
      this.order = grown;
    }
    this.order[this.count++] = owner;
  }

  /** Keeps a file's path and content, for the plan to claim the path (plan()); returns the file's owner number. */
  addContent(path: string, content: Planned): number {
    this.contents.push(content);
    return contentOwner(this.contentPaths.push(path) - 1);
  }

  /** Forgets the last file kept by addContent (its path was refused). */
  dropLastContent(): void {
    this.contentPaths.pop();
    this.contents.pop();
  }

  get size(): number {
    return this.count;
  }

  has(path: string): boolean {
    return this.ownerOf(path) >= 0;
  }

  /** The planned content, or the task index and position that renders it. */
  raw(path: string): Planned | { task: number; index: number } | undefined {
    const owner = this.ownerOf(path);
    if (owner < 0) return undefined;
    if (owner % 2 === 0) return { task: Math.floor(owner / 2 / DEFERRED_SLOTS), index: (owner / 2) % DEFERRED_SLOTS };
    const value = this.contents[(owner - 1) / 2];
    if (value === HANDED) throw new Error(`${path} was already handed to the writer`);
    return value;
  }

  /** A file planned with its content, let go by the plan as the writer takes it (as tasks are): the bulk files
   *  held (up to 64 MB a release, mirror/downloads.ts) were held through the render otherwise. */
  handOut(path: string): Planned {
    const value = this.raw(path);
    if (value === undefined || (typeof value === 'object' && 'task' in value)) throw new Error(`${path} is not planned with its content`);
    this.contents[(this.ownerOf(path) - 1) / 2] = HANDED;
    return value;
  }

  /** Bytes of the files planned with their content and not handed out yet (lazy ones are counted when written). */
  contentBytes(): number {
    let total = 0;
    for (const value of this.contents) {
      const c = value instanceof KeyedContent ? value.content : value;
      if (typeof c === 'string') total += Buffer.byteLength(c);
      else if (Buffer.isBuffer(c)) total += c.length;
    }
    return total;
  }

  /** The paths planned with their content (or a function or key that gives it), not by a task, in plan order. */
  withContent(): string[] {
    return [...this.contentPaths];
  }

  get(path: string): Content | undefined {
    const value = this.raw(path);
    if (value === undefined) return undefined;
    if (typeof value === 'function' || isStreamed(value)) return whole(value);
    if (value instanceof KeyedContent) return value.resolve();
    if (typeof value === 'object' && 'task' in value) {
      if (this.last?.task !== value.task) this.last = { task: value.task, contents: this.owner.renderHere(value.task) };
      return this.last.contents[value.index];
    }
    return value;
  }

  /** Every planned path, in plan order (a task handed to the writer no longer has its paths: they cannot be listed then). */
  *keys(): Generator<string> {
    for (let i = 0; i < this.count; i++) {
      const path = this.pathOf(this.order[i]);
      if (path === undefined) throw new Error(`task ${Math.floor(this.order[i] / 2 / DEFERRED_SLOTS)} was already handed to the writer`);
      yield path;
    }
  }

  *entries(): Generator<[string, Content]> {
    for (const path of this.keys()) yield [path, this.get(path)!];
  }

  [Symbol.iterator](): Generator<[string, Content]> {
    return this.entries();
  }

  *values(): Generator<Content> {
    for (const path of this.keys()) yield this.get(path)!;
  }

  forEach(fn: (value: Content, key: string) => void): void {
    for (const [k, v] of this.entries()) fn(v, k);
  }
}

export class OutputPlan {
  readonly files: PlannedFiles = new PlannedFiles(this);
  /** Rendering tasks; the writer drops each (null) once it is handed out. */
  readonly tasks: (Task | null)[] = [];
  /** Folders the planned files need ("" is the root, 0), found by their number in a NameTable, with how many entries each will hold. */
  private readonly folders: string[] = [''];
  private readonly folderTable = new NameTable((k) => this.folders[k]);
  private folderEntries = new Int32Array(1 << 10);
  /** Every planned file and folder by its lower-case spelling: paths that differ only in case are one on macOS and Windows and
   *  in archives unpacked there. A name is a file's owner (output-plan's owner numbers) times two, or a folder's number times two plus one. */
  private readonly spellings = new NameTable((name) => this.nameOf(name));
  /** Each folder's: 1 when its spelling is the first of its lower-case form and so is each folder above it (a clash is
   *  reported for the top-most path only: what lies under it clashes too). The root is. */
  private folderFirst = new Uint8Array(1 << 10);
  private readonly caseClashes: [string, string][] = [];

  /** Decides whether each task is planned; those it refuses are held, unclaimed, in leftOut (every task is planned when null). */
  filter: TaskFilter | null = null;
  private leftOut: Task[] = [];

  /** The releases the site's resources are rendered for: the first is the plan's own (release, layout);
   *  a site with several releases adds one per release (part()). */
  readonly parts: PlanPart[] = [];

  /** release: what the formats print about the release (needed for resources); layout: the site's folder
   *  layout (routes/shard.ts), where logos lie and what pages link (needed for resources and logos). */
  constructor(readonly release?: ReleaseInfo, readonly layout?: Layout) {
    this.folderTable.insert(fnv1a(''), 0);
    this.spellings.insert(lowerHash(''), 1);
    this.folderFirst[0] = 1;
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
      addResource: (planned) => this.offer(new ResourceTask(prefix, planned, formatsOf(planned), index), index),
      addLogo: (matrix) => this.offer(new LogoTask(prefix, layout, matrix), index),
      has: (relPath) => this.files.has(`${prefix}${relPath}`),
    };
  }

  /** Plans a file with its content; relative path with "/" separators. Refuses clashes and escapes. */
  add(relPath: string, content: Content | LazyContent | KeyedContent): void {
    const owner = this.files.addContent(relPath, content);
    try {
      this.claim(relPath, owner);
    } catch (e) {
      this.files.dropLastContent();
      throw e;
    }
  }

  /** Plans a resource in each of its formats (formatsOf), rendered later by a worker. */
  addResource(planned: PlannedResource): void {
    if (!this.release || !this.layout) throw new Error('an OutputPlan needs the release description and the site\'s layout to plan resources (new OutputPlan(release, layout))');
    this.root.addResource(planned);
  }

  /** Plans a matrix's logo, rendered later by a worker. */
  addLogo(matrix: Matrix): void {
    if (!this.layout) throw new Error('an OutputPlan needs the site\'s layout to plan logos (new OutputPlan(release, layout))');
    this.addTask(new LogoTask('', this.layout, matrix));
  }

  /** A task planned, or held aside when the filter refuses it. */
  private offer(task: Task, part: number): void {
    if (this.filter && !this.filter.take(task, part)) this.leftOut.push(task);
    else this.addTask(task);
  }

  /** How many tasks the filter left out. */
  get leftOutCount(): number {
    return this.leftOut.length;
  }

  /** Plans the tasks the filter left out (their paths claimed now: the plan is then what it is without a filter, in
   *  another order of tasks), and takes no filter from now on. */
  planLeftOut(): void {
    this.filter = null;
    for (const task of this.leftOut.splice(0)) this.addTask(task);
  }

  private addTask(task: Task): void {
    const index = this.tasks.length;
    const paths = task.paths;
    if (paths.length > DEFERRED_SLOTS) throw new Error(`a task renders at most ${DEFERRED_SLOTS} files (${paths[0]}: ${paths.length})`);
    // In the list first: its paths are spelt by it (PlannedFiles.pathOf) from the first claimed.
    this.tasks.push(task);
    paths.forEach((p, i) => this.claim(p, taskOwner(index, i)));
  }

  /** Renders a task on this thread (for readers of the plan). */
  renderHere(index: number): Content[] {
    const task = this.tasks[index];
    if (!task) throw new Error(`task ${index} was already handed to the writer`);
    return renderTask(resolveTask(task), this.parts.map((p) => formatContext(p.release, p.layout)));
  }

  /** Claims a path for its owner (a task's file or a file planned with its content) and plans it. */
  private claim(relPath: string, owner: number): void {
    if (!cleanRelative(relPath) && (posix.normalize(relPath) !== relPath || relPath.startsWith('../') || relPath.startsWith('/') || relPath === '..' || relPath === '.')) {
      throw new Error(`output path "${relPath}" is not a clean relative path inside the output folder`);
    }
    // One pass over the path: its hash (fnv1a), its folder's (FNV-1a runs from the start: the folder's is the
    // path's at its last "/") and its lower-case spelling's (lowerHash). Hashed apart, with the folder and the
    // lower-case spelling made as strings, a path took about five passes and three strings: the claims of the
    // shipped site's 285,000 paths were 0.8 s of a rebuild's plan at load, and part of its garbage.
    let hash = FNV_OFFSET;
    let lower = FNV_OFFSET;
    let parentHash = FNV_OFFSET;
    let cut = -1;
    let ascii = true;
    for (let i = 0; i < relPath.length; i++) {
      const c = relPath.charCodeAt(i);
      if (c === 47) {
        parentHash = hash;
        cut = i;
      } else if (c > 127) ascii = false;
      hash = Math.imul(hash ^ c, FNV_PRIME);
      lower = Math.imul(lower ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
    }
    if (!ascii) lower = lowerHash(relPath);
    if (this.files.ownerOf(relPath, hash) >= 0) throw new Error(`two resources map to the same output file ${relPath}`);
    if (this.folderTable.find(relPath, hash) >= 0) throw new Error(`output file ${relPath} would replace a folder of other outputs`);
    let parent = cut < 0 ? 0 : this.folderTable.findPrefix(relPath, cut, parentHash);
    if (parent < 0) {
      // A new folder: check each ancestor once and count it in its own parent.
      const parts = relPath.split('/');
      let above = 0;
      let aboveName = '';
      for (let i = 0; i < parts.length - 1; i++) {
        const folder = i === 0 ? parts[0] : `${aboveName}/${parts[i]}`;
        const folderHash = fnv1a(folder);
        if (this.files.ownerOf(folder, folderHash) >= 0) throw new Error(`output file ${relPath} needs ${folder} to be a folder, but it is an output file`);
        let k = this.folderTable.find(folder, folderHash);
        if (k < 0) {
          k = this.addFolder(folder, folderHash);
          this.folderFirst[k] = this.folderFirst[above] === 1 && this.spell(folder, k * 2 + 1, lowerHash(folder)) ? 1 : 0;
          this.folderEntries[above]++;
        }
        above = k;
        aboveName = folder;
      }
      parent = above;
    }
    this.folderEntries[parent]++;
    if (this.folderFirst[parent] === 1) this.spell(relPath, owner * 2, lower);
    this.files.plan(relPath, owner, hash);
  }

  private addFolder(folder: string, hash: number): number {
    const k = this.folders.push(folder) - 1;
    this.folderTable.insert(hash, k);
    if (k === this.folderEntries.length) {
      const grown = new Int32Array(k * 2);
      grown.set(this.folderEntries);
      this.folderEntries = grown;
      const first = new Uint8Array(k * 2);
      first.set(this.folderFirst);
      this.folderFirst = first;
    }
    return k;
  }

  /** The path or folder a spelling's name stands for (spellings). */
  private nameOf(name: number): string | undefined {
    return name % 2 === 1 ? this.folders[(name - 1) / 2] : this.files.pathOf(name / 2);
  }

  /**
   * Records a new file or folder's spelling (name: see spellings; lower: its lowerHash), in a folder whose
   * spelling is first (folderFirst): true when it is the first of its lower-case form, else the clash is noted.
   */
  private spell(relPath: string, name: number, lower: number): boolean {
    const found = this.spellings.find(relPath, lower, true);
    if (found < 0) {
      this.spellings.insert(lower, name);
      return true;
    }
    const earlier = this.nameOf(found)!;
    if (earlier !== relPath) this.caseClashes.push([earlier, relPath]);
    return false;
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
    for (let k = 0; k < this.folders.length; k++) {
      const [dir, count] = [this.folders[k], this.folderEntries[k]];
      if (count > limit) throw new Error(`folder "${dir || '.'}" would hold ${count} entries; Netlify accepts at most ${limit}`);
    }
  }

  /** Bytes of the files planned with their content (rendered and lazy files are counted when written). */
  get bytes(): number {
    return this.files.contentBytes();
  }

}
