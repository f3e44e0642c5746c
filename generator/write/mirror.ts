// Writes the offline mirror that mirror/archive.ts produces: the archive's
// gzip members into a temporary file, the manifest's lines into another,
// the archive's own line appended, then both renamed into place. The
// temporary files sit at the site's root with names starting with "." (not
// part of the site, mirror/layout.ts) and are removed whatever happens. An
// unchanged site keeps the previous archive and manifest untouched. Where
// each member of the archive lies is kept in the build state
// (archive-<scope>.tsv beside state.tsv, with archive-<scope>.places: where
// each file lies): after a small change the next archive copies every member
// whose files did not change, or patches the previous one member by member
// (mirror/archive.ts). The archive and manifest replaced are kept there as
// spares the next ones are written over (TempFile). The archive's bytes are
// written and hashed on a mirror thread (mirror/gzip.ts ArchiveStream), the
// runs of previous members copied there too, while the main thread reads,
// tars and hands members to the gzip workers.
import { closeSync, constants, fstatSync, ftruncateSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WHOLE_SITE, archiveMembers, patchPlan, placeIn, scopeLevel, previousMirrorKept, scopeFiles, type ArchiveIndex, type ArchivePlaces, type ArchiveReuse, type ManifestSink, type MirrorOptions, type MirrorReport, type MirrorScope, type SiteListing } from '../mirror/archive.ts';
import { ArchiveStream } from '../mirror/gzip.ts';
import { COMPRESSOR } from '../mirror/deflate.ts';
import { hashFile, manifestLine, sha256 } from '../mirror/manifest.ts';
import { remove } from './files.ts';
import { stateDir } from './state.ts';
import { mark } from '../pipeline/timeline.ts';

export type { MirrorReport, MirrorOptions } from '../mirror/archive.ts';

/**
 * A new file of the writer's (never an existing one, never through a link), written in large pieces; or
 * the spare (write/mirror.ts spareFile) moved to its name and written over. Measured on this machine:
 * writing 88 MB into a new file took 130-160 ms of CPU (its pages allocated), over an existing file's
 * cached pages 10 ms; the archives of a rebuild are 161 MB.
 */
class TempFile implements ManifestSink {
  readonly fd: number;
  private pending = '';
  private open = true;
  /** Bytes written: where a spare written over is cut. */
  private size = 0;
  constructor(readonly file: string, spare: string | null = null) {
    rmSync(file, { force: true });
    this.fd = (spare === null ? null : reopen(spare, file)) ?? openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
  }
  write(text: string | Buffer): void {
    if (typeof text !== 'string') {
      this.flush();
      for (let offset = 0; offset < text.length; ) offset += writeSync(this.fd, text, offset);
      this.size += text.length;
      return;
    }
    this.pending += text;
    if (this.pending.length >= 1 << 16) this.flush();
  }
  /** Bytes another thread wrote at the file's position (ArchiveStream), where it is cut when finished. */
  wroteElsewhere(bytes: number): void {
    this.flush();
    this.size += bytes;
  }
  private flush(): void {
    if (this.pending) this.size += writeSync(this.fd, this.pending);
    this.pending = '';
  }
  finish(): string {
    if (this.open) {
      this.flush();
      ftruncateSync(this.fd, this.size);
      closeSync(this.fd);
      this.open = false;
    }
    return this.file;
  }
}

/** The spare moved to file and opened to be written over: only a regular file of one link (never through a link); else null, and nothing left at file. */
function reopen(spare: string, file: string): number | null {
  let fd: number | null = null;
  try {
    renameSync(spare, file);
    fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (st.isFile() && st.nlink === 1) return fd;
  } catch {
    // No spare (a first build, another file system): a new file.
  }
  if (fd !== null) closeSync(fd);
  rmSync(file, { force: true });
  return null;
}

/**
 * Where the build state keeps a scope's previous archive (or manifest) when a new one replaces it: a
 * hard link made before the rename, so the replaced file is not freed, and the next build writes its
 * archive over it (TempFile) instead of into new pages. It costs the disk one archive more a scope.
 */
const spareFile = (outDir: string, scope: MirrorScope, suffix: string) => indexFile(outDir, scope).replace(/\.tsv$/, `.spare.${suffix}`);

