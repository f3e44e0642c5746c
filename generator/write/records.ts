// What the writer remembers of each file and folder of the site (the build
// state, state.ts), as columns: every folder and every file name spelt once,
// a file as the numbers of its folder and name, and sizes, ctimes, flags and
// mtimes in typed arrays. The 10x synthetic release has 1.45 million files
// in 420,000 folders, held from the first file written to the state saved:
// a Map of paths (each about 90 bytes spelt, with its entry) was about
// 200 MB of the heap through the render and the archives, with as much
// again for the folders the writer created, the tasks' keys and the folders'
// mtimes, each a Map or Set of paths of its own. Here a file takes about 40
// bytes; the site's 6,000 file names (index.json, index.html, …) and its
// folders are strings once. Read through three views shaped as the Maps
// they replace: files (path → FileRecord), keys (first path of a task → its
// key) and dirs (folder → mtime).

export interface FileRecord {
  size: number;
  ctimeMs: number;
  /** Written into the folder by a later step of the build (e.g. the mirror archive), not by the writer. */
  adopted: boolean;
}

/** A file slot's flag: no file (a task's key only, or a file forgotten), the writer's file, an adopted one. */
const NO_FILE = 0;
const OWN = 1;
const ADOPTED = 2;

/** Strings numbered in the order first seen, each held once. */
class Spellings {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.ids.set(s, i);
    }
    return i;
  }
  find(s: string): number | undefined {
    return this.ids.get(s);
  }
  /** Takes another's spellings, numbered as there (into an empty one). */
  copyFrom(other: Spellings): void {
    for (const s of other.list) this.list.push(s);
    for (const [s, i] of other.ids) this.ids.set(s, i);
  }
}

/** A copy of a typed array with room for n. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/**
 * The records behind the views. A file slot is found by its whole path's
 * hash (fnv1a, kept a slot) in open addressing (a table of slot numbers, no
 * strings), and checked against its folder and name where they are spelt:
 * nothing sliced, no Map looked up. Looked up by folder and name (the path
 * cut at its last "/", each part a Map lookup) it was 0.7 µs a path, about
 * 1.3 s of a one-count rebuild at load across reading the state, reusing
 * tasks and pruning (issue 22). Slots are never freed: a file forgotten
 * keeps its slot (and its task key), flagged as no file, and comes back to
 * it when set again.
 */
export class SiteRecords {
  readonly folders = new Spellings();
  private readonly names = new Spellings();
  // Files, by slot.
  private fileFolder = new Int32Array(1024);
  private fileName = new Int32Array(1024);
  private sizes = new Float64Array(1024);
  private ctimes = new Float64Array(1024);
  /** Each file's inode number (st_ino; 0: not known): the names one inode has (hard links, write/same-bytes.ts) share its ctime. */
  private inos = new Float64Array(1024);
  private flags = new Uint8Array(1024);
  private pathHashes = new Int32Array(1024);
  private keyOf: (string | undefined)[] = [];
  private slotCount = 0;
  private lastFolder = -1;
  private lastFolderText = '';
  fileCount = 0;
  keyCount = 0;
  /** slot + 1 by the hash of its path (pathHash); 0: empty. */
  private table = new Int32Array(2048);
  // Folders, by folder number: the mtime of each recorded one, and where it lies in the order they were recorded (-1: not recorded).
  private mtimes = new Float64Array(256);
  private dirAt = new Int32Array(256).fill(-1);
  /** Folder numbers in the order recorded (Map order: a folder recorded again after its removal goes last); -1 where one was removed. */
  private dirOrder = new Int32Array(256);
  private dirSlots = 0;
  dirCount = 0;
  private madeFlags = new Uint8Array(256);

  readonly files = new FileRecords(this);
  readonly keys = new KeyRecords(this);
  readonly dirs = new FolderRecords(this);

