// What a build remembers for the next one, kept BESIDE the output folder
// (public/ → .public-build-state/), so that it is never published:
// state.bin (the writer's records as columns, records.ts: read without a
// path spelt, split or hashed; the binary form by paths and state.tsv, the
// text form, by earlier builds, are still read):
// - the fingerprint of everything the site was built from (inputs, generator
//   sources, options): equal and the folder unaltered → nothing to do;
// - every file of the site with its size and ctime (a change the build did
//   not make shows as another ctime: ctime cannot be set by hand) and its
//   inode number (the names of one inode share its ctime), and every
//   folder with its mtime (an added or removed entry shows there);
// - each rendering task's key (a hash of what it renders from, computed
//   without rendering: pipeline/schedule.ts), so that an unchanged resource
//   is not even rendered again;
// - the last build's report;
// - beside it, each mirror archive's members (archive-<scope>.tsv,
//   write/mirror.ts), so that the next archive copies the unchanged ones;
// - the input files' hashes (input-hashes.tsv, pipeline/fingerprint.ts),
//   so that the fingerprint does not read unchanged release files again;
// - and, for the generator sources that made them, what the reader made of
//   the input files (parsed-files.v8, dataset/parsed-files.ts) and the bulk
//   files' records (bulk-records.v8, mirror/bulk.ts; write/kept-texts.ts), so that unchanged files
//   are not parsed, nor unchanged records rendered, again; and the plan
//   (plan.v8, pipeline/kept-plan.ts), so that the tasks showing no changed
//   record are not planned again.
// "in-progress" is created before the first change to the output folder and
// removed after the state is saved: a build that died in between leaves it,
// and the next build trusts nothing and compares every file with what it
// renders.
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { SiteRecords, type FileRecords, type FolderRecords, type KeyRecords, type RecordColumns } from './records.ts';

/** The state as text (state.tsv), as builds before the binary form kept it: still read, never written. */
const HEADER = 'jaspar-static-api build state 1';
/** The state in its binary form as builds before the columns kept it (parseBinaryState): still read, never written. */
const BINARY_HEADER = 'jaspar-static-api build state 2';
/** The state as the records' columns (state.bin, saveState), each file's inode number among them (hard links: write/same-bytes.ts). */
const COLUMNS_HEADER = 'jaspar-static-api build state 3';

export { FileRecords, KeyRecords, FolderRecords, type FileRecord } from './records.ts';

export interface BuildState {
  fingerprint: string;
  report: unknown;
  files: FileRecords;
  /** First output path of a task → its key. */
  keys: KeyRecords;
  /** Folder ("" is the root) → mtimeMs. */
  dirs: FolderRecords;
  /** What the three hold, as columns (records.ts). */
  records: SiteRecords;
}

export const emptyState = (): BuildState => {
  const records = new SiteRecords();
  return { fingerprint: '', report: null, files: records.files, keys: records.keys, dirs: records.dirs, records };
};

/** Where the state of the output folder outDir is kept. */
export const stateDir = (outDir: string): string => path.join(path.dirname(path.resolve(outDir)), `.${path.basename(path.resolve(outDir))}-build-state`);
const stateFile = (outDir: string) => path.join(stateDir(outDir), 'state.bin');
const textStateFile = (outDir: string) => path.join(stateDir(outDir), 'state.tsv');
const markerFile = (outDir: string) => path.join(stateDir(outDir), 'in-progress');

/**
 * state.bin's bytes in memory every thread shares, and where the columns a look at the folder needs lie in them
 * ([offset, length] each, records.ts RecordColumns; counts: slots, folders, names, keys, recorded folders): what
 * readState hands its onShared before it parses them. Of a file in columns that frames whole (sectionsOf), not
 * checked further: the parse that follows may still refuse it.
 */
export interface SharedState {
  bytes: Uint8Array;
  counts: [number, number, number, number, number];
  at: Record<'folders' | 'names' | 'sizes' | 'ctimes' | 'mtimes' | 'folder' | 'name' | 'dirs' | 'flags' | 'inos', [number, number]>;
}

