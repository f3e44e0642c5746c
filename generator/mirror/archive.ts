// The offline mirror: after the site is written, one streaming pass over its
// files produces download/jaspar-api-mirror.tar.gz (every file of the site
// inside one folder), download/SHA256SUMS (the SHA-256 of every file in it)
// and download/jaspar-api-mirror.tar.gz.sha256 (the archive's). This module
// reads the site and produces the bytes; the writer writes them
// (write/mirror.ts: only the writer writes, issue 13).
//
// The archive cannot contain its own hash, so it has a checksum file of its
// own beside it (`sha256sum -c jaspar-api-mirror.tar.gz.sha256` in the
// download folder), and the manifest, the same inside and outside, lists
// every other file: `sha256sum -c download/SHA256SUMS` passes in the
// unpacked mirror and in the served site. verify.ts checks the archive
// against its checksum where both are present.
//
// Reproducible: entries in tree order (folders' entries sorted by name
// bytes) with the manifest last, fixed owner and modes, each file's mtime
// from its SHA-256 (tar.ts contentMtime: changes when its bytes change), and
// gzip members (one per block) without name or time whose OS byte is set
// to 3 (Unix) on every platform. The tar bytes depend on the files only; the
// gzip bytes also on zlib, i.e. on the Node version (Node bundles zlib).
//
// Cost: files are read (into an arena read over once the members holding
// them are put together, ReadArena), hashed and tarred on the main thread
// (a path whose inode was met before, a hard link, is neither read nor
// hashed: readUnlessSeen; a file the writer hashed as it wrote it, every
// file of at most 16 KiB, is not hashed again, nor opened when an earlier
// file has its bytes: SiteListing sha256); the tar stream is cut into members of about a
// hundred entries (430 kB) that zlib compresses on worker threads, one a
// core, a few members at a time (mirror/gzip.ts), so both cores compress;
// one of those threads writes and hashes the archive (gzip.ts ArchiveStream).
// Memory is bounded by the members in flight, whatever the size of the
// site: folders are read one at a time and the manifest goes to the
// writer's temporary file as it grows, in pieces hashed as they go (only
// the pieces to compress are read back).
//
// Rebuilt after a small change (issue 22), the archive reuses the previous
// one's members: a member is cut where the entries' paths say, once it holds
// enough entries or enough bytes of files (never where a byte count alone
// falls, which one changed file would shift for every member after it), and
// is the same bytes whenever its entries' paths and SHA-256 are the same. The writer knows which files it wrote; every other file's
// SHA-256 is the previous manifest's. A member whose entries are all as
// before is copied from the previous archive without reading its files
// (the writer copies runs of such members in large reads). When no file
// was added or removed, the previous manifest's order is the archive's and
// its lines are read in that order: no sort, no map of every path.
// A large file (LARGE: bulk files, list pages of 1,000 records) is members
// of its own: its header, then its bytes cut where a rolling hash of them
// says (contentChunks, as gzip --rsyncable does), each copied whenever its
// bytes are a previous member's: one changed record compresses again the
// chunk around it, not the file and its neighbours.
//
// A rebuild patches the previous archive member by member (ArchivePatch,
// patchPlan): the index keeps each member's entries (places in the archive's
// order) and the manifest's lines, and a places file each file's line, the
// first bits of its hash and the file it is a hard link to. The files
// written since are found in the previous manifest or placed among its
// lines, the files gone are those the writer removed (its listing says
// which), the folders the listing's. A member without a changed, removed or
// inserted entry is copied without listing, ordering, reading or hashing any
// other file; from any other member on, entries are grouped again as a full
// build groups them until a member ends where a kept one begins. Files of
// bytes a written or removed file had or has now are the only ones whose
// link may change: found by their hashes' first bits. One count of one
// matrix (128 files written, 260 members made of 8,346): 2.5-2.9 s of the
// step's CPU before, 1.4-1.8 s at load; one annotation (21 files) 3.0 s
// before, 0.5 s. A matrix removed (23,539 files written, 22 removed: 1,965
// members made of 10,657): the step's main thread 1.1-1.2 s from the
// listing, 0.65-0.7 s patched (docs/performance.md addrm31).
//
// A file whose bytes an earlier file of the archive has (a first page and
// its folder's index, a base id and its latest version, a release's
// unchanged text formats, logos) is a hard link to that file (tar typeflag
// 1, no data, as tar itself stores a file it meets twice; GNU tar and
// Python's tarfile unpack it as a link, test/mirror/tar.test.ts):
// 86,701 of the two archives' 285,403 files, 128 MB. Measured on the full
// two-release site (CPU of the step, at load): 22.9 s for 94.3 + 89.3 MB
// before, 19.5 s for 86.5 + 74.7 MB with links. A link's member names its
// target, so a rebuild copies it only while that target is still the
// first file of those bytes.
import { createHash, hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { fnv1a } from '../dataset/digest.ts';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from './layout.ts';
import { byPathBytes, byUnitRank, hashFile, manifestLine, sha256, walkSite } from './manifest.ts';
import { isSiteFile } from './layout.ts';
import { BLOCK, END, contentMtime, entryHeader, padding } from './tar.ts';
import { Compressor, hashFiles, type Chunking, type FileChunk, type PreviousChunks } from './gzip.ts';
import { DIGEST, DigestTable } from './digest-table.ts';
import { openNoAtime } from './no-atime.ts';
import { PREFETCH_MIN_FILES, Prefetch, type Taken } from './prefetch.ts';

/** Measured on the full 2024 site (531 MB, 139,837 files; CPU seconds of
 *  the whole step, reading and hashing included): level 1 110 MB in 8.0 s,
 *  3 104 MB 8.9 s, 4 94 MB 9.4 s, 5 88.5 MB 10.8 s, 6 (zlib's default)
 *  86.6 MB 16.7 s. Since files of one bytes are hard links (about 30% of
 *  them), the root's archive has room for level 4 (archive22e): zlib alone on
 *  a quarter of its tar stream (815 MB, members of 430 kB, alternating runs)
 *  took 1.65-1.81 s at level 5 for 21.9 MB, 1.33-1.34 s at level 4 for
 *  23.4 MB, 1.02 s at level 3 for 27.6 MB (over GitHub's 100 MB a file for the
 *  whole). Level 4: 92.2 instead of 86.5 MB for about 1.6 s less CPU a build.
 *  The same level for libdeflate (mirror/deflate.ts): on the shipped root's tar stream (815 MB in members of
 *  430 kB, 2026-11-28, alternated at load 11-12) its level 4 took 5.5-6.2 s for 90.5 MB, 3 4.8-5.6 s for
 *  92.7 MB, where zlib's 4 took 7.6-8.5 s for 93.3 MB. */
export const GZIP_LEVEL = 4;
/** Another release's archive (releases/2026: 64 MB at level 5) has room under GitHub's 100 MB: measured
 *  on its files alone (manifest aside), level 5 64.0 MB in 9.0 s of CPU, 4 68.3 MB 7.1 s, 3 83.0 MB
 *  6.5 s, 2 85.3 MB 5.7 s, 1 87.9 MB 5.8 s. Level 2 was 3.3 s less CPU for an archive of about 89 MB
 *  with its manifest. With hard links (archive22e, zlib alone on a quarter of its 639 MB tar stream,
 *  alternating runs): level 2 0.58-0.62 s for 18.9 MB, level 1 0.50-0.53 s for 19.5 MB. Level 1: about
 *  77 instead of 74.7 MB for about 0.3 s less CPU a build. libdeflate's level 1 on its 639 MB tar stream: 1.8-2.0 s
 *  for 65.1 MB against zlib's 2.6-3.5 s for 77.5 MB (as above). */
export const OTHER_RELEASE_LEVEL = 1;

/** The gzip level of a scope's archive. */
export const scopeLevel = (scope: MirrorScope) => (scope.dir ? OTHER_RELEASE_LEVEL : GZIP_LEVEL);
/** The tar stream is compressed in members of a few hundred entries, each
 *  its own gzip member (RFC 1952 allows several; gzip, GNU tar, Python's
 *  tarfile, zlib and BGZF readers join them), so that both cores compress.
 *  Measured on the 2024 site with 4 MiB blocks: 7.1 s instead of 9.7 s as
 *  one stream, the archive 0.2% larger (88.8 MB). A member ends after an
 *  entry whose path hashes to 0 modulo CUT once it holds MIN_ENTRIES, or at
 *  MAX_ENTRIES: about 96 entries (430 kB of the site's files) a member. A
 *  rebuild compresses again each member holding a changed file, and files of
 *  one name lie together across the site, so a one-matrix change touches
 *  about one member per file it changes (99 for 128 files): with 770 entries
 *  a member (256/512/4096) that was 61 members, 6.6 s of CPU more. Measured
 *  on the shipped two-release site: archives 94.0 + 67.6 MB instead of
 *  92.5 + 66.3 MB (+1.7%, +2.0%). Tried (archive22d): about 24 entries
 *  (8/16/128) made the archives 91.8 + 77.5 MB instead of 86.5 + 74.7 MB,
 *  the full build's step about 1 s more CPU, and saved a one-count rebuild
 *  0.15 s of its 1.5-1.6 s (three runs each at load 5: the rest is copying
 *  and hashing the 161 MB of the two archives, not compressing). */
const MIN_ENTRIES = 32;
/** Files of LARGE bytes or more (bulk files, list pages of 1,000 records, the edge's matrix index) are
 *  members of their own, cut inside where their bytes say (contentChunks): such a file changes with any
 *  of its records, and in a group of small files it made its whole member be compressed again (a
 *  one-count rebuild compressed 153 MB of files in 97 members, three of them 8 to 31 MB of bulk files). */
const LARGE = 128 * 1024;
/** Chunks of a large file: at least CHUNK_MIN bytes, at most CHUNK_MAX, about CHUNK_MIN + 2^CHUNK_BITS. */
const CHUNK_MIN = 32 * 1024;
const CHUNK_BITS = 16;
const CHUNK_MAX = 256 * 1024;
const CUT = 64;
const MAX_ENTRIES = 512;
/** A member also ends after an entry whose path hashes to 0 modulo BYTES_CUT once its files' tar bytes reach
 *  MIN_BYTES, or at MAX_BYTES: files of 10-20 kB (list pages, versions pages, logos beside BED files) made
 *  members of 1-2.4 MB, and one changed file among them compressed the member again (27 of the 37 MB a
 *  one-count rebuild of MA1364.1 compressed, 2026-11-27). Bytes counted in whole blocks (a file's padded
 *  size: an edit of a few bytes seldom moves a cut), cut where a path says as the entries are (a cut at a
 *  byte count alone moved every later cut of the run of files of one name after a file grew a block). */
const MIN_BYTES = 192 * 1024;
const BYTES_CUT = 8;
const MAX_BYTES = 512 * 1024;
/** The manifest's lines are cut likewise, about 190 lines (17 kB) a member: a one-count rebuild changes
 *  about 60 lines far apart, and at 770 lines a member compressed 5.8 MB of the manifests again. */
const MIN_LINES = 64;
const LINES_CUT = 128;
const MAX_LINES = 1024;
/** Members being compressed while the next is read: two a worker (one to start when the other ends), plus one. */
const IN_FLIGHT = 2 * os.availableParallelism() + 1;

export interface MirrorReport {
  /** Files in the archive (its manifest included) and their bytes unpacked. */
  files: number;
  bytes: number;
  archiveBytes: number;
  archiveSha256: string;
  /** False when the previous archive and manifest already matched the site and were kept. */
  written: boolean;
  /** The archive's gzip members, and how many were copied from the previous archive. */
  members?: number;
  reused?: number;
  /** True when the previous archive was patched member by member (ArchivePatch): no other file listed or read. */
  patched?: boolean;
  seconds: number;
}

/**
 * What one archive holds: the site's root without the other releases' sites
 * (dir "", exclude ["releases"]), or one other release's site (dir
 * "releases/2026"). Its archive, checksum and manifest lie in its own
 * download/ folder; paths inside are the site's, so that the archives
 * unpacked in one folder make the whole site (each under GitHub's 100 MB a
 * file).
 */
export interface MirrorScope {
  dir: string;
  exclude: readonly string[];
}

/** The whole site as one archive (a site of one release). */
export const WHOLE_SITE: MirrorScope = { dir: '', exclude: [] };

/** The archive's, its checksum's and the manifest's paths (relative to the site's root) for a scope. */
export function scopeFiles(scope: MirrorScope): { archive: string; sum: string; manifest: string } {
  const at = (urlPath: string) => (scope.dir ? `${scope.dir}/${rel(urlPath)}` : rel(urlPath));
  return { archive: at(ARCHIVE), sum: at(ARCHIVE_SUM), manifest: at(MANIFEST) };
}

export interface MirrorOptions {
  level?: number;
  /** What the archive holds (default: the whole site). */
  scope?: MirrorScope;
  /** The caller wrote or removed files since the last archive: no point hashing the site to find out whether it can be kept. */
  siteChanged?: boolean;
}

/** Where the archive step puts the manifest's lines as they come (a temporary file of the writer's, write/mirror.ts): the manifest of a site of any size is never held whole. */
export interface ManifestSink {
  write(text: string | Buffer): void;
  /** Ends the manifest; returns the file that holds it, to read back. */
  finish(): string;
}

/** The previous archive and manifest, when an unchanged site lets them stay: the manifest is rebuilt into the sink and compared. */
export async function previousMirrorKept(root: string, sink: ManifestSink, scope: MirrorScope = WHOLE_SITE): Promise<Omit<MirrorReport, 'seconds'> | null> {
  const files = scopeFiles(scope);
  const archiveFile = path.join(root, files.archive);
  const previous = await readPrevious(archiveFile, path.join(root, files.manifest), path.join(root, files.sum));
  if (!previous) return null;
  const site = writeInnerManifest(root, sink, scope);
  if (site.manifestSha256 !== previous.innerSha256 || hashFile(archiveFile) !== previous.archiveSha256) return null;
  return { files: site.files + 1, bytes: site.bytes + site.manifestBytes, archiveBytes: (await stat(archiveFile)).size, archiveSha256: previous.archiveSha256, written: false };
}

/**
 * The archive of the site at root, as the gzip members to write one after
 * the other; the manifest's lines go to the sink as the files are read.
 * tarred counts the files and bytes archived.
 */
export async function* archiveMembers(root: string, sink: ManifestSink, tarred: { files: number; bytes: number }, level = GZIP_LEVEL, scope: MirrorScope = WHOLE_SITE, reuse: ArchiveReuse | null = null, listing: SiteListing | null = null, patch: ArchivePatch | null = null, placed: { places?: ArchivePlaces; manifestSha256?: string } = {}): AsyncGenerator<ArchiveMember[]> {
  const compressor = new Compressor(level);
  try {
    yield* members(root, sink, tarred, scope, reuse, listing, patch, placed, compressor);
  } finally {
    compressor.close();
  }
}

async function* members(root: string, sink: ManifestSink, tarred: { files: number; bytes: number }, scope: MirrorScope, reuse: ArchiveReuse | null, listing: SiteListing | null, patch: ArchivePatch | null, placed: { places?: ArchivePlaces; manifestSha256?: string }, compressor: Compressor): AsyncGenerator<ArchiveMember[]> {
  const previous = new Map((reuse?.index.members ?? []).map((m) => [m.digest, m]));
  // Each large file's members in the previous archive (its header's, then its chunks'), by its content hash:
  // a map lookup for each known file, where hashing its path as well was 0.35 s of a rebuild.
  const owned = new Map<string, ArchiveIndex['members'][]>();
  for (const m of reuse?.index.members ?? []) {
    if (!m.owner) continue;
    const runs = owned.get(m.owner) ?? owned.set(m.owner, []).get(m.owner)!;
    if (m.files === 1) runs.push([m]);
    else runs[runs.length - 1]?.push(m);
  }
  const compress = (tar: Buffer) => compressor.compress(tar);
  // A site path's file: the listing's and walkSite's paths are relative and clean ("/"-separated, no "." or
  // ".." part), so the root and the path joined as text; path.join normalizes every one (0.3 us a file).
  const rootDir = path.resolve(root);
  const fileOf = (rel: string) => `${rootDir}${path.sep}${rel}`;
  // The pass's files (read over once a member holding them is put together: ReadArena reuse).
  const arena = new ReadArena();
  // Members are compressed on the thread pool, a few at a time, and handed over in order, with the copied ones between them.
  const inFlight = new InOrder();
  // The manifest's lines, cut into pieces as they come (each ending after a line whose path cutsAfter once
  // it holds MIN_LINES, or at MAX_LINES: the same pieces wherever its lines are the same), each piece
  // hashed and written to the sink; only the pieces to compress again are read back at the end. ends: where
  // each line ends in it (the next build's ArchivePlaces).
  // sizes: the piece's lines' lengths in UTF-16 units, their bytes when the piece is ASCII (no per-line byteLength).
  const manifest = { text: '', lines: 0, line: 0, bytes: 0, ends: [0] as number[], sizes: [] as number[], sha256: createHash('sha256'), pieces: [] as { digest: string; offset: number; length: number; lines: [number, number] }[] };
  const endPiece = () => {
    if (manifest.lines === 0) return;
    // Its bytes encoded once for their length, digest and SHA-256 (each encoded the text again: 0.06-0.08 s of
    // an archive step listing the shipped site's 285,000 files).
    const bytes = Buffer.from(manifest.text);
    const length = bytes.length;
    let end = manifest.ends[manifest.ends.length - 1];
    if (length === manifest.text.length) for (const size of manifest.sizes) manifest.ends.push((end += size));
    else for (const line of manifest.text.split(/(?<=\n)/)) manifest.ends.push((end += Buffer.byteLength(line)));
    manifest.pieces.push({ digest: createHash('sha1').update(PIECE).update(bytes).digest('base64url'), offset: manifest.bytes, length, lines: [manifest.line - manifest.lines, manifest.line] });
    sink.write(manifest.text);
    manifest.sha256.update(bytes);
    manifest.bytes += length;
    manifest.text = '';
    manifest.lines = 0;
    manifest.sizes.length = 0;
  };
  // A patched archive's manifest is the previous one's bytes with some lines replaced (below): its entries list no line.
  const lists = patch === null;
  const list = (file: string, line: string) => {
    if (!lists) return;
    manifest.text += line;
    manifest.lines++;
    manifest.line++;
    manifest.sizes.push(line.length);
    if (manifest.lines >= MAX_LINES || (manifest.lines >= MIN_LINES && cutsAfter(file, LINES_CUT))) endPiece();
  };
  // A previous member is not read here: the writer copies it, with its neighbours in the previous archive in one go.
  const again = (old: ArchiveIndex['members'][number], entries?: [number, number], lines?: [number, number]): ArchiveMember => ({ copy: old, digest: old.digest, files: old.files, bytes: old.bytes, owner: old.owner, entries, lines, size: old.size });
  // A group of small files (and folders), the entries from to to (places in the archive's order): one
  // member, copied when its entries are all as before.
  const flush = (group: GroupEntry[], from: number, to: number) => {
    const entries: [number, number] = [from, to];
    // What the member holds, by path and content hash; files the writer did not write keep the previous manifest's hash.
    const digest = memberDigest(group);
    const old = previous.get(digest);
    if (old && reuse) {
      for (const e of group) if (e.kind !== 'dir') list(e.path, knownLine(e.path, e.hex!));
      tarred.files += old.files;
      tarred.bytes += old.bytes;
      inFlight.push(again(old, entries));
      return;
    }
    const parts: Buffer[] = [];
    let files = 0;
    let bytes = 0;
    for (const e of group) {
      if (e.kind === 'dir') {
        parts.push(entryHeader(at(e.path), 'dir', 0));
        continue;
      }
      if (e.kind === 'link') {
        list(e.path, manifestLine(e.path, e.hex!));
        files++;
        // Its size when its target's bytes were not read (in a member copied whole): the file's own, the same bytes.
        bytes += e.size ?? statSync(fileOf(e.path)).size;
        parts.push(entryHeader(at(e.path), 'link', 0, contentMtime(e.hex!), at(e.target!)));
        continue;
      }
      // A known file read (a neighbour of a changed one) keeps the previous manifest's hash, as a patched archive's
      // files do (the writer wrote every file that changed): hashed again, the unchanged files read after an add
      // or remove (about 17,000 of the 40,000 in the members made) were a tenth of the main thread's step.
      const content = e.content ?? arena.read(fileOf(e.path));
      const hex = e.hex!;
      list(e.path, manifestLine(e.path, hex));
      files++;
      bytes += content.length;
      parts.push(entryHeader(at(e.path), 'file', content.length, contentMtime(hex)), content, padding(content.length));
    }
    tarred.files += files;
    tarred.bytes += bytes;
    inFlight.push(compress(Buffer.concat(parts)).then((data) => ({ data, digest, files, bytes, entries })));
  };
  // A large file: its header a member of its own, then its bytes in members cut where its content says,
  // each copied when its bytes are a previous member's: one changed record recompresses the chunk around it.
  // before: its chunks in the previous archive (ArchiveIndex size), where they are known.
  const large = (e: GroupEntry, content: Buffer, place: number, before: ArchiveIndex['members'] = []) => {
    e.hex ??= sha256(content);
    largeOf(e, content.length, place, contentChunks(content, before), (from, to) => chunkTar(content, from, to));
  };
  // A large file of this size and hash (e.hex), cut into these chunks (a digest where known), tarOf giving a chunk's tar bytes.
  const largeOf = (e: GroupEntry, size: number, place: number, chunks: Iterable<[number, number, string?]>, tarOf: (from: number, to: number) => Buffer) => {
    const entries: [number, number] = [place, place + 1];
    const hex = e.hex!;
    const owner = hex;
    list(e.path, manifestLine(e.path, hex));
    tarred.files++;
    tarred.bytes += size;
    const header = entryHeader(at(e.path), 'file', size, contentMtime(hex));
    const headerDigest = headerOf(e.path, hex);
    const oldHeader = reuse ? previous.get(headerDigest) : undefined;
    inFlight.push(oldHeader ? again(oldHeader, entries) : compress(header).then((data) => ({ data, digest: headerDigest, files: 1, bytes: size, owner, entries })));
    for (const [from, to, known] of chunks) {
      let tar: Buffer | undefined;
      const digest = known ?? `c${hash('sha1', (tar = tarOf(from, to)), 'base64url')}`;
      const old = reuse ? previous.get(digest) : undefined;
      if (old) inFlight.push({ ...again(old, entries), owner });
      else {
        tar ??= tarOf(from, to);
        inFlight.push(compress(tar).then((data) => ({ data, digest, files: 0, bytes: 0, owner, entries, size: to - from })));
      }
    }
  };
  // Another release's archive: the folders it lies in first (releases/, releases/2026/).
  const seed = () => {
    const group: GroupEntry[] = [{ kind: 'dir', path: '' }];
    const parts = scope.dir ? scope.dir.split('/') : [];
    for (let i = 1; i <= parts.length; i++) group.push({ kind: 'dir', path: parts.slice(0, i).join('/') });
    return group;
  };
  /** Whether a member ends after the entry at path, holding length entries of bytes (blocks of file data, tarBytes). */
  const ends = (length: number, bytes: number, entryPath: string) =>
    length >= MAX_ENTRIES || bytes >= MAX_BYTES || (length >= MIN_ENTRIES && cutsAfter(entryPath)) || (bytes >= MIN_BYTES && cutsAfter(entryPath, BYTES_CUT));

  if (patch) {
    yield* patched(patch);
    return;
  }

  const written = listing?.sha256;
  // Folders first: a file's number (its manifest line, ArchivePlaces) is its place less dirCount.
  const { paths: order, folders: dirCount, slots } = archiveOrder(root, scope, listing, reuse);
  // Where the writer's digest of the file at a place begins in digests (ListingSlots), or -1: found by its slot where the order carries them, else by its path.
  const digests = slots && listing?.slotted ? listing.slotted.digests : null;
  const digestAt = slots && listing?.slotted ? listing.slotted.digestAt : null;
  const writtenAt = (place: number): number => (digestAt !== null ? digestAt(slots![place - dirCount]) : -1);
  const prefix = new Uint32Array(order.length - dirCount);
  const target = new Int32Array(order.length - dirCount).fill(-1);
  const fileSize = new Uint32Array(order.length - dirCount);
  // The first file entry of each content (by SHA-256, to its place in order): where a later file of the
  // same bytes links to; sizes[place] its size where known (NaN: in a member copied whole). About 30% of
  // the site's files are copies of another (first pages, base ids, logos, a release's unchanged text
  // formats): as hard links they are neither compressed nor stored. A number a content, not an object
  // and a path, in columns (FirstPlaces): they live through the whole pass (1.45 million files at 10x).
  const firsts = new FirstPlaces();
  // A hard link of a file read before has its bytes: its SHA-256 is that file's, and so the first of them a file before it.
  const inodes: SeenInodes = new Map();
  const sizes = new Float64Array(order.length).fill(Number.NaN);
  let group = seed();
  // The place of the group's first entry, and the tar bytes of its files' data (ends).
  let from = 0;
  let bytes = 0;
  // A whole pass over a large site: the files it will read (those the writer did not hash, and the first of each
  // bytes it did) read ahead on a thread of their own, which hands their bytes and fstat over (prefetch.ts take): the
  // pass neither opens nor reads them, but those the thread has not read yet. A copy whose first file is still ahead of the
  // pass when it is sent is read ahead too (the first not noted yet); known() (a rebuild's) is asked in order
  // only, so a rebuild reads nothing ahead.
  const ahead = reuse === null && order.length - dirCount >= PREFETCH_MIN_FILES
    ? new Prefetch(order.length, (k) => {
      if (k < dirCount) return null;
      if (digests !== null) {
        const at = writtenAt(k);
        return at >= 0 && firsts.hasAt(digests, at) ? null : fileOf(order[k]);
      }
      const hex = written?.(order[k]);
      return hex !== undefined && firsts.has(hex) ? null : fileOf(order[k]);
    })
    : null;
  for (let place = 0; place < order.length; place++) {
    ahead?.reach(place);
    const e: GroupEntry = { kind: place < dirCount ? 'dir' : 'file', path: order[place] };
    if (e.kind === 'file') {
      // A file the writer did not write is as the previous archive has it (the previous manifest's
      // hash); every other file is read and hashed here, to know whether it is a copy.
      e.hex = reuse?.known(e.path);
      // A file the writer hashed as it wrote it (its bytes' SHA-256, write/same-bytes.ts): not hashed again,
      // and not even opened when an earlier file has its bytes (read below when it is the first). at: where
      // its digest begins in digests, when found by its slot.
      let unread = false;
      const at = e.hex === undefined && digests !== null ? writtenAt(place) : -1;
      if (at >= 0) {
        e.hex = digests!.toString('hex', at, at + DIGEST);
        unread = true;
      } else if (e.hex === undefined && digests === null && (e.hex = written?.(e.path)) !== undefined) unread = true;
      else if (e.hex === undefined) {
        const taken = ahead?.take(place);
        const read = taken ? takenUnlessSeen(taken, inodes) : readUnlessSeen(fileOf(e.path), inodes, arena);
        if (read.hex !== undefined) e.hex = read.hex;
        else {
          e.content = read.content;
          e.hex = sha256(e.content);
          if (read.inode) noteInode(inodes, read.inode, e.hex);
        }
      }
      prefix[place - dirCount] = at >= 0 ? digests!.readUInt32BE(at) : prefixOf(e.hex);
      const first = at >= 0 ? firsts.firstOrAt(digests!, at, place) : firsts.firstOr(e.hex, place);
      if (first !== undefined) {
        e.kind = 'link';
        e.target = order[first];
        target[place - dirCount] = first - dirCount;
        // Its first's size: known for every first (below).
        e.size = sizes[first];
        fileSize[place - dirCount] = e.size;
        e.content = undefined;
        group.push(e);
      } else {
        if (unread) e.content = ahead?.take(place)?.content ?? arena.read(fileOf(e.path));
        // The previous build's size of a file the writer did not write (asked right after known()).
        const before = e.content ? undefined : reuse?.sizeOf(e.path);
        // A known file is large when the previous archive has its chunks (a file is large by its size, which its hash
        // fixes: one known to be smaller has none, and is not looked up).
        const runs = e.content || (before !== undefined && before < LARGE) ? undefined : owned.get(e.hex);
        const chunks = runs && runs.find((run) => run[0].digest === headerOf(e.path, e.hex!));
        // Its bytes were another file's large members, of which it was a copy: read, to be made its own.
        if (runs && !chunks) e.content = arena.read(fileOf(e.path));
        // Its size, which the members' cuts need (ends): its bytes', else the previous build's (the writer did not write it), else the folder's.
        sizes[place] = e.content ? e.content.length : chunks ? chunks[0].bytes : (before ?? statSync(fileOf(e.path)).size);
        fileSize[place - dirCount] = sizes[place];
        if (chunks) {
          if (group.length > 0) flush(group, from, place);
          group = [];
          from = place + 1;
          bytes = 0;
          list(e.path, knownLine(e.path, e.hex));
          tarred.files++;
          tarred.bytes += chunks[0].bytes;
          for (const m of chunks) inFlight.push(again(m, [place, place + 1]));
        } else if (e.content && e.content.length >= LARGE) {
          if (group.length > 0) flush(group, from, place);
          group = [];
          from = place + 1;
          bytes = 0;
          large(e, e.content, place);
        } else {
          group.push(e);
          bytes += tarBytes(sizes[place]);
        }
      }
    } else group.push(e);
    if (ends(group.length, bytes, order[place])) {
      flush(group, from, place + 1);
      group = [];
      from = place + 1;
      bytes = 0;
    }
    // Every file read is in a member put together (its bytes copied) or a link (none kept).
    if (group.length === 0) {
      arena.reuse();
      ahead?.release(place + 1);
    }
    if (inFlight.due) yield await inFlight.take();
  }
  // A pass cut short by an error leaves its thread waiting: unref'd, it ends with the process.
  ahead?.close();
  if (group.length > 0) flush(group, from, order.length);
  if (inFlight.length > 0) yield await inFlight.take(true);
  // The manifest last: it lists everything before it, not itself. Its folder (download/) came before.
  // Its header a member of its own, then its lines in members cut where their paths say (as the
  // entries are), each reused when its lines are the previous archive's: after a one-matrix change a
  // few of the 33 MB of the two manifests are compressed again, not all.
  endPiece();
  const manifestFile = sink.finish();
  const size = manifest.bytes;
  // Where the next build finds each file (a line of the manifest for each, in order).
  if (manifest.line === prefix.length) placed.places = { dirs: order.slice(0, dirCount), lines: Uint32Array.from(manifest.ends), prefix, target, size: fileSize };
  tarred.files++;
  tarred.bytes += size;
  placed.manifestSha256 = manifest.sha256.digest('hex');
  yield [{ data: await compress(entryHeader(`${ARCHIVE_FOLDER}/${scopeFiles(scope).manifest}`, 'file', size, contentMtime(placed.manifestSha256))), digest: '', files: 0, bytes: 0 }];
  const fd = openSync(manifestFile, 'r');
  try {
    for (const { digest, offset, length, lines } of manifest.pieces) {
      const old = reuse ? previous.get(digest) : undefined;
      if (old) inFlight.push(again(old, undefined, lines));
      else {
        const piece = Buffer.allocUnsafe(length);
        for (let at = 0; at < length; ) at += readSync(fd, piece, at, length - at, offset + at) || fail(manifestFile);
        inFlight.push(compress(piece).then((data) => ({ data, digest, files: 0, bytes: length, lines })));
      }
      if (inFlight.due) yield await inFlight.take();
    }
  } finally {
    closeSync(fd);
  }
  if (inFlight.length > 0) yield await inFlight.take(true);
  yield [{ data: await compress(Buffer.concat([padding(size), END])), digest: '', files: 1, bytes: size }];

  /**
   * The previous archive patched member by member (a rebuild that rewrote, added or removed some of its
   * files): each member whose entries are as before (none changed, removed or inserted in it, ArchivePatch's
   * flags) is copied without looking at them; from each other member on, the new entries are grouped as a
   * full build groups them, until a new member ends where a previous one to keep begins (from there on the
   * entries, and so the members, are the same). The manifest's pieces likewise.
   */
  async function* patched(p: ArchivePatch): AsyncGenerator<ArchiveMember[]> {
    const { before, places, manifest: text, fileFrom, dirFrom, entryAt, entryStart, entryFlags, lineAt, lineStart, lineFlags, fresh, chunked } = p;
    const dOld = before.dirs.length;
    const endOld = dOld + before.prefix.length;
    const dNew = places.dirs.length;
    const n = places.prefix.length;
    const total = dNew + n;
    const pathOf = (j: number) => text.toString('utf8', places.lines[j] + 66, places.lines[j + 1] - 1);
    const hexOf = (j: number) => text.toString('latin1', places.lines[j], places.lines[j] + 64);
    // The previous entry a new one is (its place then), or -1: inserted.
    const oldEntry = (q: number) => (q < dNew ? dirFrom[q] : fileFrom[q - dNew] >= 0 ? dOld + fileFrom[q - dNew] : -1);
    const members = reuse!.index.members.filter((m) => m.entries);
    const pieces = reuse!.index.members.filter((m) => m.lines);
    // The first previous member beginning at each place; a large file's (header and chunks, all at its place), by its place.
    const startOf = new Map<number, number>();
    const largeAt = new Map<number, ArchiveIndex['members']>();
    members.forEach((m, k) => {
      if (!startOf.has(m.entries![0])) startOf.set(m.entries![0], k);
      if (m.owner) (largeAt.get(m.entries![0]) ?? largeAt.set(m.entries![0], []).get(m.entries![0])!).push(m);
    });
    // A previous member is made again when an entry of it changed, left or has entries inserted before it, or
    // when it ended because a large file began after it and that is no longer so (or entries come after the last).
    const remade = ([a, b]: readonly [number, number]) => {
      for (let x = a; x < b; x++) if (entryFlags[x] & (GONE | DIRTY | AFTER)) return true;
      return (entryFlags[b] & BREAKS) !== 0 || (b === endOld && (entryFlags[b] & AFTER) !== 0);
    };
    // The new manifest is whole already (patchPlan): written now and hashed on a mirror thread while the
    // members are made, for its header after them (on the main thread, 33 MB for the two archives).
    sink.write(text);
    const manifestHash = hashFiles([sink.finish()]);
    // Not waited on until the header: a failure is its rejection then, not an unhandled one now.
    manifestHash.catch(() => {});
    const arena = new ReadArena();
    for (let k = 0; k < members.length; ) {
      const m = members[k];
      const [a, b] = m.entries!;
      if (!remade(m.entries!)) {
        tarred.files += m.files;
        tarred.bytes += m.bytes;
        inFlight.push(again(m, [entryAt[a], entryAt[a] + b - a]));
        k++;
        if (inFlight.due) yield await inFlight.take();
        continue;
      }
      const start = entryStart[a];
      let from = start;
      let group: GroupEntry[] = start === 0 ? seed() : [];
      let bytes = 0;
      let place = start;
      for (; place < total; place++) {
        if (place > start && group.length === 0) {
          const x = oldEntry(place);
          const next = x >= 0 ? startOf.get(x) : undefined;
          if (next !== undefined && !remade(members[next].entries!)) break;
        }
        let entryPath: string;
        if (place < dNew) group.push({ kind: 'dir', path: (entryPath = places.dirs[place]) });
        else {
          const j = place - dNew;
          const file = (entryPath = pathOf(j));
          const i = fileFrom[j];
          const isFresh = fresh.has(j);
          const first = places.target[j];
          if (first >= 0) {
            // A link's size is its first file's, known by now (a written first was read, earlier in this order).
            if (isFresh) places.size[j] = places.size[first];
            group.push({ kind: 'link', path: file, hex: hexOf(j), target: pathOf(first), size: places.size[first] });
          } else {
            // Its own bytes, as before: a large file's members are the previous ones; else its bytes are read.
            const wasFirst = i >= 0 && before.target[i] === -1;
            const old = !isFresh && wasFirst ? largeAt.get(dOld + i) : undefined;
            // A written large file cut as it was hashed: only its chunks no previous member holds are read.
            const cut = isFresh ? chunked.get(j) : undefined;
            if (cut) {
              if (group.length > 0) flush(group, from, place);
              group = [];
              from = place + 1;
              bytes = 0;
              places.size[j] = cut.size;
              largeOf({ kind: 'file', path: file, hex: hexOf(j) }, cut.size, place, cut.chunks, (a, b) => readChunk(fileOf(file), a, b, cut.size));
            } else if (old) {
              if (group.length > 0) flush(group, from, place);
              group = [];
              from = place + 1;
              bytes = 0;
              tarred.files++;
              tarred.bytes += old[0].bytes;
              for (const c of old) inFlight.push(again(c, [place, place + 1]));
            } else {
              const content = arena.read(fileOf(file));
              if (isFresh) places.size[j] = content.length;
              // An unchanged file's hash is its manifest line's (the trust the slow path gives the previous
              // manifest: the writer wrote every file that changed).
              const e: GroupEntry = { kind: 'file', path: file, hex: hexOf(j), content };
              if (content.length >= LARGE) {
                if (group.length > 0) flush(group, from, place);
                group = [];
                from = place + 1;
                bytes = 0;
                // Its previous bytes' chunks (a file large before, and the first of its bytes then).
                large(e, content, place, wasFirst ? (largeAt.get(dOld + i) ?? []).slice(1) : []);
              } else {
                group.push(e);
                bytes += tarBytes(content.length);
              }
            }
          }
        }
        if (ends(group.length, bytes, entryPath)) {
          flush(group, from, place + 1);
          group = [];
          from = place + 1;
          bytes = 0;
        }
        // Every file read is in a member put together (its bytes copied) or a link (none kept).
        if (group.length === 0) arena.reuse();
        if (inFlight.due) yield await inFlight.take();
      }
      if (place === total) {
        if (group.length > 0) flush(group, from, total);
        break;
      }
      k = startOf.get(oldEntry(place))!;
    }
    if (inFlight.length > 0) yield await inFlight.take(true);
    placed.places = places;
    const size = text.length;
    tarred.files++;
    tarred.bytes += size;
    placed.manifestSha256 = (await manifestHash)[0].hex;
    yield [{ data: await compress(entryHeader(`${ARCHIVE_FOLDER}/${scopeFiles(scope).manifest}`, 'file', size, contentMtime(placed.manifestSha256))), digest: '', files: 0, bytes: 0 }];
    // The manifest's pieces: each previous one whose lines are as before copied, from each other one on the
    // lines cut again as a full build cuts them (list), until a piece ends where a previous one to keep begins.
    const nOld = before.prefix.length;
    const pieceAt = new Map<number, number>();
    pieces.forEach((m, k) => pieceAt.set(m.lines![0], k));
    const relisted = ([a, b]: readonly [number, number]) => {
      for (let x = a; x < b; x++) if (lineFlags[x] & (GONE | DIRTY | AFTER)) return true;
      return b === nOld && (lineFlags[b] & AFTER) !== 0;
    };
    const piece = (a: number, b: number) => {
      const bytes = text.subarray(places.lines[a], places.lines[b]);
      const digest = createHash('sha1').update(PIECE).update(bytes).digest('base64url');
      const old = previous.get(digest);
      inFlight.push(old ? again(old, undefined, [a, b]) : compress(bytes).then((data) => ({ data, digest, files: 0, bytes: bytes.length, lines: [a, b] as [number, number] })));
    };
    for (let k = 0; k < pieces.length; ) {
      const m = pieces[k];
      const [a, b] = m.lines!;
      if (!relisted(m.lines!)) {
        inFlight.push(again(m, undefined, [lineAt[a], lineAt[a] + b - a]));
        k++;
        if (inFlight.due) yield await inFlight.take();
        continue;
      }
      let first = lineStart[a];
      let j = first;
      let next: number | undefined;
      while (j < n) {
        const file = pathOf(j++);
        const lines = j - first;
        if (lines >= MAX_LINES || (lines >= MIN_LINES && cutsAfter(file, LINES_CUT))) {
          piece(first, j);
          first = j;
          if (inFlight.due) yield await inFlight.take();
          const x = j < n ? fileFrom[j] : -1;
          next = x >= 0 ? pieceAt.get(x) : undefined;
          if (next !== undefined && !relisted(pieces[next].lines!)) break;
          next = undefined;
        }
      }
      if (next === undefined) {
        if (first < n) piece(first, n);
        break;
      }
      k = next;
    }
    if (inFlight.length > 0) yield await inFlight.take(true);
    yield [{ data: await compress(Buffer.concat([padding(size), END])), digest: '', files: 1, bytes: size }];
  }
}

/** Copied members known and waiting before one is handed over at once: a rebuild copies thousands (10,391 of 10,651 for a
 *  count), and a yield and an await each (an async generator's turns, the writer's loop) were on the main thread's way. */
const COPIES = 256;

/**
 * An archive's members in its order as they come: the made ones as their compression (at most IN_FLIGHT at once, the
 * oldest waited for beyond that), the copied ones as they are, handed over in batches (take): every member known at
 * the head at once, so that a run of copies between two made members is one step of the writer's loop.
 */
class InOrder {
  private readonly queue: (ArchiveMember | Promise<ArchiveMember>)[] = [];
  /** Members of queue being compressed. */
  private made = 0;

  get length(): number {
    return this.queue.length;
  }

  push(member: ArchiveMember | Promise<ArchiveMember>): void {
    if (member instanceof Promise) this.made++;
    this.queue.push(member);
  }

  /** Whether to hand members over now: more are being compressed than IN_FLIGHT, or COPIES copied ones wait. */
  get due(): boolean {
    return this.made > IN_FLIGHT || this.queue.length - this.made >= COPIES;
  }

  /** The members at the head, in order: the copied ones up to the first being compressed, which is waited for while due (all: every one). */
  async take(all = false): Promise<ArchiveMember[]> {
    const out: ArchiveMember[] = [];
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head instanceof Promise) {
        if (!all && !this.due && out.length > 0) break;
        this.queue.shift();
        this.made--;
        out.push(await head);
      } else out.push(this.queue.shift() as ArchiveMember);
    }
    return out;
  }
}