  /** A copy, with no folder flagged as made (a rebuild that keeps the previous build's files starts from it:
   *  pipeline/kept-plan.ts). Typed arrays copied whole: the shipped site's 285,000 files copied one by one
   *  (copyFile) were about 0.5 s of a rebuild. */
  clone(): SiteRecords {
    const c = new SiteRecords();
    c.folders.copyFrom(this.folders);
    c.names.copyFrom(this.names);
    c.fileFolder = this.fileFolder.slice();
    c.fileName = this.fileName.slice();
    c.sizes = this.sizes.slice();
    c.ctimes = this.ctimes.slice();
    c.inos = this.inos.slice();
    c.flags = this.flags.slice();
    c.pathHashes = this.pathHashes.slice();
    c.keyOf = this.keyOf.slice();
    c.slotCount = this.slotCount;
    c.fileCount = this.fileCount;
    c.keyCount = this.keyCount;
    c.table = this.table.slice();
    c.mtimes = this.mtimes.slice();
    c.dirAt = this.dirAt.slice();
    c.dirOrder = this.dirOrder.slice();
    c.dirSlots = this.dirSlots;
    c.dirCount = this.dirCount;
    c.madeFlags = new Uint8Array(this.madeFlags.length);
    return c;
  }

  /** The writer's own files (not adopted): how many, and their bytes. */
  ownTotals(): { files: number; bytes: number } {
    let files = 0;
    let bytes = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.flags[slot] !== OWN) continue;
      files++;
      bytes += this.sizes[slot];
    }
    return { files, bytes };
  }

  /** A path's spelling from its folder and name numbers. */
  private spell(slot: number): string {
    const folder = this.folders.list[this.fileFolder[slot]];
    const name = this.names.list[this.fileName[slot]];
    return folder === '' ? name : `${folder}/${name}`;
  }

  /** Whether a slot's folder and name spell this path (compared in place: no string made). */
  private spells(slot: number, rel: string): boolean {
    const folder = this.folders.list[this.fileFolder[slot]];
    const name = this.names.list[this.fileName[slot]];
    if (folder === '') return rel === name;
    return rel.length === folder.length + 1 + name.length && rel.charCodeAt(folder.length) === 47 && rel.endsWith(name) && rel.startsWith(folder);
  }

  /** The slot of a path (made when asked: make), or -1. */
  slot(rel: string, make: boolean): number {
    const hash = pathHash(rel);
    const found = this.find(rel, hash);
    if (found >= 0 || !make) return found;
    // A path at the root is its name in the folder "" (one that starts with its only "/" too: spelt back as it was).
    const cut = rel.lastIndexOf('/');
    const nameText = cut <= 0 ? rel : rel.slice(cut + 1);
    // The folder of the path before, again (a task's files, the state's lines, a folder's entries): not sliced and looked up.
    let folder: number;
    if (cut > 0 && cut === this.lastFolderText.length && rel.startsWith(this.lastFolderText)) folder = this.lastFolder;
    else {
      const folderText = cut <= 0 ? '' : rel.slice(0, cut);
      folder = this.folder(folderText);
      this.lastFolder = folder;
      this.lastFolderText = folderText;
    }
    return this.insert(folder, this.names.id(nameText), hash);
  }

  /** The slot of a path by its hash (pathHash), or -1. */
  private find(rel: string, hash: number): number {
    const mask = this.table.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = this.table[at];
      if (held === 0) return -1;
      if (this.pathHashes[held - 1] === hash && this.spells(held - 1, rel)) return held - 1;
    }
  }

  /** A new slot for a path not in the table, by its folder's and name's numbers and its hash. */
  private insert(folder: number, name: number, hash: number): number {
    const slot = this.slotCount++;
    if (slot === this.sizes.length) {
      const n = slot * 2;
      this.fileFolder = grown(this.fileFolder, n);
      this.fileName = grown(this.fileName, n);
      this.sizes = grown(this.sizes, n);
      this.ctimes = grown(this.ctimes, n);
      this.inos = grown(this.inos, n);
      this.flags = grown(this.flags, n);
      this.pathHashes = grown(this.pathHashes, n);
    }
    this.fileFolder[slot] = folder;
    this.fileName[slot] = name;
    this.pathHashes[slot] = hash;
    this.keyOf.push(undefined);
    // At most half full.
    if (this.slotCount * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.place(slot);
    return slot;
  }

  private place(slot: number): void {
    const mask = this.table.length - 1;
    let at = this.pathHashes[slot] & mask;
    while (this.table[at] !== 0) at = (at + 1) & mask;
    this.table[at] = slot + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    for (let slot = 0; slot < this.slotCount; slot++) this.place(slot);
  }

  /** A folder's number (made when new). */
  folder(dir: string): number {
    const i = this.folders.id(dir);
    if (i >= this.mtimes.length) {
      const before = this.mtimes.length;
      const n = Math.max(i + 1, before * 2);
      this.mtimes = grown(this.mtimes, n);
      this.dirAt = grown(this.dirAt, n).fill(-1, before);
      this.madeFlags = grown(this.madeFlags, n);
    }
    return i;
  }

  // ---- files

  fileAt(slot: number): FileRecord | undefined {
    const flag = this.flags[slot];
    return flag === NO_FILE ? undefined : { size: this.sizes[slot], ctimeMs: this.ctimes[slot], adopted: flag === ADOPTED };
  }

  /** A file's record, its inode not known (0) unless given. */
  setFile(slot: number, r: FileRecord, ino = 0): void {
    this.setFileAt(slot, r.size, r.ctimeMs, r.adopted, ino);
  }

  /** setFile without a record made (the state's 285,000 files are read through it: no object each). */
  setFileAt(slot: number, size: number, ctimeMs: number, adopted: boolean, ino = 0): void {
    if (this.flags[slot] === NO_FILE) this.fileCount++;
    this.sizes[slot] = size;
    this.ctimes[slot] = ctimeMs;
    this.inos[slot] = ino;
    this.flags[slot] = adopted ? ADOPTED : OWN;
  }

  inoAt(slot: number): number {
    return this.inos[slot];
  }

  /** A file's ctime as it is now (another name of its inode was linked or removed: write/writer.ts). */
  setCtimeAt(slot: number, ctimeMs: number): void {
    this.ctimes[slot] = ctimeMs;
  }

  /** Room for n file slots, made at once (the state read: its table not grown and rehashed a dozen times on the way). */
  reserve(n: number): void {
    if (n > this.sizes.length) {
      this.fileFolder = grown(this.fileFolder, n);
      this.fileName = grown(this.fileName, n);
      this.sizes = grown(this.sizes, n);
      this.ctimes = grown(this.ctimes, n);
      this.inos = grown(this.inos, n);
      this.flags = grown(this.flags, n);
      this.pathHashes = grown(this.pathHashes, n);
    }
    let size = this.table.length;
    while (n * 2 > size) size *= 2;
    if (size > this.table.length) this.rehash(size);
  }

  /** Whether a slot holds a file, and its size. */
  hasFile(slot: number): boolean {
    return this.flags[slot] !== NO_FILE;
  }

  sizeAt(slot: number): number {
    return this.sizes[slot];
  }

  /**
   * The file at `rel`, as another state's slot has it (the writer's reuse: about 285,000 files a rebuild): its
   * hash, folder and name taken from there, so that the path is neither hashed, nor cut, nor its parts hashed again.
   */
  copyFile(rel: string, from: SiteRecords, fromSlot: number): void {
    const hash = from.pathHashes[fromSlot];
    let slot = this.find(rel, hash);
    if (slot < 0) slot = this.insert(this.folder(from.folders.list[from.fileFolder[fromSlot]]), this.names.id(from.names.list[from.fileName[fromSlot]]), hash);
    const flag = from.flags[fromSlot];
    this.setFileAt(slot, from.sizes[fromSlot], from.ctimes[fromSlot], flag === ADOPTED, from.inos[fromSlot]);
  }

  /** Whether this state holds a file at the path of another state's slot (prune: compared by hash, folder and name, the path not spelt). */
  holdsFileOf(from: SiteRecords, fromSlot: number): boolean {
    const hash = from.pathHashes[fromSlot];
    const folder = from.folders.list[from.fileFolder[fromSlot]];
    const name = from.names.list[from.fileName[fromSlot]];
    // The same slot first: a path keeps its slot, and a state cloned from the other (a rebuild that carries the
    // previous build's files, writer.ts) has each of its paths there; found so, the table is not probed (prune: the
    // shipped site's 285,000 probes were 40 ms of a one-count rebuild's main thread, perf at load 9).
    if (fromSlot < this.slotCount && this.pathHashes[fromSlot] === hash && this.folders.list[this.fileFolder[fromSlot]] === folder && this.names.list[this.fileName[fromSlot]] === name) {
      return this.flags[fromSlot] !== NO_FILE;
    }
    const mask = this.table.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = this.table[at];
      if (held === 0) return false;
      const slot = held - 1;
      if (this.pathHashes[slot] === hash && this.folders.list[this.fileFolder[slot]] === folder && this.names.list[this.fileName[slot]] === name) return this.flags[slot] !== NO_FILE;
    }
  }

  /**
   * The files from the from-th on (in slot order, as the files view gives them) as numbers: each one's slot,
   * folder and name numbers with the spellings, size and ctime, for another thread to spell and look at
   * (write/changes.ts): spelt here, with a record object each, the shipped site's 285,000 paths were made
   * on this thread while it planned, and joined into one string.
   */
  fileParts(from: number): { folders: readonly string[]; names: readonly string[]; slots: Int32Array; folder: Int32Array; name: Int32Array; sizes: Float64Array; ctimes: Float64Array; inos: Float64Array } {
    const n = Math.max(0, this.fileCount - from);
    const parts = { folders: this.folders.list, names: this.names.list, slots: new Int32Array(n), folder: new Int32Array(n), name: new Int32Array(n), sizes: new Float64Array(n), ctimes: new Float64Array(n), inos: new Float64Array(n) };
    let i = 0;
    let j = 0;
    for (let slot = 0; slot < this.slotCount && j < n; slot++) {
      if (this.flags[slot] === NO_FILE || i++ < from) continue;
      parts.slots[j] = slot;
      parts.folder[j] = this.fileFolder[slot];
      parts.name[j] = this.fileName[slot];
      parts.sizes[j] = this.sizes[slot];
      parts.ctimes[j] = this.ctimes[slot];
      parts.inos[j] = this.inos[slot];
      j++;
    }
    return parts;
  }

  forgetFile(slot: number): boolean {
    if (slot < 0 || this.flags[slot] === NO_FILE) return false;
    this.flags[slot] = NO_FILE;
    this.fileCount--;
    return true;
  }

  *fileSlots(): Generator<number> {
    for (let slot = 0; slot < this.slotCount; slot++) if (this.flags[slot] !== NO_FILE) yield slot;
  }

  /** How many files each folder holds (by its path; none: not there), no path spelt but those of the files of the
   *  folders `spelt` asks for (mirror/archive.ts scopeCount: the shipped site's 285,000 files lie in 42,000 folders). */
  filesByFolder(spelt: (folder: string) => boolean): { counts: Map<string, number>; files: string[] } {
    const perFolder = new Int32Array(this.folders.list.length);
    for (let slot = 0; slot < this.slotCount; slot++) if (this.flags[slot] !== NO_FILE) perFolder[this.fileFolder[slot]]++;
    const counts = new Map<string, number>();
    const wanted = new Uint8Array(perFolder.length);
    let anyWanted = false;
    for (let f = 0; f < perFolder.length; f++) {
      if (perFolder[f] === 0) continue;
      counts.set(this.folders.list[f], perFolder[f]);
      if (!spelt(this.folders.list[f])) continue;
      wanted[f] = 1;
      anyWanted = true;
    }
    const files: string[] = [];
    if (anyWanted) for (let slot = 0; slot < this.slotCount; slot++) if (this.flags[slot] !== NO_FILE && wanted[this.fileFolder[slot]]) files.push(this.spell(slot));
    return { counts, files };
  }

  /** The slots of the adopted files (the mirror step's: a few of the 285,000), no path spelt. */
  *adoptedSlots(): Generator<number> {
    for (let slot = 0; slot < this.slotCount; slot++) if (this.flags[slot] === ADOPTED) yield slot;
  }

  pathAt(slot: number): string {
    return this.spell(slot);
  }

  /** The files in slot order, as state.ts saves them. */
  fileColumns(): { paths: string[]; sizes: Float64Array; ctimes: Float64Array; adopted: Uint8Array; inos: Float64Array } {
    const n = this.fileCount;
    const paths = new Array<string>(n);
    const sizes = new Float64Array(n);
    const ctimes = new Float64Array(n);
    const adopted = new Uint8Array(n);
    const inos = new Float64Array(n);
    let j = 0;
    for (const slot of this.fileSlots()) {
      paths[j] = this.spell(slot);
      sizes[j] = this.sizes[slot];
      ctimes[j] = this.ctimes[slot];
      adopted[j] = this.flags[slot] === ADOPTED ? 1 : 0;
      inos[j] = this.inos[slot];
      j++;
    }
    return { paths, sizes, ctimes, adopted, inos };
  }

  // ---- keys

  keyAt(slot: number): string | undefined {
    return this.keyOf[slot];
  }

  setKey(slot: number, key: string): void {
    if (this.keyOf[slot] === undefined) this.keyCount++;
    this.keyOf[slot] = key;
  }

  *keySlots(): Generator<number> {
    for (let slot = 0; slot < this.slotCount; slot++) if (this.keyOf[slot] !== undefined) yield slot;
  }

  // ---- folders

  mtimeOf(dir: string): number | undefined {
    const i = this.folders.find(dir);
    return i === undefined || this.dirAt[i] < 0 ? undefined : this.mtimes[i];
  }

  setMtime(dir: string, mtimeMs: number): void {
    const i = this.folder(dir);
    this.mtimes[i] = mtimeMs;
    if (this.dirAt[i] >= 0) return;
    if (this.dirSlots === this.dirOrder.length) this.dirOrder = grown(this.dirOrder, this.dirSlots * 2);
    this.dirAt[i] = this.dirSlots;
    this.dirOrder[this.dirSlots++] = i;
    this.dirCount++;
  }

  forgetDir(dir: string): boolean {
    const i = this.folders.find(dir);
    if (i === undefined || this.dirAt[i] < 0) return false;
    this.dirOrder[this.dirAt[i]] = -1;
    this.dirAt[i] = -1;
    this.dirCount--;
    return true;
  }

  *dirNumbers(): Generator<number> {
    for (let j = 0; j < this.dirSlots; j++) if (this.dirOrder[j] >= 0) yield this.dirOrder[j];
  }

  mtimeAt(folder: number): number {
    return this.mtimes[folder];
  }

  /** The records as the state file keeps them (RecordColumns). */
  toColumns(): RecordColumns {
    const folderAt = new Int32Array(this.folders.list.length).fill(-1);
    const nameAt = new Int32Array(this.names.list.length).fill(-1);
    const folders: string[] = [];
    const names: string[] = [];
    const folderOf = (i: number) => (folderAt[i] >= 0 ? folderAt[i] : (folderAt[i] = folders.push(this.folders.list[i]) - 1));
    let n = 0;
    for (let slot = 0; slot < this.slotCount; slot++) if (this.flags[slot] !== NO_FILE || this.keyOf[slot] !== undefined) n++;
    const c: RecordColumns = {
      folders, names, folder: new Int32Array(n), name: new Int32Array(n), hashes: new Int32Array(n), sizes: new Float64Array(n), ctimes: new Float64Array(n), flags: new Uint8Array(n), inos: new Float64Array(n),
      keyed: new Int32Array(this.keyCount), keys: [], dirs: new Int32Array(this.dirCount), mtimes: new Float64Array(this.dirCount),
    };
    let j = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      const key = this.keyOf[slot];
      if (this.flags[slot] === NO_FILE && key === undefined) continue;
      const name = this.fileName[slot];
      c.folder[j] = folderOf(this.fileFolder[slot]);
      c.name[j] = nameAt[name] >= 0 ? nameAt[name] : (nameAt[name] = names.push(this.names.list[name]) - 1);
      c.hashes[j] = this.pathHashes[slot];
      c.sizes[j] = this.sizes[slot];
      c.ctimes[j] = this.ctimes[slot];
      c.flags[j] = this.flags[slot];
      c.inos[j] = this.inos[slot];
      if (key !== undefined) {
        c.keyed[c.keys.length] = j;
        c.keys.push(key);
      }
      j++;
    }
    let d = 0;
    for (const i of this.dirNumbers()) {
      c.dirs[d] = folderOf(i);
      c.mtimes[d++] = this.mtimes[i];
    }
    return c;
  }

  /** The records the columns hold (toColumns), or null when they are not a whole: a number out of range, a folder,
   *  name, path or recorded folder given twice. */
  static fromColumns(c: RecordColumns): SiteRecords | null {
    const r = new SiteRecords();
    const n = c.sizes.length;
    if ([c.folder, c.name, c.hashes, c.ctimes, c.flags, c.inos].some((a) => a.length !== n) || c.keyed.length !== c.keys.length || c.dirs.length !== c.mtimes.length) return null;
    for (const f of c.folders) r.folder(f);
    for (const name of c.names) r.names.id(name);
    if (r.folders.list.length !== c.folders.length || r.names.list.length !== c.names.length) return null;
    r.reserve(n);
    r.fileFolder.set(c.folder);
    r.fileName.set(c.name);
    r.pathHashes.set(c.hashes);
    r.sizes.set(c.sizes);
    r.ctimes.set(c.ctimes);
    r.flags.set(c.flags);
    r.inos.set(c.inos);
    r.keyOf = new Array<string | undefined>(n).fill(undefined);
    r.slotCount = n;
    const mask = r.table.length - 1;
    for (let slot = 0; slot < n; slot++) {
      const folder = c.folder[slot];
      const name = c.name[slot];
      if (folder < 0 || folder >= c.folders.length || name < 0 || name >= c.names.length || c.flags[slot] > ADOPTED) return null;
      if (c.flags[slot] !== NO_FILE) r.fileCount++;
      const hash = c.hashes[slot];
      let at = hash & mask;
      for (; r.table[at] !== 0; at = (at + 1) & mask) {
        const held = r.table[at] - 1;
        if (r.pathHashes[held] === hash && r.fileFolder[held] === folder && r.fileName[held] === name) return null;
      }
      r.table[at] = slot + 1;
    }
    for (let k = 0; k < c.keyed.length; k++) {
      const slot = c.keyed[k];
      if (slot < 0 || slot >= n || r.keyOf[slot] !== undefined) return null;
      r.keyOf[slot] = c.keys[k];
      r.keyCount++;
    }
    for (let d = 0; d < c.dirs.length; d++) {
      const i = c.dirs[d];
      if (i < 0 || i >= c.folders.length || r.dirAt[i] >= 0) return null;
      r.setMtime(c.folders[i], c.mtimes[d]);
    }
    return r;
  }

  /** Folders this build created (write/files.ts ensureFolder), as a Set of them would answer: the folders are numbered already, each made once. */
  readonly made = {
    has: (dir: string): boolean => {
      const i = this.folders.find(dir);
      return i !== undefined && this.madeFlags[i] === 1;
    },
    add: (dir: string): void => {
      this.madeFlags[this.folder(dir)] = 1;
    },
  };
}

