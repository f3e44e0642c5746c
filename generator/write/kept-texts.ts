// The bulk files' record texts kept between builds (mirror/bulk.ts RecordCache), beside the state as
// bulk-records.v8. A one-count rebuild joins every record of the whole-list files again: about 50,000 texts
// for the shipped site (9,850 records in five formats), of which ten changed. Kept one frame of entries at a
// time as two strings, their keys and their texts, with where each ends; a text is a slice of its frame's
// string, made when asked. Kept as a map of 50,000 strings (write/state.ts saveKept, before), reading them
// was 50,000 strings made and copied by the young generation twice before they settled, a map of every key
// built, and each text looked up in it, then in a set of those used, then pushed to a list to keep: about
// 0.1 s of a one-count rebuild's main thread before its first write (issue 22).
//
// A rebuild asks for the texts in the order the previous build kept them (the bulk files list records in
// the same order from one build to the next): each key is compared in place, where the previous one was
// found and one further (a record changed or removed there). A key not there is taken as not kept: its record
// is rendered again, and the entry found later by key, if any, is dropped as unused. Past CURSOR_MISSES
// such misses (records reordered), every key is indexed and looked up instead.
//
// An entry unused is dropped only when the build asked for others of its group (a key is "<group> <id>":
// mirror/bulk.ts's release salt and format, then the record's digest): made again, it has another key now.
// A group not asked for at all is kept: an annotation rebuild renders none of JASPAR 2026's bulk files, and
// dropping its 22,870 texts made the next count rebuild render them all again (0.25 s of its main thread).
//
// The file: a head frame ({header, sources}), then frames of entries ([keys, key ends, texts, text ends]),
// frames dropping entries by their number in the file ({drop, bytes}: a rebuild's unused ones, appended with
// what it made), and an empty frame, the end mark. A file without it (a build died writing) is not read.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { KEPT_APPEND_MAX, readFrame, stateDir, writeFrame } from './state.ts';

const TEXTS_HEADER = 'jaspar-static-api kept texts 1';
const textsFile = (outDir: string) => path.join(stateDir(outDir), 'bulk-records.v8');
/** A frame's texts: at most this many characters or entries (what a write or read holds at once beside what it keeps). */
const FRAME_CHARS = 1 << 20;
const FRAME_ENTRIES = 4096;
/** Keys not found where the order says before every key is indexed (a one-count rebuild of the shipped site misses ten). */
const CURSOR_MISSES = 32;

/** A frame of entries as read: the keys and the texts each as one string, and where each entry's ends in them. */
interface TextFrame {
  keys: string;
  keyEnds: number[];
  texts: string;
  textEnds: number[];
}

/** What a file holds that a build may use: its frames, and each entry not dropped (its frame, its place there, its number in the file). */
export interface KeptTextsFile {
  frames: TextFrame[];
  frameOf: Int32Array;
  at: Int32Array;
  number: Int32Array;
  /** The file's bytes, and of them those no longer read (dropped entries, approximately, and the frames that drop them). */
  size: number;
  dead: number;
}

const NOTHING: KeptTextsFile = { frames: [], frameOf: new Int32Array(0), at: new Int32Array(0), number: new Int32Array(0), size: 0, dead: 0 };

const isFrame = (f: unknown): f is [string, number[], string, number[]] =>
  Array.isArray(f) && f.length === 4 && typeof f[0] === 'string' && Array.isArray(f[1]) && typeof f[2] === 'string' && Array.isArray(f[3]) && f[1].length === f[3].length
  && (f[1].length === 0 || (f[1][f[1].length - 1] === f[0].length && f[3][f[3].length - 1] === f[2].length));

/** What a previous build by the same generator sources kept; nothing when there is nothing to trust (none, other sources, cut short, not of this form). */
export function readKeptTexts(outDir: string, sources: string): KeptTextsFile {
  let fd: number;
  try {
    fd = openSync(textsFile(outDir), 'r');
  } catch {
    return NOTHING;
  }
  try {
    const at = { offset: 0 };
    const head = deserialize(readFrame(fd, at)) as { header?: string; sources?: string };
    if (head?.header !== TEXTS_HEADER || head.sources !== sources) return NOTHING;
    const frames: TextFrame[] = [];
    const firsts: number[] = [];
    const drops: number[][] = [];
    let count = 0;
    let dead = 0;
    for (let frame = readFrame(fd, at); frame.length > 0; frame = readFrame(fd, at)) {
      const f = deserialize(frame) as unknown;
      if (isFrame(f)) {
        frames.push({ keys: f[0], keyEnds: f[1], texts: f[2], textEnds: f[3] });
        firsts.push(count);
        count += f[1].length;
        continue;
      }
      const drop = f as { drop?: unknown; bytes?: unknown };
      if (!Array.isArray(drop?.drop) || typeof drop.bytes !== 'number') return NOTHING;
      drops.push(drop.drop as number[]);
      dead += drop.bytes + 4 + frame.length;
    }
    const gone = new Uint8Array(count);
    let live = count;
    for (const list of drops) {
      for (const n of list) {
        if (Number.isInteger(n) && n >= 0 && n < count && gone[n] === 0) {
          gone[n] = 1;
          live--;
        }
      }
    }
    const frameOf = new Int32Array(live);
    const place = new Int32Array(live);
    const number = new Int32Array(live);
    let i = 0;
    for (let f = 0; f < frames.length; f++) {
      for (let k = 0; k < frames[f].keyEnds.length; k++) {
        const n = firsts[f] + k;
        if (gone[n] === 1) continue;
        frameOf[i] = f;
        place[i] = k;
        number[i++] = n;
      }
    }
    return { frames, frameOf, at: place, number, size: at.offset, dead };
  } catch {
    return NOTHING;
  } finally {
    closeSync(fd);
  }
}