/** The previous build's state, or null when there is none to trust (none, unreadable, or a build was interrupted).
 *  onShared: given state.bin's bytes (SharedState) before they are parsed, when they are columns, so that another
 *  thread may begin with them (write/changes.ts, the folder look: the shipped site's parse is about 70 ms). */
export function readState(outDir: string, onShared?: (shared: SharedState) => void): BuildState | null {
  if (existsSync(markerFile(outDir))) return null;
  let bytes: Buffer;
  try {
    bytes = onShared ? readShared(stateFile(outDir)) : readFileSync(stateFile(outDir));
  } catch {
    // A folder last built before the binary form: its text state, read once (the next save writes state.bin).
    try {
      return parseState(readFileSync(textStateFile(outDir), 'utf8'));
    } catch {
      return null;
    }
  }
  if (onShared) {
    const framed = sectionsOf<ColumnsMeta>(bytes, COLUMNS_HEADER, COLUMN_SECTIONS);
    if (framed !== null && Array.isArray(framed.meta.counts) && framed.meta.counts.length === 5) {
      const at = (i: number): [number, number] => [framed.parts[i].byteOffset - bytes.byteOffset, framed.parts[i].length];
      const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      onShared({ bytes: view, counts: framed.meta.counts, at: { folders: at(0), names: at(1), sizes: at(3), ctimes: at(4), mtimes: at(5), folder: at(6), name: at(7), dirs: at(10), flags: at(11), inos: at(12) } });
    }
  }
  return parseColumnsState(bytes) ?? parseBinaryState(bytes);
}

/** A file's bytes in a SharedArrayBuffer (threads given them share them, not a copy each). */
function readShared(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    for (let got = 0; got < size; ) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n === 0) throw new Error('cut short while read');
      got += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The state with these records (the views of them). */
function stateOf(records: SiteRecords, fingerprint: string, report: unknown): BuildState {
  return { fingerprint, report, files: records.files, keys: records.keys, dirs: records.dirs, records };
}

/**
 * What state.bin holds after its header line: a JSON line (fingerprint, report, the columns' counts, each
 * section's length in bytes), then the records' columns (records.ts RecordColumns): the folders, names and
 * keys, each a UTF-8 block of lines; the numbers in this machine's byte order; then "end". Read without a
 * path spelt, split, hashed or cut (the binary form before it, by paths, took about 0.3 s of CPU to read
 * the shipped site's state and 0.13 s to save it; this one about a tenth: issue 22).
 */
interface ColumnsMeta {
  fingerprint: string;
  report: unknown;
  littleEndian: boolean;
  /** Saved slots, folders, names, keys, recorded folders. */
  counts: [number, number, number, number, number];
  sections: number[];
}

const COLUMN_SECTIONS = 13;