/**
 * The records as the state file keeps them (state.ts): the slots that hold a file or a task's key, in slot
 * order (a forgotten file's slot without a key is dropped), as the numbers of their folder and name, with the
 * folders and names they use spelt once (renumbered); the recorded folders, in their order. Read back
 * (SiteRecords.fromColumns), no path is spelt, cut, hashed or looked up: the shipped site's 285,000 paths
 * spelt and split into lines, each then hashed and cut into folder and name, were about 0.3 s of CPU to
 * read a rebuild's state and 0.13 s to save it (issue 22).
 */
export interface RecordColumns {
  folders: string[];
  names: string[];
  /** By saved slot: its folder's and name's numbers, its path's hash, size, ctime, flag (none, own, adopted). */
  folder: Int32Array;
  name: Int32Array;
  hashes: Int32Array;
  sizes: Float64Array;
  ctimes: Float64Array;
  flags: Uint8Array;
  /** Its inode number (0: not known; write/same-bytes.ts). */
  inos: Float64Array;
  /** The saved slots that hold a task's key (ascending), and their keys. */
  keyed: Int32Array;
  keys: string[];
  /** The recorded folders by number, in the order recorded, and their mtimes. */
  dirs: Int32Array;
  mtimes: Float64Array;
}

/** A path's hash (FNV-1a, mixed at the end: the table takes its low bits). */
function pathHash(rel: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < rel.length; i++) h = Math.imul(h ^ rel.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) | 0;
}