/** Frames of entries as they come: flushed at FRAME_CHARS or FRAME_ENTRIES, and before a text of the other width
 *  (one beyond Latin-1 makes its frame's string two bytes a character, and every slice of it). */
class FrameMaker {
  private keys: string[] = [];
  private texts: string[] = [];
  private chars = 0;
  private wide = false;
  constructor(private readonly out: (frame: Buffer) => void) {}
  add(key: string, text: string): void {
    const wide = /[^\x00-\xff]/.test(text);
    if (this.keys.length > 0 && wide !== this.wide) this.flush();
    this.wide = wide;
    this.keys.push(key);
    this.texts.push(text);
    this.chars += text.length;
    if (this.chars >= FRAME_CHARS || this.keys.length >= FRAME_ENTRIES) this.flush();
  }
  flush(): void {
    if (this.keys.length === 0) return;
    const ends = (xs: string[]) => {
      let end = 0;
      return xs.map((x) => (end += x.length));
    };
    this.out(serialize([this.keys.join(''), ends(this.keys), this.texts.join(''), ends(this.texts)]));
    this.keys = [];
    this.texts = [];
    this.chars = 0;
  }
}

/** Closes a spool's file when a build let it go unsaved (a refused build never saves). */
const unsaved = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * Entries on their way to the kept file, written a frame at a time as they come into a file of their own, which is
 * unlinked as soon as it is opened: a build that fails or is refused leaves nothing behind, and nothing is written
 * beside the output folder before the writer has checked it (saveKeptTexts copies it there). A full build's texts,
 * held to the end of the plan, were about 110 MB at 10x.
 */
export class TextSpool {
  private fd: number | null;
  private bytes = 0;
  private readonly maker = new FrameMaker((frame) => this.frame(frame));

  constructor(sources: string, dir = os.tmpdir()) {
    const file = path.join(dir, `jaspar-kept-${process.pid}-${randomBytes(6).toString('hex')}`);
    this.fd = openSync(file, 'wx+');
    rmSync(file, { force: true });
    unsaved.register(this, this.fd, this);
    this.frame(serialize({ header: TEXTS_HEADER, sources }));
  }

  add(key: string, text: string): void {
    this.open();
    this.maker.add(key, text);
  }

  /** Copies the whole file, its end mark written, to `fd`; the spool is closed. */
  copyTo(fd: number): void {
    this.maker.flush();
    this.frame(Buffer.alloc(0));
    const from = this.open();
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (let at = 0; at < this.bytes; ) {
      const n = readSync(from, chunk, 0, Math.min(chunk.length, this.bytes - at), at);
      if (n === 0) throw new Error('kept texts: the spool file ended early');
      for (let done = 0; done < n; ) done += writeSync(fd, chunk, done, n - done);
      at += n;
    }
    this.close();
  }

  close(): void {
    if (this.fd === null) return;
    unsaved.unregister(this);
    closeSync(this.fd);
    this.fd = null;
  }

  private frame(bytes: Buffer): void {
    this.bytes += writeFrame(this.open(), bytes);
  }

  private open(): number {
    if (this.fd === null) throw new Error('kept texts: the spool is closed');
    return this.fd;
  }
}

/** What a build keeps: appended to the file it read (its unused entries dropped), else the whole spool written in its place. */
export interface TextsToKeep {
  append: { size: number; drop: number[]; bytes: number; added: [string, string][] } | null;
  spool: TextSpool;
  /** Gives the spool every entry kept, in the order used or made (only when not appended). */
  fill(): void;
}