/** The place of the first of sorted numbers not below a (their length when none is). */
function lowerBound(sorted: ArrayLike<number>, a: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < a) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where site files are read into, one after the other: a file is a view of it (a member's bytes are
 *  copied out of the views when it is put together). ARENA_ROOM: a file is read into the rest of the
 *  current arena while that has at least this much room, else into a new one. */
const ARENA = 4 << 20;
const ARENA_ROOM = 256 << 10;

/**
 * Site files read into one buffer after the other (views of it): one open, one read and one close,
 * where readFileSync also asks the file's size (fstat) and allocates a buffer a file. Measured on the
 * root archive's 156,453 files: readFileSync 1.01 s user + 1.48 s system, one read into a shared
 * buffer 0.38 + 0.79 s. A read returning less than it asked for has reached the file's end (a regular
 * file: the writer wrote it and refused anything else); one that fills the room asks the size and reads
 * the rest into a buffer of the file's own.
 */
class ReadArena {
  private buffer = Buffer.allocUnsafeSlow(ARENA);
  private used = 0;

  read(file: string): Buffer {
    const fd = openToRead(file);
    try {
      return this.readOpen(file, fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The bytes of a file open at fd. */
  readOpen(file: string, fd: number): Buffer {
    if (ARENA - this.used < ARENA_ROOM) {
      this.buffer = Buffer.allocUnsafeSlow(ARENA);
      this.used = 0;
    }
    const room = ARENA - this.used;
    const n = readSync(fd, this.buffer, this.used, room, 0);
    if (n < room) {
      const content = this.buffer.subarray(this.used, this.used + n);
      // The next file starts on an 8-byte boundary.
      this.used += (n + 7) & ~7;
      return content;
    }
    const size = fstatSync(fd).size;
    const content = Buffer.allocUnsafe(size);
    this.buffer.copy(content, 0, this.used, this.used + n);
    for (let at = n; at < size; ) {
      const more = readSync(fd, content, at, size - at, at);
      if (more === 0) throw new Error(`${file} ended while it was read (${at} of ${size} bytes)`);
      at += more;
    }
    return content;
  }

  /**
   * No view of the files read is used any more (the members holding them were put together, their bytes
   * copied): the next files are read over them. A full build read 1.33 GB of files into new arenas, each
   * page of them zeroed by the kernel at its first touch and the arenas left to the collector.
   */
  reuse(): void {
    this.used = 0;
  }
}

/** A site file opened to be read, its access time left (no-atime.ts). */
const openToRead = (file: string): number => openNoAtime(file, constants.O_RDONLY);

/** Files read whose views may live long (the check of a previous manifest): never read over. Made when first
 *  asked: most builds never check a previous manifest, and each started worker and test file loading this module allocated its ARENA. */
let kept: ReadArena | null = null;
const readSiteFile = (file: string) => (kept ??= new ReadArena()).read(file);

/**
 * Files of more than one link met in an archive's pass, with their SHA-256: by device, then inode
 * number. A site whose writer made files of the same bytes hard links of one inode (or any folder
 * holding hard links) has them read and hashed once: a later path of the inode is known by an fstat of
 * the open file, and becomes the archive's link to the first file of those bytes without being read.
 */
export type SeenInodes = Map<number, Map<number, string>>;

/**
 * A site file's bytes, or, when it is the inode of a file read before in the pass, that file's SHA-256.
 * Measured on 60,000 site files: the fstat is 0.2-1.2 us of CPU more a file, where a read and a hash
 * not made are about 3 us (4.6 kB a file on average). inode: where a file of other links lies, to note
 * its SHA-256 once hashed (noteInode).
 */
function readUnlessSeen(file: string, seen: SeenInodes, arena: ReadArena): { content: Buffer; inode?: [number, number]; hex?: undefined } | { hex: string } {
  const fd = openToRead(file);
  try {
    const st = fstatSync(fd);
    // A number that is not the inode's exact number (past 2^53, some file systems) is not an identity.
    if (st.nlink < 2 || !Number.isSafeInteger(st.ino) || !Number.isSafeInteger(st.dev)) return { content: arena.readOpen(file, fd) };
    const hex = seen.get(st.dev)?.get(st.ino);
    if (hex !== undefined) return { hex };
    return { content: arena.readOpen(file, fd), inode: [st.dev, st.ino] };
  } finally {
    closeSync(fd);
  }
}

/** readUnlessSeen of a file read ahead on the prefetch thread (its bytes and fstat). */
function takenUnlessSeen({ content, dev, ino, nlink }: Taken, seen: SeenInodes): ReturnType<typeof readUnlessSeen> {
  if (nlink < 2 || !Number.isSafeInteger(ino) || !Number.isSafeInteger(dev)) return { content };
  const hex = seen.get(dev)?.get(ino);
  return hex !== undefined ? { hex } : { content, inode: [dev, ino] };
}

/** The SHA-256 of a file read whose inode has other links (readUnlessSeen). */
function noteInode(seen: SeenInodes, [dev, ino]: [number, number], hex: string): void {
  (seen.get(dev) ?? seen.set(dev, new Map()).get(dev)!).set(ino, hex);
}

/**
 * The place of the first file of each bytes in an archive's pass, by their SHA-256 (hex), as columns (DigestTable).
 * A Map of the hex strings, about 120 bytes each, grew the main thread's heap by some 100-150 MB through the 10x
 * synthetic release's archive (1.45 million files, most of distinct bytes), the end of the build its peak then.
 */
export class FirstPlaces {
  private readonly held = new DigestTable();
  private readonly digest = Buffer.alloc(DIGEST);
  private others: Map<string, number> | null = null;

  /** Whether a file of these bytes was noted (firstOr), without noting one. */
  has(hex: string): boolean {
    const digest = this.digest;
    if (hex.length !== 2 * DIGEST || digest.write(hex, 'hex') !== DIGEST) return this.others?.has(hex) ?? false;
    return this.held.find(digest) >= 0;
  }

  /** has() of the DIGEST bytes from byte at of digests. */
  hasAt(digests: Buffer, at: number): boolean {
    return this.held.find(digests, at) >= 0;
  }

  /** firstOr() of the DIGEST bytes from byte at of digests (a column of them: no hex made and read back). */
  firstOrAt(digests: Buffer, at: number, place: number): number | undefined {
    const i = this.held.find(digests, at);
    if (i >= 0) return this.held.value(i);
    this.held.add(digests, place, at);
    return undefined;
  }

  /** The place of the first file of these bytes; else undefined, and place noted as theirs. */
  firstOr(hex: string, place: number): number | undefined {
    const digest = this.digest;
    // Anything but 64 hex digits (a previous manifest's line altered by hand) by its text.
    if (hex.length !== 2 * DIGEST || digest.write(hex, 'hex') !== DIGEST) {
      this.others ??= new Map();
      const first = this.others.get(hex);
      if (first === undefined) this.others.set(hex, place);
      return first;
    }
    const i = this.held.find(digest);
    if (i >= 0) return this.held.value(i);
    this.held.add(digest, place);
    return undefined;
  }
}

/** The first 32 bits of a SHA-256 (hex). */
const prefixOf = (hex: string) => Number.parseInt(hex.slice(0, 8), 16) >>> 0;

const fail = (file: string): never => {
  throw new Error(`${file} ended before the manifest's lines written to it`);
};

/** One gzip member of the archive: its bytes, and what it holds (digest, files, bytes of the files) for the next build's reuse. */
export interface ArchiveMember {
  /** Its bytes when made; else copy: where they lie in the previous archive (the writer copies them, write/mirror.ts). */
  data?: Buffer;
  copy?: { offset: number; length: number };
  digest: string;
  files: number;
  bytes: number;
  /** The SHA-256 of the large file whose header or chunk this is. */
  owner?: string;
  /** The entries it holds (places in the archive's order, from and up to), or the manifest's lines (a piece of it). */
  entries?: [number, number];
  lines?: [number, number];
  /** A large file's chunk: its bytes in the file (a rebuild's contentChunks tries the same chunks first). */
  size?: number;
}

/** Where a previous archive's members lie in it (kept in the build state, write/mirror.ts). */
export interface ArchiveIndex {
  archiveSha256: string;
  members: { digest: string; offset: number; length: number; files: number; bytes: number; owner?: string; entries?: [number, number]; lines?: [number, number]; size?: number }[];
}

/**
 * Where each file of an archive lies in its order and manifest, and which earlier file it is a copy of
 * (kept with the index in the build state, write/mirror.ts): a rebuild that only rewrote files patches
 * the previous archive member by member (ArchivePatch) without listing, ordering or hashing the others.
 * A file's number is its line in the manifest; its place in the archive's order is that plus the folders'.
 */
export interface ArchivePlaces {
  /** The scope's folders in the archive's order (its first entries; the scope's own folders above them aside). */
  dirs: string[];
  /** Where each file's line begins in the manifest (one more: where the last ends, the manifest's size). */
  lines: Uint32Array;
  /** The first 32 bits of each file's SHA-256: which files may hold given bytes, found without reading the manifest's lines. */
  prefix: Uint32Array;
  /** The number of the first file with the same bytes, of which the file is a hard link; -1: the first. */
  target: Int32Array;
  /** Each file's size in bytes: where members end depends on it (ends), known without a stat. */
  size: Uint32Array;
}

/** An entry's (or a manifest line's) flags in a patch (ArchivePatch), by its place in the previous archive. */
/** It left the archive. */
const GONE = 1;
/** Its bytes or the file it links to changed (a line: its hash). */
const DIRTY = 2;
/** Entries (lines) are inserted right before it (at the end's place: after the last one). */
const AFTER = 4;
/** A large file's, the first of its bytes: the member before it ended because it began, which may no longer be so (it left,
 *  changed, or entries come before it). */
const BREAKS = 8;

/**
 * A rebuild that rewrote, added or removed files of the previous archive: the new archive's places and manifest,
 * and how its entries and lines map to the previous ones (the previous members holding none of the changes are
 * copied, patched()).
 */
export interface ArchivePatch {
  /** The previous archive's places, and the new one's (its folders, its manifest's lines, prefixes, links, sizes). */
  before: ArchivePlaces;
  places: ArchivePlaces;
  /** The new manifest's bytes. */
  manifest: Buffer;
  /** Each new file's number in the previous archive, or -1: new. Each new folder's place among the previous folders, or -1. */
  fileFrom: Int32Array;
  dirFrom: Int32Array;
  /** For each previous entry (one more: the end), its new place, and where the entries inserted before it begin. */
  entryAt: Int32Array;
  entryStart: Int32Array;
  /** For each previous entry (and the end), GONE, DIRTY, AFTER, BREAKS. */
  entryFlags: Uint8Array;
  /** The same for the previous manifest's lines (a file's number is its line). */
  lineAt: Int32Array;
  lineStart: Int32Array;
  lineFlags: Uint8Array;
  /** New numbers of the files whose bytes are new or changed (their sizes in places are filled as they are read). */
  fresh: Set<number>;
  /** The fresh files of LARGE bytes or more cut on a mirror thread as they were hashed (hashFiles): their sizes and chunks. */
  chunked: Map<number, { size: number; chunks: FileChunk[] }>;
  /** Nothing of the scope changed: the previous archive stays. */
  same: boolean;
}

/** What a rebuild may reuse: the previous archive's members, each file's SHA-256 where it is known unchanged. */
export interface ArchiveReuse {
  index: ArchiveIndex;
  /** Where the previous archive's files lie (null: an index without them, or one they do not match). */
  places: ArchivePlaces | null;
  /** The previous manifest's bytes. */
  manifest: Buffer;
  /** The files the writer wrote since the previous archive; whether files left or came otherwise (write/mirror.ts listChanged: patchPlan then needs the listing's removed files). */
  writtenFiles: ReadonlySet<string>;
  listChanged: boolean;
  /** The SHA-256 of a file the writer did not write since the previous archive (the previous manifest's), else undefined;
   *  fastest asked in the previous manifest's order. */
  known(path: string): string | undefined;
  /** The size of a file the writer did not write since (the previous places'), asked right after known(path); undefined when not known. */
  sizeOf(path: string): number | undefined;
  /** The previous manifest's paths, in its order (archiveOrder's: by name, then by path). */
  paths: readonly string[];
}

/**
 * What a rebuild changes in the previous archive (ArchivePatch): the files written since, in its manifest or
 * new, and, when files left or came otherwise (listChanged), the previous files no longer in the writer's
 * listing and its folders. Files of bytes a written or removed file had or has now are the only ones whose
 * first copy may have moved (any other bytes are in the same files as before): found by their hashes' first
 * bits. Null: the archive is made from the listing (no places, a list changed without a listing to say how,
 * or one whose count of the scope's files does not add up).
 */
export async function patchPlan(root: string, scope: MirrorScope, reuse: ArchiveReuse, listing: SiteListing | null = null): Promise<ArchivePatch | null> {
  const { places: before, manifest: text } = reuse;
  if (!before || (reuse.listChanged && !listing?.removed)) return null;
  const n = before.prefix.length;
  const dOld = before.dirs.length;
  const hexOf = (i: number) => text.toString('latin1', before.lines[i], before.lines[i] + 64);
  const pathOf = (i: number) => text.toString('utf8', before.lines[i] + 66, before.lines[i + 1] - 1);
  const inScope = scopeTest(scope);
  const rootDir = path.resolve(root);
  // Paths in the manifest's order, each looked for from the place of the one before (gallop): only the lines
  // looked at are spelt (spelling and looking up every previous path was 0.2 s of an add's or remove's two archives).
  const placesOf = function* (files: Iterable<string>): Generator<[string, number]> {
    let from = 0;
    for (const file of byNameThenPath([...files].filter(inScope)).paths) {
      const at = gallop(n, pathOf, file, from);
      from = at >= 0 ? at + 1 : -1 - at;
      yield [file, at];
    }
  };
  // A written file's SHA-256: the writer's (files of at most 16 KiB), else its bytes read and hashed on the
  // mirror threads (read again if its member is made): the main thread finds the files gone meanwhile and,
  // waiting, goes on with the other archive's plan (a rebuild makes its two at once). On the main thread,
  // the 214 MB of a remove's list pages and bulk files came before each archive's first member.
  const written = [...placesOf(reuse.writtenFiles)];
  const sums = listing?.sha256;
  const hexes = written.map(([file]) => sums?.(file));
  const unhashed: number[] = [];
  hexes.forEach((hex, k) => hex === undefined && unhashed.push(k));
  // The large ones cut into chunks from the same read, their previous chunks tried first (a file large before, and
  // the first of its bytes then, as patched() takes them): patched() reads only the chunks no previous member holds.
  const owned = new Map<number, ArchiveIndex['members']>();
  for (const m of reuse.index.members) if (m.owner && m.entries) (owned.get(m.entries[0]) ?? owned.set(m.entries[0], []).get(m.entries[0])!).push(m);
  const chunksBefore = unhashed.map((k): PreviousChunks | null => {
    const at = written[k][1];
    const old = at >= 0 && before.target[at] === -1 ? (owned.get(dOld + at) ?? []).slice(1) : [];
    if (old.length === 0 || old.some((m) => m.size === undefined)) return null;
    return [old.map((m) => m.size!), old.map((m) => m.digest)];
  });
  const hashing = hashFiles(unhashed.map((k) => `${rootDir}${path.sep}${written[k][0]}`), CHUNKING, chunksBefore);
  // Files gone: those the writer removed that the manifest lists. The scope's files now are the others and the
  // new written ones, else a file came or left some other way: counted, not listed.
  const gone = new Uint8Array(n);
  let removed = 0;
  let now = 0;
  if (reuse.listChanged) {
    for (const [, at] of placesOf(listing!.removed!)) {
      if (at < 0 || gone[at]) continue;
      gone[at] = 1;
      removed++;
    }
    now = scopeCount(listing!, scope, inScope);
  }
  const read = await hashing;
  const hashed: { hex: string; size: number; chunks: FileChunk[] | null }[] = hexes.map((hex) => ({ hex: hex!, size: Number.NaN, chunks: null }));
  unhashed.forEach((k, u) => (hashed[k] = read[u]));
  const changed = new Map<number, { hex: string; size: number; chunks: FileChunk[] | null }>();
  const added: { path: string; line: string; hex: string; size: number; chunks: FileChunk[] | null; point: number }[] = [];
  written.forEach(([file, at], k) => {
    const h = hashed[k];
    if (at >= 0) {
      if (h.hex !== hexOf(at)) changed.set(at, h);
    } else {
      added.push({ path: file, line: manifestLine(file, h.hex), ...h, point: -1 - at });
    }
  });
  if (reuse.listChanged) {
    // A file both rewritten and removed (the writer's lists disagree): made from the listing.
    for (const at of changed.keys()) if (gone[at]) return null;
    if (now !== n - removed + added.length) return null;
  }
  // Folders: the listing's (those of the scope, in tree order), else (no file left) the previous ones and those of the new files.
  let dirs = before.dirs;
  if (reuse.listChanged) dirs = scopeDirs(listing!, inScope, dirs);
  else if (added.length > 0) {
    const known = new Set(dirs);
    for (const a of added) for (let d = a.path.slice(0, Math.max(0, a.path.lastIndexOf('/'))); d !== '' && inScope(d) && !known.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) known.add(d);
    if (known.size > dirs.length) dirs = [...known].sort(byTreeOrder);
  }
  const dNew = dirs.length;
  const dirFrom = new Int32Array(dNew);
  const dirGone = new Uint8Array(dOld);
  // The previous folders' places where new ones come (in order).
  const dirPoints: number[] = [];
  for (let q = 0, x = 0; q <= dNew; q++) {
    while (x < dOld && (q === dNew || byTreeOrder(before.dirs[x], dirs[q]) < 0)) dirGone[x++] = 1;
    if (q === dNew) break;
    if (x < dOld && before.dirs[x] === dirs[q]) dirFrom[q] = x++;
    else {
      dirFrom[q] = -1;
      dirPoints.push(x);
    }
  }
  // The new files' order: the previous one, the files gone left out, each new file at its place (by name, then path).
  added.sort((a, b) => a.point - b.point || byArchiveOrder(a.path, b.path, b.path.slice(b.path.lastIndexOf('/') + 1)));
  const nNew = n - removed + added.length;
  const fileFrom = new Int32Array(nNew);
  const lineAt = new Int32Array(n + 1);
  const lineStart = new Int32Array(n + 1);
  const lineFlags = new Uint8Array(n + 1);
  for (let i = 0, j = 0, k = 0; i <= n; i++) {
    lineStart[i] = j;
    if (k < added.length && added[k].point === i) lineFlags[i] |= AFTER;
    while (k < added.length && added[k].point === i) fileFrom[j++] = -1 - k++;
    lineAt[i] = j;
    if (i === n) break;
    if (gone[i]) lineFlags[i] |= GONE;
    else fileFrom[j++] = i;
  }
  // The bytes whose first copy may have moved: those a written or removed file had or has now, by their hashes'
  // first bits (the previous ones in the places, no line spelt); a file of other bytes with those bits (about one
  // in 100,000) only has its own bytes' files looked at with them, as rightly.
  const wanted = new Set<number>();
  for (const [i, c] of changed) wanted.add(before.prefix[i]).add(prefixOf(c.hex));
  for (const a of added) wanted.add(prefixOf(a.hex));
  if (removed > 0) for (let i = 0; i < n; i++) if (gone[i]) wanted.add(before.prefix[i]);
  // Its top 20 bits: a remove or add wants about 23,000 prefixes, which set about 30% of 16 bits' 65,536 and left
  // as many of the scope's files to the Set; 2% of 20 bits' (128 KiB).
  const near = new Uint8Array(1 << 17);
  for (const p of wanted) near[p >>> 15] |= 1 << ((p >>> 12) & 7);
  // The new manifest: runs of previous lines copied, new lines written, changed hashes written over. With none
  // added or removed, the previous one written over in place (the same lines; the previous links kept apart).
  const inPlace = added.length === 0 && removed === 0;
  let manifest = text;
  let lines = before.lines;
  let prefix = before.prefix;
  let target = before.target.slice();
  let sizes = before.size;
  const fresh = new Set<number>();
  if (!inPlace) {
    let size = text.length;
    for (let i = 0; i < n; i++) if (gone[i]) size -= before.lines[i + 1] - before.lines[i];
    const addedLines = added.map((a) => Buffer.from(a.line));
    for (const line of addedLines) size += line.length;
    manifest = Buffer.allocUnsafe(size);
    lines = new Uint32Array(nNew + 1);
    prefix = new Uint32Array(nNew);
    target = new Int32Array(nNew);
    sizes = new Uint32Array(nNew);
    let at = 0;
    for (let j = 0; j < nNew; ) {
      const i = fileFrom[j];
      if (i < 0) {
        const k = -1 - i;
        lines[j] = at;
        at += addedLines[k].copy(manifest, at);
        prefix[j] = prefixOf(added[k].hex);
        target[j] = -1;
        fresh.add(j);
        j++;
        continue;
      }
      let end = j + 1;
      while (end < nNew && fileFrom[end] === fileFrom[end - 1] + 1) end++;
      const last = fileFrom[end - 1] + 1;
      const shift = at - before.lines[i];
      at += text.copy(manifest, at, before.lines[i], before.lines[last]);
      for (let t = j; t < end; t++) {
        const was = fileFrom[t];
        lines[t] = before.lines[was] + shift;
        prefix[t] = before.prefix[was];
        sizes[t] = before.size[was];
        const first = before.target[was];
        target[t] = first >= 0 ? lineAt[first] : -1;
      }
      j = end;
    }
    lines[nNew] = at;
  }
  for (const [i, c] of changed) {
    const j = lineAt[i];
    manifest.write(c.hex, lines[j], 'latin1');
    prefix[j] = prefixOf(c.hex);
    fresh.add(j);
    lineFlags[i] |= DIRTY;
  }
  // The written large files' chunks (hashFiles), by their new numbers.
  const chunked = new Map<number, { size: number; chunks: FileChunk[] }>();
  for (const [i, c] of changed) if (c.chunks) chunked.set(lineAt[i], { size: c.size, chunks: c.chunks });
  for (let j = 0; j < nNew; j++) {
    const a = fileFrom[j] < 0 ? added[-1 - fileFrom[j]] : undefined;
    if (a?.chunks) chunked.set(j, { size: a.size, chunks: a.chunks });
  }
  // The files of the bytes whose first copy may have moved, in the new order: the first is itself, every other a link to it.
  const holding = new Map<string, number[]>();
  for (let j = 0; j < nNew; j++) {
    // The prefix's top 20 bits first (a bit each): a Set's lookup of a number of 32 bits (a heap number past 2^30) for
    // every file was 10-20 ms of an archive's plan at load, where a few hundred prefixes are wanted.
    const p = prefix[j];
    if ((near[p >>> 15] & (1 << ((p >>> 12) & 7))) === 0 || !wanted.has(p)) continue;
    const hex = manifest.toString('latin1', lines[j], lines[j] + 64);
    (holding.get(hex) ?? holding.set(hex, []).get(hex)!).push(j);
  }
  // Entries: the folders, then the files.
  const endOld = dOld + n;
  const entryAt = new Int32Array(endOld + 1);
  const entryStart = new Int32Array(endOld + 1);
  const entryFlags = new Uint8Array(endOld + 1);
  for (let x = 0, q = 0, k = 0; x < dOld; x++) {
    entryStart[x] = q;
    if (dirPoints[k] === x) entryFlags[x] |= AFTER;
    while (dirPoints[k] === x) q++, k++;
    entryAt[x] = q;
    if (dirGone[x]) entryFlags[x] |= GONE;
    else q++;
  }
  // Folders added after the last previous one come before the first file, as files added before it do.
  const lastDirs = dirPoints.length - lowerBound(dirPoints, dOld);
  for (let i = 0; i <= n; i++) {
    const x = dOld + i;
    entryStart[x] = dNew + lineStart[i] - (i === 0 ? lastDirs : 0);
    entryAt[x] = dNew + lineAt[i];
    entryFlags[x] = lineFlags[i] & (GONE | AFTER);
    if (i === 0 && lastDirs > 0) entryFlags[x] |= AFTER;
  }
  for (const i of changed.keys()) entryFlags[dOld + i] |= DIRTY;
  for (const files of holding.values()) {
    for (const [k, j] of files.entries()) {
      const first = k === 0 ? -1 : files[0];
      target[j] = first;
      const i = fileFrom[j];
      if (i < 0) continue;
      // Its entry changes when the file it links to does (a first now a link, or the reverse, or another first).
      const was = before.target[i];
      if (first === -1 ? was !== -1 : was !== fileFrom[first]) entryFlags[dOld + i] |= DIRTY;
    }
  }
  // A large file that was the first of its bytes ended the member before it; no longer when it left, became small or a
  // link, or entries come before it.
  for (let i = 0; i < n; i++) {
    const x = dOld + i;
    if (!(entryFlags[x] & (GONE | DIRTY | AFTER)) || before.target[i] !== -1 || before.size[i] < LARGE) continue;
    const c = changed.get(i);
    if (entryFlags[x] & (GONE | AFTER) || target[lineAt[i]] !== -1 || (c !== undefined && !(c.size >= LARGE))) entryFlags[x] |= BREAKS;
  }
  const same = changed.size === 0 && added.length === 0 && removed === 0 && dNew === dOld && dirPoints.length === 0 && entryFlags.every((f) => f === 0);
  return {
    before,
    places: { dirs, lines, prefix, target, size: sizes },
    manifest,
    fileFrom,
    dirFrom,
    entryAt,
    entryStart,
    entryFlags,
    lineAt,
    lineStart,
    lineFlags,
    fresh,
    chunked,
    same,
  };
}

/** A listing's files counted by where they lie, once for every scope of a build (scopeCount). */
const listingCounts = new WeakMap<SiteListing, { counts: Map<string, number>; has: (file: string) => boolean }>();
/** The names of a scope's own files (its archive, checksum, manifest), the same in every scope. */
const OWN_NAMES = Object.values(scopeFiles(WHOLE_SITE)).map((f) => f.slice(f.lastIndexOf('/') + 1));

/**
 * How many of the listing's files the scope holds (inScope: its scopeTest), for patchPlan's check that they add up.
 * The files are counted once a listing by their path up to its second "/" (a folder two levels down, whose files a
 * scope of folders and exclusions at most two levels deep holds all or none of, but its own files), else by their
 * own path; each scope then tests those keys, not its 285,000 paths (each scope's test of every path was about half of
 * an add's or remove's patchPlan on the main thread, at load).
 */
export function scopeCount(listing: SiteListing, scope: MirrorScope, inScope: (file: string) => boolean): number {
  const shallow = (p: string) => p.split('/').length <= 2;
  if (!shallow(scope.dir) || !scope.exclude.every(shallow)) {
    let now = 0;
    for (const p of listing.files) if (inScope(p)) now++;
    return now;
  }
  let known = listingCounts.get(listing);
  if (!known) {
    known = listing.byFolder ? countedByFolder(listing.byFolder) : countedByPath(listing.files);
    listingCounts.set(listing, known);
  }
  let now = 0;
  // A folder's key tested as a path below it that no file has (NUL): what scopeTest says of every file there.
  for (const [key, n] of known.counts) if (inScope(key.endsWith('/') ? `${key}\0` : key)) now += n;
  // The scope's own files deeper than two levels, counted with their folder: left out, as scopeTest leaves them.
  for (const file of Object.values(scopeFiles(scope))) {
    const b = secondSlash(file);
    if (b >= 0 && known.has(file) && inScope(`${file.slice(0, b + 1)}\0`)) now--;
  }
  return now;
}

/** Where a path's second "/" lies (-1: none). */
function secondSlash(p: string): number {
  const a = p.indexOf('/');
  return a < 0 ? -1 : p.indexOf('/', a + 1);
}

/** scopeCount's keys of every path, and whether a file deeper than two levels named as a scope's own is listed. */
function countedByPath(files: Iterable<string>): { counts: Map<string, number>; has: (file: string) => boolean } {
  const counts = new Map<string, number>();
  const own = new Set<string>();
  for (const p of files) {
    const b = secondSlash(p);
    const key = b < 0 ? p : p.slice(0, b + 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (b >= 0 && OWN_NAMES.some((name) => p.endsWith(name))) own.add(p);
  }
  return { counts, has: (file) => own.has(file) };
}

/**
 * The same keys from the listing's count of each folder's files: a folder two levels down or deeper counts under
 * its first two; the files of the others (the root's and its folders': 21 of the shipped site's) are spelt. Both
 * scopes' counts of the shipped site's 285,000 files: 117 ms of CPU with every path spelt and cut, 20 ms by its 42,000
 * folders (medians of 12 at load 14).
 */
function countedByFolder(byFolder: NonNullable<SiteListing['byFolder']>): { counts: Map<string, number>; has: (file: string) => boolean } {
  const shallow = (folder: string) => folder.indexOf('/') < 0;
  const { counts: folders, files } = byFolder.count(shallow);
  const counts = new Map<string, number>();
  for (const p of files) counts.set(p, (counts.get(p) ?? 0) + 1);
  for (const [folder, n] of folders) {
    if (shallow(folder)) continue;
    const b = secondSlash(folder);
    const key = b < 0 ? `${folder}/` : folder.slice(0, b + 1);
    counts.set(key, (counts.get(key) ?? 0) + n);
  }
  return { counts, has: (file) => byFolder.has(file) };
}

/**
 * The scope's folders in the listing, in tree order, from its previous ones (before, in that order): those the
 * listing no longer holds left out, the others (an add's new matrix's; a remove's none) sorted and merged in.
 * The listing's 42,000 folders sorted (dirsInTreeOrder, each one's "/" replaced and back: the replacing most of it)
 * and filtered for the two scopes of the shipped site were 166 ms of CPU for a remove's, 205 ms for an add's (medians
 * of 10 at load 15); this, 30 and 36 ms.
 */
function scopeDirs(listing: SiteListing, inScope: (dir: string) => boolean, before: readonly string[]): string[] {
  const now = new Set<string>();
  for (const d of listing.dirs) if (inScope(d)) now.add(d);
  const kept = before.filter((d) => now.has(d));
  if (kept.length === now.size) return kept;
  for (const d of kept) now.delete(d);
  const dirs: string[] = [];
  let k = 0;
  for (const d of [...now].sort(byTreeOrder)) {
    while (k < kept.length && byTreeOrder(kept[k], d) < 0) dirs.push(kept[k++]);
    dirs.push(d);
  }
  while (k < kept.length) dirs.push(kept[k++]);
  return dirs;
}

/** Folders' tree order (dirsInTreeOrder's): by their paths' bytes, "/" before every other character. */
const byTreeOrder = byUnitRank((unit) => treeRank(unit));
const treeRank = (unit: number) => (unit === 47 ? -1 : unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/** Whether a path of the site is one the scope's archive holds (siteFiles' test, for one path at a time), the
 *  scope's parts taken once: asked of every path of the site (the root folder, '', is no scope's path). */
export function scopeTest(scope: MirrorScope): (file: string) => boolean {
  const own = scopeFiles(scope);
  const under = scope.dir ? `${scope.dir}/` : '';
  const left = scope.exclude.map((x) => `${x}/`);
  const leftExactly = [...scope.exclude];
  // Asked of every path of the site for each scope: no string sliced but a hidden one's first part (isSiteFile: only a
  // name starting with "." can be other than a site file), nor an excluded folder's name made again a path.
  return (file) => {
    if (under ? !file.startsWith(under) : file === '' || (file.charCodeAt(0) === 46 && !isSiteFile(file.includes('/') ? file.slice(0, file.indexOf('/')) : file))) return false;
    for (let k = 0; k < left.length; k++) if (file.startsWith(left[k]) || file === leftExactly[k]) return false;
    return file !== own.archive && file !== own.sum && file !== own.manifest;
  };
}

/** A member's entries by kind, path and content hash: equal digests, equal tar bytes. */
function memberDigest(group: readonly GroupEntry[]): string {
  // One update of the member's lines (one call per entry was 0.6 s of a one-matrix rebuild).
  let text = '';
  for (const e of group) text += `${e.kind}\0${e.path}\0${e.kind === 'dir' ? '' : e.hex}${e.kind === 'link' ? `\0${e.target}` : ''}\n`;
  return hash('sha1', text, 'base64url');
}

/** An entry of the archive as its member is put together: its bytes once read, its SHA-256 once known. */
interface GroupEntry {
  kind: 'dir' | 'file' | 'link';
  path: string;
  hex?: string;
  content?: Buffer;
  /** A link's: the path of the first file of its bytes, and their size where known. */
  target?: string;
  size?: number;
}

/** A path of the site, as the archive holds it (in its folder). */
const at = (file: string) => (file === '' ? ARCHIVE_FOLDER : `${ARCHIVE_FOLDER}/${file}`);

/** What a manifest piece's digest hashes before its lines (members' digests are of other texts: "file\0...", entries' lines, "c..."). */
const PIECE = Buffer.from('manifest\0');

/** The digest of a large file's header member: its path and content hash fix its bytes. */
const headerOf = (file: string, hex: string) => hash('sha1', `file\0${file}\0${hex}`, 'base64url');

/** The manifest line of a file the previous manifest listed: manifestLine checked its path then (its test per line was 0.13 s of a rebuild). */
const knownLine = (file: string, hex: string) => `${hex}  ${file}\n`;

/** A table of 256 pseudo-random 32-bit numbers, the same in every build (a gear hash's, FastCDC). */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    // xorshift32
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x >>> 0;
  }
  return table;
})();

/** The cut of large files as hashFiles' threads make it (contentChunks, scanning; exported for its test). */
export const CHUNKING: Chunking = { large: LARGE, min: CHUNK_MIN, max: CHUNK_MAX, bits: CHUNK_BITS, gear: GEAR };

/**
 * Where a large file's bytes are cut into members: after CHUNK_MIN bytes, at the first byte where a
 * gear hash of the last 32 bytes has its top CHUNK_BITS bits zero, or at CHUNK_MAX. The points depend
 * on the bytes around them only, so an edit moves the cuts near it and no other (gzip --rsyncable's idea).
 */
export function* contentChunks(content: Buffer, before: readonly { size?: number; digest: string }[] = []): Generator<[number, number, string?]> {
  // The file's chunks before it changed (their sizes and digests), where they begin: a chunk of the same
  // bytes at the same start ends where it did (its end depends on its bytes alone; at the file's end only
  // when it ends there again), so that its digest, which is needed anyway, stands for the scan. Tried at
  // the place before the change (at first) and at the same distance from the end (after it).
  const sizes = before.map((c) => c.size ?? Number.NaN);
  const starts = new Map<number, number>();
  let oldLength = 0;
  for (const [k, size] of sizes.entries()) {
    if (Number.isNaN(size)) return yield* scanned(content, 0);
    starts.set(oldLength, k);
    oldLength += size;
  }
  const shift = content.length - oldLength;
  const ordered = [...starts.keys()];
  // Previous chunks that may begin here: the next one; after a scanned chunk, the one as far from the
  // end, at the same place, and the nearest on either side (between two edits).
  let tries: number[] = before.length > 0 ? [0] : [];
  let from = 0;
  outer: while (from < content.length) {
    for (const k of tries) {
      if (k < 0 || k >= before.length || from + sizes[k] > content.length || (k === before.length - 1 && from + sizes[k] !== content.length)) continue;
      const to = from + sizes[k];
      const digest = chunkDigest(content, from, to);
      if (digest !== before[k].digest) continue;
      yield [from, to, digest];
      from = to;
      tries = [k + 1];
      continue outer;
    }
    const to = cutAt(content, from);
    yield [from, to];
    from = to;
    const lo = lowerBound(ordered, to);
    tries = [...new Set([starts.get(to - shift) ?? -1, starts.get(to) ?? -1, lo - 1, lo])];
  }
}

/** The chunks of a file scanned from a byte on. */
function* scanned(content: Buffer, start: number): Generator<[number, number]> {
  for (let from = start; from < content.length; ) {
    const to = cutAt(content, from);
    yield [from, to];
    from = to;
  }
}

/** Where the chunk from a byte on ends: after CHUNK_MIN bytes, where the gear hash of the last 32 bytes has its top CHUNK_BITS bits zero, or at CHUNK_MAX. */
function cutAt(content: Buffer, from: number): number {
  const mask = (2 ** CHUNK_BITS - 1) * 2 ** (32 - CHUNK_BITS);
  const last = Math.min(content.length, from + CHUNK_MAX);
  let h = 0;
  for (let i = from + CHUNK_MIN; i < last; i++) {
    h = ((h << 1) + GEAR[content[i]]) >>> 0;
    if ((h & mask) === 0) return i + 1;
  }
  return last;
}

/** A chunk's tar bytes (the last one padded to the block) and digest ("c": of its bytes, never taken for a group's or the manifest's, of their entries and lines). */
const chunkTar = (content: Buffer, from: number, to: number) => (to === content.length ? Buffer.concat([content.subarray(from, to), padding(content.length)]) : content.subarray(from, to));
const chunkDigest = (content: Buffer, from: number, to: number) => `c${hash('sha1', chunkTar(content, from, to), 'base64url')}`;

/** A chunk's tar bytes (chunkTar's) read from a file of this size: the chunk at its end padded to the block with zeros. */
function readChunk(file: string, from: number, to: number, size: number): Buffer {
  const length = to - from;
  const tar = Buffer.alloc(to === size ? length + padding(size).length : length);
  const fd = openToRead(file);
  try {
    for (let at = 0; at < length; ) at += readSync(fd, tar, at, length - at, from + at) || fail(file);
  } finally {
    closeSync(fd);
  }
  return tar;
}

/** A file's data in the tar stream: its size padded to the block (the bytes a member's cut counts, ends). */
const tarBytes = (size: number) => size + ((BLOCK - (size % BLOCK)) % BLOCK);

/** FNV-1a of a path: where members end, the same from build to build. */
function cutsAfter(p: string, cut = CUT): boolean {
  return (fnv1a(p) >>> 0) % cut === 0;
}

/** The SHA-256 of the previous manifest and the archive hash its checksum file gives. */
async function readPrevious(archiveFile: string, manifestFile: string, sumFile: string): Promise<{ innerSha256: string; archiveSha256: string } | null> {
  try {
    await stat(archiveFile);
    const line = /^([0-9a-f]{64}) {2}(.+)\n$/.exec(readFileSync(sumFile, 'utf8'));
    if (!line || line[2] !== path.basename(archiveFile)) return null;
    return { innerSha256: hashFile(manifestFile), archiveSha256: line[1] };
  } catch {
    return null;
  }
}

/**
 * What the site's folder holds, as the writer knows it (write/writer.ts listing: every file and folder
 * it wrote, kept or adopted, after removing what was not planned), so that a rebuild does not read
 * every folder again (285,403 files, 1.4 s of CPU). The writer refused links and special files before
 * it wrote.
 */
export interface SiteListing {
  files: Iterable<string>;
  /** "" is the root. */
  dirs: Iterable<string>;
  /** The SHA-256 (hex) of a file the writer wrote in this build and hashed then (write/same-bytes.ts: small files), else undefined. */
  sha256?: (file: string) => string | undefined;
  /** The same files by their slots in the writer's records, with sha256's digests found by the slot. */
  slotted?: ListingSlots;
  /** The files of the previous build the writer removed (prune): a rebuild that removed files patches its archives without them (patchPlan). */
  removed?: readonly string[];
  /** The files counted by folder, no path spelt but those of the folders `spelt` asks for; has: whether a file is listed (write/records.ts filesByFolder). */
  byFolder?: { count(spelt: (folder: string) => boolean): { counts: ReadonlyMap<string, number>; files: readonly string[] }; has(file: string): boolean };
}

/**
 * The listing's files as the writer's records hold them: slots() in the order of files (pathAt(slot) each of
 * them), and the writer's digest of a file by its slot (digestAt: where its DIGEST bytes begin in digests, or -1:
 * sha256 gives undefined). A full build's archive order carries each file's slot, and its pass takes the digest
 * without the path hashed and found in the records, a hex string made and read back into bytes to find the
 * first file of those bytes. Measured on the shipped site (both folders holding their bytes, eight alternated pairs
 * at load 3-6): the main thread's CPU in the two archives' passes 3.54-3.84 s (median 3.62) against 3.65-4.19 s
 * (median 3.91) by path.
 */
export interface ListingSlots {
  slots(): Iterable<number>;
  pathAt(slot: number): string;
  digestAt(slot: number): number;
  digests: Buffer;
}

/** A listing's folders in tree order, sorted once for all the scopes of a build (42,000 folders, two scopes). */
const inTreeOrder = new WeakMap<SiteListing, string[]>();
function dirsInTreeOrder(listing: SiteListing): string[] {
  const known = inTreeOrder.get(listing);
  if (known) return known;
  // "/" as NUL, before every other character: a folder's contents come before a sibling named with its
  // name and more. Sorted by code units (natively, no comparator) where that is the bytes' order: no
  // unit from U+D800 up.
  const keys = [...listing.dirs].map((p) => p.replaceAll('/', '\u0000'));
  if (keys.some((k) => HIGH_UNITS.test(k))) keys.sort(byPathBytes);
  else keys.sort();
  const dirs = keys.map((k) => k.replaceAll('\u0000', '/'));
  inTreeOrder.set(listing, dirs);
  return dirs;
}

/** Code units byPathBytes ranks apart from the strings' own order. */
const HIGH_UNITS = /[\ud800-\uffff]/;

/** Every file of the scope to archive: all but the archive, its checksum, the manifest and the folders left to other archives. */
function* siteFiles(root: string, scope: MirrorScope): Generator<{ path: string; kind: 'dir' | 'file' }> {
  const own = scopeFiles(scope);
  const left = (p: string) => scope.exclude.some((x) => p === x || p.startsWith(`${x}/`));
  for (const entry of walkSite(root, scope.dir)) {
    if (left(entry.path)) continue;
    if (entry.kind === 'other') throw new Error(`cannot archive ${entry.path}: not a regular file or folder`);
    if (entry.path !== own.archive && entry.path !== own.sum && entry.path !== own.manifest) yield { path: entry.path, kind: entry.kind };
  }
}

/**
 * The scope's folders in tree order, then its files grouped by name (every
 * index.json, then every index.html, …; each group in path order). gzip
 * looks back 32 KB: files of one kind side by side share most of their
 * bytes (a matrix page and its base id's, two list pages), where in tree
 * order a folder's other files lie between them. Measured on the default
 * release's site (156,771 files): 87.8 MB instead of 125.3 MB at level 5.
 */
function archiveOrder(root: string, scope: MirrorScope, listing: SiteListing | null = null, reuse: ArchiveReuse | null = null): { paths: string[]; folders: number; slots?: Int32Array } {
  // Paths alone, the folders first (folders of them): an object an entry, and one more with its name to
  // sort by, were about 200 MB of the 10x synthetic release's archive step at its start.
  const dirs: string[] = [];
  const paths: string[] = [];
  // Each path's slot in the writer's records, where the listing has them (ListingSlots).
  const slotsOf: number[] = [];
  const holds = scopeTest(scope);
  if (listing) {
    // The writer's listing, tested path by path (scopeTest: its parts taken once): each scope looks at all
    // 285,000 paths of the shipped site, and an object yielded for each by siteFiles was about 0.1 s of an
    // add's or remove's archive step.
    for (const p of dirsInTreeOrder(listing)) if (holds(p)) dirs.push(p);
    if (listing.slotted) {
      const { pathAt } = listing.slotted;
      for (const slot of listing.slotted.slots()) {
        const p = pathAt(slot);
        if (holds(p)) {
          paths.push(p);
          slotsOf.push(slot);
        }
      }
    } else for (const p of listing.files) if (holds(p)) paths.push(p);
  } else {
    for (const entry of siteFiles(root, scope)) (entry.kind === 'dir' ? dirs : paths).push(entry.path);
  }
  const folders = dirs.length;
  // The same files as the previous archive (a rebuild that added or removed none): its manifest lists them
  // in this order already (0.3 s less than sorting the shipped site's files; the index's version says this
  // code's order made it). As many files, and every file written since among them (any other was there
  // before): the same files. Each written one is looked up by halving (the manifest is in order); the
  // written files are the writer's, those of other scopes left out. Not when the list changed otherwise: a file
  // removed and another come without being written (found with its planned bytes) are as many files.
  if (reuse && !reuse.listChanged && reuse.paths.length === paths.length && [...reuse.writtenFiles].every((p) => !holds(p) || placeIn(reuse.paths.length, (i) => reuse.paths[i], p) >= 0)) {
    for (const p of reuse.paths) dirs.push(p);
    return { paths: dirs, folders };
  }
  const sorted = byNameThenPath(paths, slotsOf.length === paths.length && paths.length > 0 ? Int32Array.from(slotsOf) : undefined);
  for (const p of sorted.paths) dirs.push(p);
  return { paths: dirs, folders, slots: sorted.tags };
}

/**
 * Paths sorted by name, then by path (byPathBytes both): the names sorted apart (5,981 names for the
 * root's 156,785 files), the paths put in their name's bucket by a counting sort, each bucket sorted by
 * the strings' own order (native, no byte-order comparator) where that is byPathBytes' (no unit from
 * U+D800 up). Measured on the root's paths (CPU, four runs): 183-251 ms, where one sort of every path
 * comparing names by a comparator took 534-627 ms.
 */
export function byNameThenPath(paths: readonly string[], tags?: Int32Array): { paths: string[]; tags?: Int32Array } {
  const numberOf = new Map<string, number>();
  const names: string[] = [];
  const nameOf = new Int32Array(paths.length);
  let high = false;
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i];
    const name = p.slice(p.lastIndexOf('/') + 1);
    let k = numberOf.get(name);
    if (k === undefined) {
      k = names.length;
      numberOf.set(name, k);
      names.push(name);
    }
    nameOf[i] = k;
    high ||= HIGH_UNITS.test(p);
  }
  const rank = new Int32Array(names.length);
  Int32Array.from(names, (_, k) => k)
    .sort((a, b) => byPathBytes(names[a], names[b]))
    .forEach((k, r) => (rank[k] = r));
  // Where each name's bucket begins (start[r]: the bucket of the name of rank r), filled in the paths' order.
  const start = new Int32Array(names.length + 1);
  for (let i = 0; i < paths.length; i++) start[rank[nameOf[i]] + 1]++;
  for (let r = 0; r < names.length; r++) start[r + 1] += start[r];
  const at = start.slice(0, names.length);
  const out = new Array<string>(paths.length);
  const order = high ? byPathBytes : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  if (tags) {
    // The tags go with their paths: each bucket's input places sorted by their paths (no two paths are the same).
    const from = new Int32Array(paths.length);
    for (let i = 0; i < paths.length; i++) from[at[rank[nameOf[i]]]++] = i;
    for (let r = 0; r < names.length; r++) {
      if (start[r + 1] - start[r] < 2) continue;
      from.subarray(start[r], start[r + 1]).sort((a, b) => order(paths[a], paths[b]));
    }
    const placed = new Int32Array(paths.length);
    for (let k = 0; k < paths.length; k++) {
      out[k] = paths[from[k]];
      placed[k] = tags[from[k]];
    }
    return { paths: out, tags: placed };
  }
  for (let i = 0; i < paths.length; i++) out[at[rank[nameOf[i]]]++] = paths[i];
  for (let r = 0; r < names.length; r++) {
    if (start[r + 1] - start[r] < 2) continue;
    const bucket = out.slice(start[r], start[r + 1]).sort(order);
    for (let m = 0; m < bucket.length; m++) out[start[r] + m] = bucket[m];
  }
  return { paths: out };
}