/** The columns' sections, in the order written: the line blocks, then numbers (8-byte ones first). */
function columnSections(c: RecordColumns): Buffer[] {
  const lines = (xs: string[]) => Buffer.from(xs.join('\n'));
  const bytes = (a: Float64Array | Int32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return [lines(c.folders), lines(c.names), lines(c.keys), bytes(c.sizes), bytes(c.ctimes), bytes(c.mtimes), bytes(c.folder), bytes(c.name), bytes(c.hashes), bytes(c.keyed), bytes(c.dirs), bytes(c.flags), bytes(c.inos)];
}

/** The state's bytes (saveState), as they are written. */
function columnsState(state: BuildState): Buffer[] {
  const c = state.records.toColumns();
  const sections = columnSections(c);
  const meta: ColumnsMeta = {
    fingerprint: state.fingerprint, report: state.report, littleEndian: LITTLE_ENDIAN,
    counts: [c.sizes.length, c.folders.length, c.names.length, c.keys.length, c.dirs.length], sections: sections.map((b) => b.length),
  };
  return [Buffer.from(`${COLUMNS_HEADER}\n${JSON.stringify(meta)}\n`), ...sections, Buffer.from(END)];
}

/** The state in columns (columnsState), or null when it is not one whole: another header, cut short, counts that do not match, records that do not (SiteRecords.fromColumns). */
function parseColumnsState(bytes: Buffer): BuildState | null {
  const framed = sectionsOf<ColumnsMeta>(bytes, COLUMNS_HEADER, COLUMN_SECTIONS);
  if (framed === null) return null;
  const { meta, parts } = framed;
  const { counts } = meta;
  if (!Array.isArray(counts) || counts.length !== 5) return null;
  const [slots, folders, names, keys, dirs] = counts;
  const lines = (b: Buffer, n: number): string[] | null => {
    // An empty block is no line, or one empty line (the root folder "" alone).
    const xs = b.length === 0 && n !== 1 ? [] : b.toString('utf8').split('\n');
    return xs.length === n ? xs : null;
  };
  // Copied: a typed view needs an aligned offset, which a section has only by chance.
  const numbers = <T>(b: Buffer, n: number, size: number, make: (buffer: ArrayBuffer) => T): T | null => (b.length === n * size ? make(new Uint8Array(b).buffer) : null);
  const f64 = (b: Buffer, n: number) => numbers(b, n, 8, (x) => new Float64Array(x));
  const i32 = (b: Buffer, n: number) => numbers(b, n, 4, (x) => new Int32Array(x));
  const c = {
    folders: lines(parts[0], folders), names: lines(parts[1], names), keys: lines(parts[2], keys),
    sizes: f64(parts[3], slots), ctimes: f64(parts[4], slots), mtimes: f64(parts[5], dirs),
    folder: i32(parts[6], slots), name: i32(parts[7], slots), hashes: i32(parts[8], slots), keyed: i32(parts[9], keys), dirs: i32(parts[10], dirs),
    flags: numbers(parts[11], slots, 1, (x) => new Uint8Array(x)), inos: f64(parts[12], slots),
  };
  if (Object.values(c).some((v) => v === null)) return null;
  const records = SiteRecords.fromColumns(c as RecordColumns);
  return records && stateOf(records, meta.fingerprint, meta.report ?? null);
}

/**
 * What the binary state holds after its header line: a JSON line (fingerprint, report, counts, each
 * section's length in bytes), then the sections: the files', keys' and folders' paths, each a UTF-8
 * block of lines; the keys, likewise; the files' sizes and ctimes and the folders' mtimes as float64 in
 * this machine's byte order; the files' adopted flags, a byte each; then "end". Read with one split a
 * block and no parsing of numbers: the shipped site's 285,000 files read in about a quarter of the time
 * the text took (0.4 s at load), written in half.
 */
interface BinaryMeta {
  fingerprint: string;
  report: unknown;
  littleEndian: boolean;
  files: number;
  keys: number;
  dirs: number;
  /** Byte lengths: file paths, key paths, keys, folder paths, sizes, ctimes, folder mtimes, adopted flags. */
  sections: number[];
}

const END = 'end\n';
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A binary state's parts (columnsState, binaryState): its header line, a JSON line (this machine's byte order,
 * each section's length), the sections, "end". Null when it is not one whole: another header, meta that does
 * not parse, another byte order or number of sections, lengths that do not add up to the file.
 */
function sectionsOf<M extends { littleEndian: boolean; sections: number[] }>(bytes: Buffer, header: string, count: number): { meta: M; parts: Buffer[] } | null {
  const head = Buffer.from(`${header}\n`);
  if (!bytes.subarray(0, head.length).equals(head)) return null;
  const metaEnd = bytes.indexOf(10, head.length);
  if (metaEnd < 0) return null;
  let meta: M;
  try {
    meta = JSON.parse(bytes.toString('utf8', head.length, metaEnd)) as M;
  } catch {
    return null;
  }
  const { sections } = meta;
  if (meta.littleEndian !== LITTLE_ENDIAN || !Array.isArray(sections) || sections.length !== count) return null;
  let at = metaEnd + 1;
  if (at + sections.reduce((a, b) => a + b, 0) + END.length !== bytes.length || bytes.toString('latin1', bytes.length - END.length) !== END) return null;
  return { meta, parts: sections.map((length) => bytes.subarray(at, (at += length))) };
}

/** The binary state's bytes as builds before the columns wrote them (the tests' folders of such a build). */
export function binaryState(state: BuildState): Buffer[] {
  const files = state.files.columns();
  const lines = (xs: Iterable<string>) => Buffer.from([...xs].join('\n'));
  const floats = (xs: Float64Array) => Buffer.from(xs.buffer, xs.byteOffset, xs.byteLength);
  const sections = [
    lines(files.paths),
    lines(state.keys.keys()),
    lines(state.keys.values()),
    lines(state.dirs.keys()),
    floats(files.sizes),
    floats(files.ctimes),
    floats(Float64Array.from(state.dirs.values())),
    Buffer.from(files.adopted.buffer, files.adopted.byteOffset, files.adopted.byteLength),
  ];
  const meta: BinaryMeta = { fingerprint: state.fingerprint, report: state.report, littleEndian: LITTLE_ENDIAN, files: files.paths.length, keys: state.keys.size, dirs: state.dirs.size, sections: sections.map((b) => b.length) };
  return [Buffer.from(`${BINARY_HEADER}\n${JSON.stringify(meta)}\n`), ...sections, Buffer.from(END)];
}

/** The binary state (binaryState), or null when it is not one whole: another header, cut short, counts that do not match. */
function parseBinaryState(bytes: Buffer): BuildState | null {
  const framed = sectionsOf<BinaryMeta>(bytes, BINARY_HEADER, 8);
  if (framed === null) return null;
  const { meta, parts } = framed;
  const lines = (b: Buffer, n: number): string[] | null => {
    const xs = n === 0 ? [] : b.toString('utf8').split('\n');
    return xs.length === n ? xs : null;
  };
  // Copied: a float64 view needs an aligned offset, which a section has only by chance.
  const floats = (b: Buffer, n: number): Float64Array | null => (b.length === n * 8 ? new Float64Array(new Uint8Array(b).buffer) : null);
  const paths = lines(parts[0], meta.files);
  const keyPaths = lines(parts[1], meta.keys);
  const keys = lines(parts[2], meta.keys);
  const dirPaths = lines(parts[3], meta.dirs);
  const sizes = floats(parts[4], meta.files);
  const ctimes = floats(parts[5], meta.files);
  const mtimes = floats(parts[6], meta.dirs);
  if (!paths || !keyPaths || !keys || !dirPaths || !sizes || !ctimes || !mtimes || parts[7].length !== meta.files) return null;
  const state = emptyState();
  state.fingerprint = meta.fingerprint;
  state.report = meta.report ?? null;
  const adopted = parts[7];
  const { records } = state;
  records.reserve(paths.length);
  for (let i = 0; i < paths.length; i++) records.setFileAt(records.slot(paths[i], true), sizes[i], ctimes[i], adopted[i] === 1);
  for (let i = 0; i < keyPaths.length; i++) state.keys.set(keyPaths[i], keys[i]);
  for (let i = 0; i < dirPaths.length; i++) state.dirs.set(dirPaths[i], mtimes[i]);
  // A path given twice (a line break in a path) leaves fewer entries than lines: nothing to trust.
  return state.files.size === meta.files && state.keys.size === meta.keys && state.dirs.size === meta.dirs ? state : null;
}

/** The state file's lines (readState); the file and key lines, 330,000 for the shipped site, read in place by their tabs (0.2 s less than splitting each line). */
function parseState(text: string): BuildState | null {
  const state = emptyState();
  let start = 0;
  let first = true;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const kind = text.charCodeAt(start);
    const tab = text.indexOf('\t', start);
    // "F\t<path>\t<size>\t<ctime>", "A\t…" and "K\t<path>\t<key>" with just these fields: read in place (others: below).
    if (!first && tab === start + 1 && (kind === 70 || kind === 65 || kind === 75)) {
      let second = text.indexOf('\t', tab + 1);
      if (second >= end) second = -1;
      let third = second < 0 ? -1 : text.indexOf('\t', second + 1);
      if (third >= end) third = -1;
      let fourth = third < 0 ? -1 : text.indexOf('\t', third + 1);
      if (fourth >= end) fourth = -1;
      if (kind === 75 ? second > 0 && third < 0 : third > 0 && fourth < 0) {
        const rel = text.slice(tab + 1, second);
        if (kind === 75) state.keys.set(rel, text.slice(second + 1, end));
        else state.files.set(rel, { size: Number(text.slice(second + 1, third)), ctimeMs: Number(text.slice(third + 1, end)), adopted: kind === 65 });
        start = end + 1;
        continue;
      }
    }
    const line = text.slice(start, end);
    start = end + 1;
    if (first) {
      if (line !== HEADER) return null;
      first = false;
      continue;
    }
    const f = line.split('\t');
    switch (f[0]) {
      case 'F':
      case 'A':
        state.files.set(f[1], { size: Number(f[2]), ctimeMs: Number(f[3]), adopted: f[0] === 'A' });
        break;
      case 'K':
        state.keys.set(f[1], f[2]);
        break;
      case 'D':
        state.dirs.set(f[1], Number(f[2]));
        break;
      case 'fingerprint':
        state.fingerprint = f[1];
        break;
      case 'report':
        state.report = JSON.parse(f[1]);
        break;
      case 'end':
        return state;
      default:
        return null;
    }
  }
  return null; // no "end" line: cut short
}