/** Keeps the file about to be replaced as the spare, where the file system lets it. */
function keepSpare(file: string, spare: string): void {
  try {
    rmSync(spare, { force: true });
    linkSync(file, spare);
  } catch {
    // None (a first build) or not here (another file system): the next build writes a new file.
  }
}

/** Writes (or keeps) the archive and the manifest of the site in outDir. */
export async function writeMirror(outDir: string, { level: asked, siteChanged = false, scope = WHOLE_SITE, written = null, listChanged = true, listing = null, intact = () => false }: MirrorOptions & {
  written?: ReadonlySet<string> | null;
  /** Whether files left the site since the previous archive, or came without being written (default: they may have): its order is not the previous one's. */
  listChanged?: boolean;
  listing?: SiteListing | null;
  /** Whether a file is as the previous build left it (the writer's state says so): its archive is not hashed again to be trusted. */
  intact?: (rel: string) => boolean;
} = {}): Promise<MirrorReport> {
  const started = performance.now();
  const level = asked ?? scopeLevel(scope);
  const root = path.resolve(outDir);
  const files = scopeFiles(scope);
  const archiveFile = path.join(root, files.archive);
  const manifestFile = path.join(root, files.manifest);
  const temps: TempFile[] = [];
  const temp = (suffix: string, spare: string | null = null) => {
    // The scope in the name: a rebuild writes its archives at once (build.ts).
    const t = new TempFile(path.join(root, `.mirror-${process.pid}-${scopeTag(scope)}.${suffix}`), spare);
    temps.push(t);
    return t;
  };
  const done = (r: Omit<MirrorReport, 'seconds'>): MirrorReport => ({ ...r, seconds: (performance.now() - started) / 1000 });
  try {
    // An incremental build may leave the previous archive in place: keep it when nothing changed, unless
    // another version of this step made it (its index says so: no links, another level), which a full
    // build would not make.
    if (!siteChanged && !indexOutdated(outDir, scope, level)) {
      const kept = await previousMirrorKept(root, temp('check.SHA256SUMS'), scope);
      if (kept) return done(kept);
    }
    mkdirSync(path.dirname(archiveFile), { recursive: true });
    const reuse = written === null ? null : previousArchive(outDir, scope, level, archiveFile, path.join(root, files.manifest), written, listChanged, intact(files.archive) && intact(files.manifest));
    // The previous archive patched member by member (files rewritten, added or removed); none of the scope's: it stays.
    const tag = scope.dir || 'root';
    mark(`mirror ${tag}: previous archive read`);
    const patch = reuse ? await patchPlan(root, scope, reuse, listing) : null;
    mark(`mirror ${tag}: patch planned`);
    if (patch && patch.same) {
      reuse!.close();
      let [filesIn, bytesIn] = [0, 0];
      for (const m of reuse!.index.members) {
        filesIn += m.files;
        bytesIn += m.bytes;
      }
      const last = reuse!.index.members[reuse!.index.members.length - 1];
      return done({ files: filesIn, bytes: bytesIn, archiveBytes: last.offset + last.length, archiveSha256: reuse!.index.archiveSha256, written: false, patched: true });
    }
    const archive = temp('tar.gz', spareFile(outDir, scope, 'tar.gz'));
    const manifest = temp('SHA256SUMS', spareFile(outDir, scope, 'SHA256SUMS'));
    const tarred = { files: 0, bytes: 0 };
    let archiveBytes = 0;
    const members: ArchiveIndex['members'] = [];
    let reused = 0;
    const stream = new ArchiveStream(archive.fd);
    let ended = false;
    // Members copied from the previous archive, one run of them lying side by side there: read and written
    // in large pieces (a read and a buffer per member was 0.3 s of a one-count rebuild's copying).
    let run: { offset: number; length: number } | null = null;
    let firstMade = -1;
    const copyRun = () => {
      if (run) stream.copy(reuse!.fd, run.offset, run.length);
      run = null;
    };
    const placed: { places?: ArchivePlaces; manifestSha256?: string } = {};
    let archiveSha256: string;
    try {
      // Members come in batches: a copied member's step of this loop is not an await each.
      for await (const batch of archiveMembers(root, manifest, tarred, level, scope, reuse, listing, patch, placed)) {
        for (const member of batch) {
          const length = member.copy ? member.copy.length : member.data!.length;
          members.push({ digest: member.digest, offset: archiveBytes, length, files: member.files, bytes: member.bytes, owner: member.owner, entries: member.entries, lines: member.lines, size: member.size });
          archiveBytes += length;
          if (member.copy) {
            reused++;
            if (run && run.offset + run.length === member.copy.offset) run.length += length;
            else {
              copyRun();
              run = { offset: member.copy.offset, length };
            }
            continue;
          }
          copyRun();
          if (firstMade < 0) firstMade = archiveBytes - length;
          stream.put(member.data!);
        }
      }
      copyRun();
      ended = true;
      mark(`mirror ${tag}: members handed over (the first made at ${(firstMade / 1e6).toFixed(1)} of ${(archiveBytes / 1e6).toFixed(1)} MB)`);
      const wrote = await stream.end();
      mark(`mirror ${tag}: archive written (its thread)`);
      archive.wroteElsewhere(wrote.bytes);
      archiveSha256 = wrote.sha256;
    } finally {
      // The archive and the previous one stay open until the thread has written and copied all it was given.
      if (!ended) await stream.end().catch(() => {});
      reuse?.close();
    }
    archive.finish();
    manifest.finish();
    // The manifest's hash, for the next build to know the manifest it finds is this one.
    const manifestSha256 = placed.manifestSha256 ?? hashFile(manifest.file);
    // The archive's checksum, named as it lies beside it: sha256sum -c in the download folder.
    const sum = temp('tar.gz.sha256');
    sum.write(manifestLine(path.basename(archiveFile), archiveSha256));
    sum.finish();
    mkdirSync(stateDir(outDir), { recursive: true });
    keepSpare(archiveFile, spareFile(outDir, scope, 'tar.gz'));
    keepSpare(manifestFile, spareFile(outDir, scope, 'SHA256SUMS'));
    renameSync(archive.file, archiveFile);
    renameSync(manifest.file, manifestFile);
    renameSync(sum.file, path.join(root, files.sum));
    saveIndex(outDir, scope, level, { archiveSha256, members }, placed.places ?? null, manifestSha256);
    return done({ files: tarred.files, bytes: tarred.bytes, archiveBytes, archiveSha256, written: true, members: members.length, reused, patched: patch !== null });
  } finally {
    for (const t of temps) {
      t.finish();
      rmSync(t.file, { force: true });
    }
  }
}