/** The place of file among n paths in archiveOrder's order (by name, then by path; pathAt: the path at a place), by halving from place from on; -1: not there. */
export function placeIn(n: number, pathAt: (i: number) => string, file: string, from = 0): number {
  const at = placeOrPoint(n, pathAt, file, from);
  return at >= 0 ? at : -1;
}

/** placeIn's halving; when the file is not there, -1 - the place it would have (the first path after it). */
function placeOrPoint(n: number, pathAt: (i: number) => string, file: string, from = 0): number {
  const name = file.slice(file.lastIndexOf('/') + 1);
  let lo = from;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = byArchiveOrder(pathAt(mid), file, name);
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1 - lo;
}

/** placeOrPoint from place from on, for a file at or after it: steps of 1, 2, 4, … from there, then halving (files asked in order, each near the one before). */
function gallop(n: number, pathAt: (i: number) => string, file: string, from: number): number {
  const name = file.slice(file.lastIndexOf('/') + 1);
  let lo = from;
  let step = 1;
  for (let at = from; at < n; at = from + step, step *= 2) {
    const order = byArchiveOrder(pathAt(at), file, name);
    if (order === 0) return at;
    if (order > 0) return placeOrPoint(at, pathAt, file, lo);
    lo = at + 1;
  }
  return placeOrPoint(n, pathAt, file, lo);
}

/** archiveOrder's order of a path and a file (name: the file's), by name, then by path. */
const byArchiveOrder = (p: string, file: string, name: string) => byPathBytes(p.slice(p.lastIndexOf('/') + 1), name) || byPathBytes(p, file);

/** Hashes every file into the manifest file (no archive line): the check before keeping a previous archive. */
function writeInnerManifest(root: string, out: ManifestSink, scope: MirrorScope) {
  let files = 0;
  let bytes = 0;
  let manifestFile: string;
  try {
    const { paths, folders } = archiveOrder(root, scope);
    for (let place = folders; place < paths.length; place++) {
      const content = readSiteFile(path.join(root, paths[place]));
      out.write(manifestLine(paths[place], sha256(content)));
      files++;
      bytes += content.length;
    }
  } finally {
    manifestFile = out.finish();
  }
  const manifestBytes = statSync(manifestFile).size;
  return { files, bytes, manifestBytes, manifestSha256: hashFile(manifestFile) };
}