/** True when outDir holds a previous build's output: a saved state (its first line checked) or the mark of an interrupted build. */
export function isPreviousOutput(outDir: string): boolean {
  return interrupted(outDir) || startsWith(stateFile(outDir), `${COLUMNS_HEADER}\n`) || startsWith(stateFile(outDir), `${BINARY_HEADER}\n`) || startsWith(textStateFile(outDir), `${HEADER}\n`);
}

/** The file opened with these flags, not through a link; null when it cannot be (none, a link, unreadable). */
function openNoFollow(file: string, flags: number): number | null {
  try {
    return openSync(file, flags | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
}

/** Whether a file (not a link) starts with these characters. */
function startsWith(file: string, text: string): boolean {
  const fd = openNoFollow(file, constants.O_RDONLY);
  if (fd === null) return false;
  try {
    const head = Buffer.alloc(Buffer.byteLength(text));
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('utf8') === text;
  } finally {
    closeSync(fd);
  }
}

/** True when a build started changing outDir and did not finish. */
export const interrupted = (outDir: string): boolean => existsSync(markerFile(outDir));

/** Marks the output folder as being changed. */
export function markInProgress(outDir: string): void {
  mkdirSync(stateDir(outDir), { recursive: true });
  writeFileSync(markerFile(outDir), `a build started changing ${path.resolve(outDir)}; until it finishes, the folder may be half updated\n`);
}

/**
 * Saves the state and clears the in-progress mark. Written over the previous state.bin in place while the folder
 * is marked in progress (a build's commit: a save cut short leaves the mark, and the next build trusts no state),
 * else whole to a temporary file, then renamed. Renamed over it, the old file's 14.5 MB (the shipped site's) were
 * freed, which this disk discards before the rename returns, and the new file's blocks allocated: about 25 ms of
 * a one-count rebuild's last step against 2-4 ms written over.
 */
export function saveState(outDir: string, state: BuildState): void {
  mkdirSync(stateDir(outDir), { recursive: true });
  const parts = columnsState(state);
  if (existsSync(markerFile(outDir)) && writeOver(stateFile(outDir), parts)) {
    rmSync(textStateFile(outDir), { force: true });
    rmSync(markerFile(outDir), { force: true });
    return;
  }
  const temp = `${stateFile(outDir)}.${process.pid}`;
  const fd = openSync(temp, 'w');
  try {
    for (const part of parts) {
      for (let done = 0; done < part.length; ) done += writeSync(fd, part, done);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temp, stateFile(outDir));
  // The text state of an earlier build is this state's no longer.
  rmSync(textStateFile(outDir), { force: true });
  rmSync(markerFile(outDir), { force: true });
}

/** Writes the parts over an existing regular file of one name (not through a link, nor into another name's inode), cut
 *  to their length; false when there is no such file (nothing written). */
function writeOver(file: string, parts: readonly Buffer[]): boolean {
  const fd = openNoFollow(file, constants.O_WRONLY);
  if (fd === null) return false;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1) return false;
    let at = 0;
    for (const part of parts) {
      for (let done = 0; done < part.length; ) done += writeSync(fd, part, done, part.length - done, at + done);
      at += part.length;
    }
    ftruncateSync(fd, at);
    return true;
  } finally {
    closeSync(fd);
  }
}

const HASHES_HEADER = 'jaspar-static-api input hashes 1';
const hashesFile = (outDir: string) => path.join(stateDir(outDir), 'input-hashes.tsv');

/** The input files' hashes a previous build kept (pipeline/fingerprint.ts KnownHashes); empty when there are none to read. */
export function readInputHashes(outDir: string): Map<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number; hash: string }> {
  const known = new Map<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number; hash: string }>();
  let lines: string[];
  try {
    lines = readFileSync(hashesFile(outDir), 'utf8').split('\n');
  } catch {
    return known;
  }
  if (lines[0] !== HASHES_HEADER || lines[lines.length - 2] !== 'end') return known;
  for (const line of lines.slice(1, -2)) {
    const [file, size, mtimeMs, ctimeMs, ino, hash] = line.split('\t');
    known.set(file, { size: Number(size), mtimeMs: Number(mtimeMs), ctimeMs: Number(ctimeMs), ino: Number(ino), hash });
  }
  return known;
}