/** A compact build has no mirror: a full build's archives and manifests left in the folder go (they are this step's files). */
export function removeMirror(outDir: string, scopes: readonly MirrorScope[] = [WHOLE_SITE]): void {
  for (const scope of scopes) {
    for (const file of Object.values(scopeFiles(scope))) remove(outDir, file);
    for (const suffix of ['tar.gz', 'SHA256SUMS']) rmSync(spareFile(outDir, scope, suffix), { force: true });
  }
}

/** Where the build state keeps the index of a scope's archive, and its places (ArchivePlaces). */
const scopeTag = (scope: MirrorScope) => (scope.dir ? scope.dir.replace(/\//g, '-') : 'site');
const indexFile = (outDir: string, scope: MirrorScope) => path.join(stateDir(outDir), `archive-${scopeTag(scope)}.tsv`);
const placesFile = (outDir: string, scope: MirrorScope) => indexFile(outDir, scope).replace(/\.tsv$/, '.places');
/** 3: links (a copy of an earlier file) and the manifest in archiveOrder's order, which a rebuild takes as its own.
 *  4: the manifest's SHA-256 after the archive's; each member's entries (e<from>-<to>, places in that
 *  order) or manifest lines (m<from>-<to>), and a large file's chunk its size; the places file beside.
 *  5: members cut by their files' bytes too (mirror/archive.ts MIN_BYTES); each file's size in the places. */
const INDEX_HEADER = 'jaspar-static-api archive index 5';
/** An index's first line: its version, and the level and compressor that made its members (another's are not this build's bytes). */
const indexHeader = (level: number) => `${INDEX_HEADER} level ${level} ${COMPRESSOR}`;

/** Whether the build state holds an index of the scope's archive made by another version of this step, at another level or by another compressor (none: a folder copied without its state, kept as it is). */
function indexOutdated(outDir: string, scope: MirrorScope, level: number): boolean {
  let text: string;
  try {
    text = readFileSync(indexFile(outDir, scope), 'utf8');
  } catch {
    return false;
  }
  return text.slice(0, text.indexOf('\n')) !== indexHeader(level);
}

const range = (tag: string, r: readonly [number, number] | undefined) => (r ? `${tag}${r[0]}-${r[1]}` : '');

function saveIndex(outDir: string, scope: MirrorScope, level: number, index: ArchiveIndex, places: ArchivePlaces | null, manifestSha256: string): void {
  mkdirSync(stateDir(outDir), { recursive: true });
  // The places first, the index that names their archive last: an index is only read with places that name the same archive.
  const file = placesFile(outDir, scope);
  if (places) savePlaces(file, places, index.archiveSha256, manifestSha256);
  else rmSync(file, { force: true });
  const lines = [indexHeader(level), index.archiveSha256, manifestSha256, ...index.members.map((m) => `${m.digest}\t${m.offset}\t${m.length}\t${m.files}\t${m.bytes}\t${m.owner ?? ''}\t${range('e', m.entries) || range('m', m.lines)}\t${m.size ?? ''}`), 'end'];
  writeFileSync(indexFile(outDir, scope), `${lines.join('\n')}\n`);
}

/**
 * The places file: a line of JSON (what it describes: the archive and manifest by SHA-256, how many
 * folders and files), padded to 4 bytes, then the typed arrays as they lie in memory (read back as views
 * of the file's bytes, no parsing: 156,000 files), then the folders' paths one a line.
 */
function savePlaces(file: string, places: ArchivePlaces, archiveSha256: string, manifestSha256: string): void {
  const n = places.prefix.length;
  let head = JSON.stringify({ archiveSha256, manifestSha256, files: n, dirs: places.dirs.length, endianness: os.endianness() });
  head += ' '.repeat((4 - ((head.length + 1) % 4)) % 4);
  const arrays = [places.lines, places.prefix, places.target, places.size].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  writeFileSync(file, Buffer.concat([Buffer.from(`${head}\n`), ...arrays, Buffer.from(places.dirs.join('\n'))]));
}

/** The places of the archive and manifest named (a copy of the arrays' bytes, aligned), or null when the file describes others. */
function readPlaces(file: string, archiveSha256: string, manifest: Buffer, manifestIntact: boolean): ArchivePlaces | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const nl = bytes.indexOf(10);
  if (nl < 0 || (nl + 1) % 4 !== 0) return null;
  let head: { archiveSha256?: unknown; manifestSha256?: unknown; files?: unknown; dirs?: unknown; endianness?: unknown };
  try {
    head = JSON.parse(bytes.toString('utf8', 0, nl));
  } catch {
    return null;
  }
  const { files: n, dirs } = head;
  if (head.archiveSha256 !== archiveSha256 || head.endianness !== os.endianness() || typeof n !== 'number' || typeof dirs !== 'number') return null;
  const arrays = nl + 1;
  const text = arrays + 4 * (4 * n + 1);
  if (bytes.length < text) return null;
  // Views need 4-byte alignment in their buffer: a copy of that part of the file.
  const words = new Uint8Array(bytes.subarray(arrays, text)).buffer;
  const lines = new Uint32Array(words, 0, n + 1);
  // The manifest they describe: its size, and its hash unless the writer's state says the file is as written.
  if (lines[n] !== manifest.length) return null;
  if (!manifestIntact && sha256(manifest) !== head.manifestSha256) return null;
  const folders = text === bytes.length ? [] : bytes.toString('utf8', text).split('\n');
  if (folders.length !== dirs) return null;
  return { dirs: folders, lines, prefix: new Uint32Array(words, 4 * (n + 1), n), target: new Int32Array(words, 4 * (2 * n + 1), n), size: new Uint32Array(words, 4 * (3 * n + 1), n) };
}

/**
 * The previous archive of the scope, to reuse its members: only when its
 * index, the archive (by its SHA-256) and the previous manifest are all
 * there and agree; `written`: the files the writer wrote since, whose
 * previous hashes no longer hold. Null: the archive is made from the files.
 */
function previousArchive(outDir: string, scope: MirrorScope, level: number, archiveFile: string, manifestFile: string, written: ReadonlySet<string>, listChanged: boolean, intact: boolean): (ArchiveReuse & { fd: number; close(): void }) | null {
  let index: ArchiveIndex;
  let manifest: Buffer;
  try {
    const lines = readFileSync(indexFile(outDir, scope), 'utf8').split('\n');
    if (lines[0] !== indexHeader(level) || lines[lines.length - 2] !== 'end') return null;
    const parseRange = (r: string): [number, number] => {
      const dash = r.indexOf('-');
      return [Number(r.slice(1, dash)), Number(r.slice(dash + 1))];
    };
    index = {
      archiveSha256: lines[1],
      members: lines.slice(3, -2).map((l) => {
        const [digest, offset, length, files, bytes, owner, at, size] = l.split('\t');
        return { digest, offset: Number(offset), length: Number(length), files: Number(files), bytes: Number(bytes), owner: owner || undefined, entries: at?.[0] === 'e' ? parseRange(at) : undefined, lines: at?.[0] === 'm' ? parseRange(at) : undefined, size: size ? Number(size) : undefined };
      }),
    };
    // The archive the index describes: as the build that wrote both left it (the build state's size and
    // ctime, checked by the writer), else by its hash (0.4 s of CPU for the two shipped archives).
    if (!intact && hashFile(archiveFile) !== index.archiveSha256) return null;
    // The manifest whose order and hashes the rebuild takes over: the one written with that archive.
    manifest = readFileSync(manifestFile);
    if (!intact && sha256(manifest) !== lines[2]) return null;
  } catch {
    return null;
  }
  const places = readPlaces(placesFile(outDir, scope), index.archiveSha256, manifest, intact);
  // The manifest this step wrote ("<64 hex>  <path>" lines, in the archive's order), cut into lines
  // without a map of them (parseManifest's was 0.5 s of a one-count rebuild): only when the archive is
  // made from the listing (files added or removed), not when it is patched.
  let listed: { paths: string[]; hexes: string[] } | null | undefined;
  const lines = () => {
    if (listed !== undefined) return listed;
    const paths: string[] = [];
    const hexes: string[] = [];
    const all = manifest.toString('utf8').split('\n');
    listed = all.pop() === '' ? { paths, hexes } : null;
    for (const line of all) {
      if (line.length < 67 || line.charCodeAt(64) !== 32 || line.charCodeAt(65) !== 32) return (listed = null);
      hexes.push(line.slice(0, 64));
      paths.push(line.slice(66));
    }
    return listed;
  };
  // Files are asked for in the manifest's order (archiveOrder): the next line's, else (files added or
  // removed) the file's line found by halving the lines after it (the manifest is in that order), from
  // which the lines are followed again; a new file moves nothing. A map of every line was 0.15-0.35 s of
  // an add's or remove's archive step (its 150,000 pairs, then collected).
  let next = 0;
  // The line of the file asked last (sizeOf follows known).
  let asked = -1;
  const hashOf = (file: string) => {
    const { paths, hexes } = lines() ?? { paths: [], hexes: [] };
    if (paths[next] !== file) {
      const line = placeIn(paths.length, (i) => paths[i], file, next);
      if (line < 0) return (asked = -1), undefined;
      next = line;
    }
    asked = next;
    return hexes[next++];
  };
  const fd = openSync(archiveFile, constants.O_RDONLY | constants.O_NOFOLLOW);
  return {
    index,
    places,
    manifest,
    writtenFiles: written,
    listChanged,
    // One lookup of the written files a file (sizeOf asks for the file known was asked for last); a written
    // file's line is passed over when it is the next one (no halving for the file after it).
    known: (file) => {
      if (!written.has(file)) return hashOf(file);
      if (lines()?.paths[next] === file) next++;
      asked = -1;
      return undefined;
    },
    // A manifest not of this step's lines: no file's hash is known, no order taken over.
    get paths() {
      return lines()?.paths ?? [];
    },
    sizeOf: (file) => (places && asked >= 0 && lines()?.paths[asked] === file ? places.size[asked] : undefined),
    // The previous archive, open: the runs of its members a new archive copies are read from it (ArchiveThread).
    fd,
    close: () => closeSync(fd),
  };
}