/** An entry's key and text, slices of its frame's strings, and their lengths. */
function span(file: KeptTextsFile, i: number, texts: boolean): [string, number, number] {
  const f = file.frames[file.frameOf[i]];
  const k = file.at[i];
  const ends = texts ? f.textEnds : f.keyEnds;
  return [texts ? f.texts : f.keys, k === 0 ? 0 : ends[k - 1], ends[k]];
}
/** A key's group: what comes before its last space (mirror/bulk.ts: the release's salt and the format), or nothing. */
const groupOf = (key: string) => key.slice(0, Math.max(key.lastIndexOf(' '), 0));
function groupAt(file: KeptTextsFile, i: number): string {
  const [keys, start, end] = span(file, i, false);
  const space = keys.lastIndexOf(' ', end - 1);
  return space < start ? '' : keys.slice(start, space);
}
const keyAt = (file: KeptTextsFile, i: number) => {
  const [s, start, end] = span(file, i, false);
  return s.slice(start, end);
};
const textAt = (file: KeptTextsFile, i: number) => {
  const [s, start, end] = span(file, i, true);
  return s.slice(start, end);
};

/**
 * The texts a previous build kept, of which this one keeps those it used or made (toKeep), in the order it used or
 * made them: what the next build asks for in that order. While few are made (a rebuild's), they are held and
 * appended to the file read; past KEPT_APPEND_MAX (a full build's), every entry goes to the spool as it comes.
 */
export class KeptTexts {
  private readonly used: Uint8Array;
  private cursor = 0;
  private misses = 0;
  private index: Map<string, number> | null = null;
  /** The key get() was last asked, and the entry it found (-1: none): set() with the text it gave is no new entry. */
  private lastKey: string | undefined;
  private last = -1;
  /** Entries made, while held (not spooling). */
  private madeKeys: string[] = [];
  private madeTexts: string[] = [];
  private made = new Set<string>();
  /** The order of use: an entry of the file (its live number), or a made one (-1 - its number). */
  private order: number[] = [];
  /** Once spooling: the keys spooled. */
  private spooled: Set<string> | null = null;
  /** The groups of the keys asked for or set (a key is "<group> <id>": mirror/bulk.ts, a release's salt and a format), and the last one. */
  private readonly asked = new Set<string>();
  private lastGroup = '\0';

  constructor(private file: KeptTextsFile, private readonly spool: TextSpool) {
    this.used = new Uint8Array(file.number.length);
  }

  get(key: string): string | undefined {
    this.note(key);
    const i = this.find(key);
    this.lastKey = key;
    this.last = i;
    if (i < 0) return undefined;
    const text = textAt(this.file, i);
    if (this.used[i] === 0) {
      this.used[i] = 1;
      if (this.spooled) this.spoolOne(key, text);
      else this.order.push(i);
    }
    return text;
  }

  set(key: string, text: string): void {
    if (key === this.lastKey && this.last >= 0) return;
    this.note(key);
    if (this.spooled) {
      this.spoolOne(key, text);
      return;
    }
    if (this.made.has(key)) return;
    this.made.add(key);
    this.order.push(-1 - this.madeKeys.length);
    this.madeKeys.push(key);
    this.madeTexts.push(text);
    if (this.madeKeys.length > KEPT_APPEND_MAX) this.spoolAll();
  }