/** Keeps the input files' hashes for the next build (beside the state; written whole, then renamed). */
export function saveInputHashes(outDir: string, known: ReadonlyMap<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number; hash: string }>): void {
  mkdirSync(stateDir(outDir), { recursive: true });
  const lines = [HASHES_HEADER];
  for (const [file, k] of known) if (!/[\t\n]/.test(file)) lines.push(`${file}\t${k.size}\t${k.mtimeMs}\t${k.ctimeMs}\t${k.ino}\t${k.hash}`);
  lines.push('end');
  const temp = `${hashesFile(outDir)}.${process.pid}`;
  writeFileSync(temp, `${lines.join('\n')}\n`);
  renameSync(temp, hashesFile(outDir));
}

// Version 2: framed, a chunk of entries a frame (version 1 was one serialized object: written whole, it was a
// 250 MB buffer on top of the plan's heap at the end of a 10x build's plan, the build's peak).
const KEPT_HEADER = 'jaspar-static-api kept entries 2';
/** What a build keeps of its own work for the next build by the same generator sources, as entries: what the reader made of the input files (dataset/parsed-files.ts), the plan's task shapes and records' digests (pipeline/kept-plan.ts). The bulk files' records are kept otherwise (write/kept-texts.ts). */
export type KeptKind = 'parsed-files' | 'plan';
const keptFile = (outDir: string, kind: KeptKind) => path.join(stateDir(outDir), `${kind}.v8`);
/** Entries serialized a frame: a frame's bytes are all a write or read holds at once (a BED file's text is the largest value, about 1 MB). */
const KEPT_FRAME_ENTRIES = 512;