/** Every file of the site with its record, as a Map of paths to records would give them (get makes the record it returns). */
export class FileRecords {
  constructor(private readonly records: SiteRecords) {}

  get size(): number {
    return this.records.fileCount;
  }

  has(rel: string): boolean {
    const slot = this.records.slot(rel, false);
    return slot >= 0 && this.records.fileAt(slot) !== undefined;
  }

  get(rel: string): FileRecord | undefined {
    const slot = this.records.slot(rel, false);
    return slot < 0 ? undefined : this.records.fileAt(slot);
  }

  set(rel: string, r: FileRecord): this {
    this.records.setFile(this.records.slot(rel, true), r);
    return this;
  }

  /** Forgets a file (its slot and key stay: set again, it comes back to its place). */
  delete(rel: string): boolean {
    return this.records.forgetFile(this.records.slot(rel, false));
  }

  /** The paths, each spelt when reached. */
  *keys(): Generator<string> {
    for (const slot of this.records.fileSlots()) yield this.records.pathAt(slot);
  }

  *entries(): Generator<[string, FileRecord]> {
    for (const slot of this.records.fileSlots()) yield [this.records.pathAt(slot), this.records.fileAt(slot)!];
  }

  /** The adopted files' paths (FileRecord adopted): the build's commit looks at them again, not at every path spelt. */
  *adopted(): Generator<string> {
    for (const slot of this.records.adoptedSlots()) yield this.records.pathAt(slot);
  }