  /** What to keep for the next build; null when it is what the file read holds (every entry used, none made). */
  toKeep(): TextsToKeep | null {
    const spool = this.spool;
    if (this.spooled) return { append: null, spool, fill: () => {} };
    const n = this.used.length;
    const { file, order, madeKeys, madeTexts, used, asked } = this;
    // An entry unused is dropped when this build asked for others of its group: made again, it has another key now.
    // Those of a group it did not ask for (a release whose bulk files it did not render) are kept: the next build may.
    const kept = (i: number) => used[i] === 1 || !asked.has(groupAt(file, i));
    // Written whole: the groups in the file's order, each asked for in the order used or made, the others as they were;
    // then the groups the file did not have.
    const fill = () => {
      const byGroup = new Map<string, number[]>();
      for (const j of order) {
        const group = j >= 0 ? groupAt(file, j) : groupOf(madeKeys[-1 - j]);
        const list = byGroup.get(group);
        if (list) list.push(j);
        else byGroup.set(group, [j]);
      }
      const add = (j: number) => (j >= 0 ? spool.add(keyAt(file, j), textAt(file, j)) : spool.add(madeKeys[-1 - j], madeTexts[-1 - j]));
      for (let i = 0; i < n; i++) {
        const group = groupAt(file, i);
        const list = byGroup.get(group);
        if (list) {
          list.forEach(add);
          byGroup.delete(group);
        }
        if (used[i] === 0 && !asked.has(group)) add(i);
      }
      for (const list of byGroup.values()) list.forEach(add);
    };
    // Appended while the bytes no longer read (dropped before, and the entries dropped now) are at most an eighth of the file (of a small one, 16 KiB).
    const room = Math.max(16 << 10, file.size / 8) - file.dead;
    const drop: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n && bytes <= room; i++) {
      if (kept(i)) continue;
      drop.push(file.number[i]);
      const [, ks, ke] = span(file, i, false);
      const [, ts, te] = span(file, i, true);
      bytes += ke - ks + te - ts + 8;
    }
    if (madeKeys.length === 0 && drop.length === 0) {
      spool.close();
      return null;
    }
    if (file.frames.length === 0 || bytes > room) return { append: null, spool, fill };
    return { append: { size: file.size, drop, bytes, added: madeKeys.map((key, k) => [key, madeTexts[k]]) }, spool, fill };
  }

  /** Lets the file's frames go (toKeep's fill() keeps what it needs): what asks later gets nothing. */
  forget(): void {
    this.file = NOTHING;
    this.index = null;
    this.cursor = 0;
    // A full build's every key (about 260,000 at 10x): the bulk files' plan keeps this object until the render ends.
    if (this.spooled) this.spooled = new Set();
  }

  /** Notes the key's group as asked for (compared with the last one's in place: the keys come a group at a time). */
  private note(key: string): void {
    const end = key.lastIndexOf(' ');
    if (end === this.lastGroup.length && key.startsWith(this.lastGroup)) return;
    this.lastGroup = key.slice(0, Math.max(end, 0));
    this.asked.add(this.lastGroup);
  }

  private find(key: string): number {
    const n = this.file.number.length;
    for (let i = this.cursor; i < n && i < this.cursor + 2; i++) {
      if (this.keyIs(i, key)) {
        this.cursor = i + 1;
        return i;
      }
    }
    if (this.index === null) {
      if (++this.misses <= CURSOR_MISSES || n === 0) return -1;
      this.index = new Map();
      for (let i = 0; i < n; i++) this.index.set(keyAt(this.file, i), i);
    }
    const i = this.index.get(key) ?? -1;
    if (i >= 0) this.cursor = i + 1;
    return i;
  }

  private spoolOne(key: string, text: string): void {
    if (this.spooled!.has(key)) return;
    this.spooled!.add(key);
    this.spool.add(key, text);
  }

  /** From here on every entry used or made goes to the spool as it comes (not held: a full build's are about 110 MB at 10x). */
  private spoolAll(): void {
    this.spooled = new Set();
    for (const j of this.order) j >= 0 ? this.spoolOne(keyAt(this.file, j), textAt(this.file, j)) : this.spoolOne(this.madeKeys[-1 - j], this.madeTexts[-1 - j]);
    this.order = [];
    this.madeKeys = [];
    this.madeTexts = [];
    this.made = new Set();
  }

  private keyIs(i: number, key: string): boolean {
    const [keys, start, end] = span(this.file, i, false);
    return end - start === key.length && keys.startsWith(key, start);
  }
}

/**
 * Appends to the file read, in place of its end mark (then marked again): a frame dropping the entries unused, the
 * entries made. False when the file is not the one read (another size, header or sources, no end mark): nothing
 * written. A build that dies half way leaves a file without its end mark, which the next build does not read.
 */
function appendTexts(outDir: string, sources: string, append: NonNullable<TextsToKeep['append']>): boolean {
  let fd: number;
  try {
    fd = openSync(textsFile(outDir), constants.O_RDWR | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    if (size !== append.size || size < 8) return false;
    const length = Buffer.alloc(4);
    if (readSync(fd, length, 0, 4, 0) !== 4) return false;
    const headBytes = Buffer.alloc(length.readUInt32LE(0));
    if (readSync(fd, headBytes, 0, headBytes.length, 4) !== headBytes.length) return false;
    const head = deserialize(headBytes) as { header?: string; sources?: string };
    const mark = Buffer.alloc(4);
    if (head?.header !== TEXTS_HEADER || head.sources !== sources || readSync(fd, mark, 0, 4, size - 4) !== 4 || mark.readUInt32LE(0) !== 0) return false;
    const frames: Buffer[] = append.drop.length > 0 ? [serialize({ drop: append.drop, bytes: append.bytes })] : [];
    const maker = new FrameMaker((frame) => frames.push(frame));
    for (const [key, text] of append.added) maker.add(key, text);
    maker.flush();
    let offset = size - 4;
    for (const bytes of [...frames, Buffer.alloc(0)]) offset += writeFrame(fd, bytes, offset);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Keeps them for the next build (beside the state): appended to the file read when toKeep said so and it still is that file, else written whole, then renamed. */
export function saveKeptTexts(outDir: string, sources: string, keep: TextsToKeep): void {
  const { spool } = keep;
  if (keep.append && appendTexts(outDir, sources, keep.append)) {
    spool.close();
    return;
  }
  keep.fill();
  mkdirSync(stateDir(outDir), { recursive: true });
  const temp = `${textsFile(outDir)}.${process.pid}`;
  const fd = openSync(temp, 'w');
  try {
    spool.copyTo(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, textsFile(outDir));
}
