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
// Cost: files are read, hashed and tarred on the main thread; the tar
// stream is cut into 4 MiB blocks that zlib compresses on the thread pool,
// a few at a time, so both cores compress. Memory is bounded by one file and
// the blocks in flight, whatever the size of the site: folders are read one
// at a time and the manifest goes to the writer's temporary file as it grows.
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { gzip } from 'node:zlib';
import os from 'node:os';
import { promisify } from 'node:util';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from './layout.ts';
import { byPathBytes, chunksOf, hashFile, manifestLine, sha256, walkSite } from './manifest.ts';
import { END, contentMtime, entryHeader, padding } from './tar.ts';

/** Measured on the full 2024 site (531 MB, 139,837 files; CPU seconds of
 *  the whole step, reading and hashing included): level 1 110 MB in 8.0 s,
 *  3 104 MB 8.9 s, 4 94 MB 9.4 s, 5 88.5 MB 10.8 s, 6 (zlib's default)
 *  86.6 MB 16.7 s. Level 5 is the knee: 2% larger than 6 for two thirds of
 *  its time. */
export const GZIP_LEVEL = 5;
/** The tar stream is compressed in blocks of this size, each its own gzip
 *  member (RFC 1952 allows several; gzip, GNU tar, Python's tarfile, zlib
 *  and BGZF readers join them), so that both cores compress. Measured on the
 *  2024 site: 7.1 s instead of 9.7 s as one stream, the archive 0.2% larger
 *  (88.8 MB). */
const BLOCK = 4 << 20;
/** Blocks being compressed while the next is read: one per core, plus one. */
const IN_FLIGHT = os.availableParallelism() + 1;
const gzipBlock = promisify(gzip);

export interface MirrorReport {
  /** Files in the archive (its manifest included) and their bytes unpacked. */
  files: number;
  bytes: number;
  archiveBytes: number;
  archiveSha256: string;
  /** False when the previous archive and manifest already matched the site and were kept. */
  written: boolean;
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
  write(text: string): void;
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
export async function* archiveMembers(root: string, sink: ManifestSink, tarred: { files: number; bytes: number }, level = GZIP_LEVEL, scope: MirrorScope = WHOLE_SITE): AsyncGenerator<Buffer> {
  const fix = (member: Buffer) => {
    member[9] = 3; // zlib writes the OS it was built for into byte 9 of the header: 3 (Unix) everywhere
    return member;
  };
  // Blocks are compressed on the thread pool, a few at a time, and handed over in order.
  const inFlight: Promise<Buffer>[] = [];
  for (const block of blocks(tarEntries(root, sink, tarred, scope), BLOCK)) {
    inFlight.push(gzipBlock(block, { level, memLevel: 9 }));
    if (inFlight.length > IN_FLIGHT) yield fix(await inFlight.shift()!);
  }
  while (inFlight.length > 0) yield fix(await inFlight.shift()!);
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
function archiveOrder(root: string, scope: MirrorScope): { path: string; kind: 'dir' | 'file' }[] {
  const dirs: { path: string; kind: 'dir' }[] = [];
  const files: { path: string; kind: 'file'; name: string }[] = [];
  for (const entry of siteFiles(root, scope)) {
    if (entry.kind === 'dir') dirs.push({ path: entry.path, kind: 'dir' });
    else files.push({ path: entry.path, kind: 'file', name: entry.path.slice(entry.path.lastIndexOf('/') + 1) });
  }
  files.sort((a, b) => byPathBytes(a.name, b.name) || byPathBytes(a.path, b.path));
  return [...dirs, ...files];
}

/** Hashes every file into the manifest file (no archive line): the check before keeping a previous archive. */
function writeInnerManifest(root: string, out: ManifestSink, scope: MirrorScope) {
  let files = 0;
  let bytes = 0;
  let manifestFile: string;
  try {
    for (const entry of archiveOrder(root, scope)) {
      if (entry.kind !== 'file') continue;
      const content = readFileSync(path.join(root, entry.path));
      out.write(manifestLine(entry.path, sha256(content)));
      files++;
      bytes += content.length;
    }
  } finally {
    manifestFile = out.finish();
  }
  const manifestBytes = statSync(manifestFile).size;
  return { files, bytes, manifestBytes, manifestSha256: hashFile(manifestFile) };
}

/** The tar stream: the folder, then the scope's folders and files (archiveOrder), then the manifest of all of them. */
function* tarEntries(root: string, manifest: ManifestSink, out: { files: number; bytes: number }, scope: MirrorScope): Generator<Buffer> {
  const inArchive = (file: string) => `${ARCHIVE_FOLDER}/${file}`;
  let manifestFile: string;
  try {
    yield entryHeader(ARCHIVE_FOLDER, 'dir', 0);
    // Another release's archive: the folders it lies in first (releases/, releases/2026/).
    const parts = scope.dir ? scope.dir.split('/') : [];
    for (let i = 1; i <= parts.length; i++) yield entryHeader(inArchive(parts.slice(0, i).join('/')), 'dir', 0);
    for (const entry of archiveOrder(root, scope)) {
      if (entry.kind === 'dir') {
        yield entryHeader(inArchive(entry.path), 'dir', 0);
        continue;
      }
      // Files are read whole: the site's largest are a few MB (bulk files, _redirects).
      const content = readFileSync(path.join(root, entry.path));
      out.files++;
      out.bytes += content.length;
      const hex = sha256(content);
      manifest.write(manifestLine(entry.path, hex));
      yield entryHeader(inArchive(entry.path), 'file', content.length, contentMtime(hex));
      yield content;
      yield padding(content.length);
    }
  } finally {
    manifestFile = manifest.finish();
  }
  // The manifest last: it lists everything before it, not itself. Its folder (download/) came before.
  const size = statSync(manifestFile).size;
  out.files++;
  out.bytes += size;
  yield entryHeader(inArchive(scopeFiles(scope).manifest), 'file', size, contentMtime(hashFile(manifestFile)));
  for (const bytes of chunksOf(manifestFile)) yield Buffer.from(bytes); // a copy: the chunk buffer is reused
  yield padding(size);
  yield END;
}

/** Cuts a stream of buffers into blocks of exactly `size` bytes (the last one shorter). */
function* blocks(source: Iterable<Buffer>, size: number): Generator<Buffer> {
  let block = Buffer.allocUnsafe(size);
  let filled = 0;
  for (const part of source) {
    for (let offset = 0; offset < part.length; ) {
      const n = part.copy(block, filled, offset);
      offset += n;
      filled += n;
      if (filled === size) {
        yield block;
        block = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield block.subarray(0, filled);
}