  [Symbol.iterator](): Generator<[string, FileRecord]> {
    return this.entries();
  }

  /** The records in order, as saveState keeps them: the paths, and each one's size, ctime and adopted flag at its index. */
  columns(): { paths: string[]; sizes: Float64Array; ctimes: Float64Array; adopted: Uint8Array; inos: Float64Array } {
    return this.records.fileColumns();
  }
}

/** Each task's key under its first path, as a Map of them would give them. */
export class KeyRecords {
  constructor(private readonly records: SiteRecords) {}

  get size(): number {
    return this.records.keyCount;
  }

  get(rel: string): string | undefined {
    const slot = this.records.slot(rel, false);
    return slot < 0 ? undefined : this.records.keyAt(slot);
  }

  set(rel: string, key: string): this {
    this.records.setKey(this.records.slot(rel, true), key);
    return this;
  }

  *keys(): Generator<string> {
    for (const slot of this.records.keySlots()) yield this.records.pathAt(slot);
  }

  *values(): Generator<string> {
    for (const slot of this.records.keySlots()) yield this.records.keyAt(slot)!;
  }

  *entries(): Generator<[string, string]> {
    for (const slot of this.records.keySlots()) yield [this.records.pathAt(slot), this.records.keyAt(slot)!];
  }

  [Symbol.iterator](): Generator<[string, string]> {
    return this.entries();
  }
}

/** Every folder ("" is the root) with its mtime, as a Map of them would give them. */
export class FolderRecords {
  constructor(private readonly records: SiteRecords) {}

  get size(): number {
    return this.records.dirCount;
  }

  has(dir: string): boolean {
    return this.records.mtimeOf(dir) !== undefined;
  }

  get(dir: string): number | undefined {
    return this.records.mtimeOf(dir);
  }

  set(dir: string, mtimeMs: number): this {
    this.records.setMtime(dir, mtimeMs);
    return this;
  }

  delete(dir: string): boolean {
    return this.records.forgetDir(dir);
  }

  *keys(): Generator<string> {
    for (const i of this.records.dirNumbers()) yield this.records.folders.list[i];
  }

  *values(): Generator<number> {
    for (const i of this.records.dirNumbers()) yield this.records.mtimeAt(i);
  }

  *entries(): Generator<[string, number]> {
    for (const i of this.records.dirNumbers()) yield [this.records.folders.list[i], this.records.mtimeAt(i)];
  }

  [Symbol.iterator](): Generator<[string, number]> {
    return this.entries();
  }
}