/** The next frame of a kept file (4 bytes of length, then that many bytes, read on their own: the whole file read at
 *  once would hold its bytes beside what is made of them); an empty buffer is the end mark. Throws when the file ends first. */
export function readFrame(fd: number, at: { offset: number }): Buffer {
  const length = Buffer.alloc(4);
  if (readSync(fd, length, 0, 4, at.offset) !== 4) throw new Error('truncated');
  // Not zero-filled: every byte is read into it (or the read throws). 23 MB of bulk records, 17 MB of parsed files a rebuild.
  const bytes = Buffer.allocUnsafe(length.readUInt32LE(0));
  for (let got = 0; got < bytes.length; ) {
    const n = readSync(fd, bytes, got, bytes.length - got, at.offset + 4 + got);
    if (n === 0) throw new Error('truncated');
    got += n;
  }
  at.offset += 4 + bytes.length;
  return bytes;
}

/** What a previous build by the same generator sources kept; empty when there is nothing to trust (a file cut short before its end mark included). */
export function readKept(outDir: string, kind: KeptKind, sources: string): Map<string, unknown> {
  let fd: number | undefined;
  try {
    fd = openSync(keptFile(outDir, kind), 'r');
    const at = { offset: 0 };
    const head = deserialize(readFrame(fd, at)) as { header: string; sources: string };
    if (head.header !== KEPT_HEADER || head.sources !== sources) return new Map();
    const entries = new Map<string, unknown>();
    let dead = 0;
    for (let frame = readFrame(fd, at); frame.length > 0; frame = readFrame(fd, at)) {
      const flat = deserialize(frame) as unknown[] | { drop: string[]; bytes: number };
      // Entries a later build no longer kept (appendKept): still in the file (their bytes, and this frame's), no longer read.
      if (!Array.isArray(flat)) {
        for (const key of flat.drop) entries.delete(key);
        dead += flat.bytes + 4 + frame.length;
        continue;
      }
      for (let i = 0; i < flat.length; i += 2) entries.set(flat[i] as string, flat[i + 1]);
    }
    deadIn.set(entries, { dead, size: at.offset + 4 });
    return entries;
  } catch {
    // none, or unreadable: everything is made again
    return new Map();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes a frame: its length in 4 bytes, then its bytes (an empty frame is the end mark), at position when given, else at the
 *  file's own offset. Returns the bytes written. */
export function writeFrame(fd: number, bytes: Buffer, position?: number): number {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bytes.length, 0);
  let at = position;
  for (const part of [length, bytes]) {
    for (let done = 0; done < part.length; ) done += at === undefined ? writeSync(fd, part, done) : writeSync(fd, part, done, part.length - done, at + done);
    if (at !== undefined) at += part.length;
  }
  return 4 + bytes.length;
}

/** Where a spool's file goes: on the disk the kept file will be copied to (beside the output folder, where its state
 *  is), not in the system's temporary folder, which may be memory (tmpfs); there when the folder beside is not there yet. */
export function spoolDir(outDir: string): string {
  for (const dir of [stateDir(outDir), path.dirname(path.resolve(outDir))]) if (existsSync(dir)) return dir;
  return os.tmpdir();
}

/**
 * What a build made that the kept file it read lacks, and how many of that file's entries it did not use
 * (ParsedFiles appendable): few enough of those, and the file is kept with the new entries
 * appended, not written again whole (saveKept). A one-count rebuild of the shipped site adds a matrix
 * file's counts and a few bulk records, and wrote 37 MB of entries again to do so (0.14 s quiet, 0.4 s at
 * load 19: issue 22).
 */
export interface KeptAppend {
  added: ReadonlyMap<string, unknown>;
  /** The entries of the file read (readKept) the build did not use, to drop, and their bytes there. */
  unused: string[];
  bytes: number;
}

/** The bytes of the file a map was read from (readKept), and of them those it no longer reads (dropped by later builds). */
const deadIn = new WeakMap<ReadonlyMap<string, unknown>, { dead: number; size: number }>();

/**
 * What a build that read `before` and used the entries `used` has would append (saveKept), when the file may
 * take it: while the bytes dropped (those it holds already, and the entries unused now) are at most an
 * eighth of the file (of a small file, 16 KiB), and the made entries are at most KEPT_APPEND_MAX; null
 * otherwise (the file is written whole, which lets the dropped ones go). Counted in bytes, not entries:
 * an annotation edit drops one entry, matrices.csv's rows, of about a megabyte.
 */
export function keptAppend(before: ReadonlyMap<string, unknown>, used: { has(key: string): boolean }, made: ReadonlyMap<string, unknown> | null): KeptAppend | null {
  const file = deadIn.get(before);
  if (made === null || file === undefined || before.size === 0 || made.size > KEPT_APPEND_MAX) return null;
  const room = Math.max(16 << 10, file.size / 8) - file.dead;
  const unused: string[] = [];
  let bytes = 0;
  for (const key of before.keys()) {
    if (used.has(key)) continue;
    unused.push(key);
    // As a frame holds it (with its key, about): serialized alone.
    bytes += serialize([key, before.get(key)]).length;
    if (bytes > room) return null;
  }
  return { added: made, unused, bytes };
}

/** New entries a build holds to append at most (KeptAppend): more, and the file is written whole from what it keeps. */
export const KEPT_APPEND_MAX = 4096;

/**
 * Appends entries to a kept file of the same sources that ends with its end mark, in place of that mark (then
 * marked again); false when the file is not one (nothing written). A build that dies half way leaves a file
 * without its end mark, which the next build does not trust (readKept): it parses and renders again.
 */
function appendKept(outDir: string, kind: KeptKind, sources: string, { added, unused, bytes }: KeptAppend): boolean {
  let fd: number;
  try {
    fd = openSync(keptFile(outDir, kind), constants.O_RDWR | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const at = { offset: 0 };
    const head = deserialize(readFrame(fd, at)) as { header: string; sources: string };
    const size = fstatSync(fd).size;
    const mark = Buffer.alloc(4);
    if (head.header !== KEPT_HEADER || head.sources !== sources || size < at.offset + 4 || readSync(fd, mark, 0, 4, size - 4) !== 4 || mark.readUInt32LE(0) !== 0) return false;
    const frames: Buffer[] = unused.length > 0 ? [serialize({ drop: unused, bytes })] : [];
    let flat: unknown[] = [];
    for (const [key, value] of added) {
      flat.push(key, value);
      if (flat.length === 2 * KEPT_FRAME_ENTRIES) {
        frames.push(serialize(flat));
        flat = [];
      }
    }
    if (flat.length > 0) frames.push(serialize(flat));
    let offset = size - 4;
    for (const bytes of [...frames, Buffer.alloc(0)]) {
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length, 0);
      for (const part of [length, bytes]) {
        for (let done = 0; done < part.length; ) done += writeSync(fd, part, done, part.length - done, offset + done);
        offset += part.length;
      }
    }
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Keeps them for the next build (beside the state; written a frame at a time, then renamed). append: what this build
 *  added to the file it read, appended to it instead when few of that file's entries went unused (KeptAppend). */
export function saveKept(outDir: string, kind: KeptKind, sources: string, entries: Iterable<[string, unknown]>, append?: KeptAppend | null): void {
  if (append && appendKept(outDir, kind, sources, append)) return;
  mkdirSync(stateDir(outDir), { recursive: true });
  const temp = `${keptFile(outDir, kind)}.${process.pid}`;
  const fd = openSync(temp, 'w');
  try {
    writeFrame(fd, serialize({ header: KEPT_HEADER, sources }));
    let flat: unknown[] = [];
    for (const [key, value] of entries) {
      flat.push(key, value);
      if (flat.length === 2 * KEPT_FRAME_ENTRIES) {
        writeFrame(fd, serialize(flat));
        flat = [];
      }
    }
    if (flat.length > 0) writeFrame(fd, serialize(flat));
    writeFrame(fd, Buffer.alloc(0));
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, keptFile(outDir, kind));
}
