// node --import tsx scripts/rebuild-floor.ts SITE SINCE_MS SCRATCH   → JSON on stdout
//
// The floor of a rebuild (issue 22): the least work the files it wrote must cost on this machine,
// whatever renders them. SITE is a built site a rebuild has just written into; the files it wrote
// are those changed since SINCE_MS (epoch milliseconds, taken before the rebuild started), the
// mirror step's own outputs (each archive, its .sha256 and its manifest) and the build's hidden
// state aside. With their bytes read into memory first (not timed), three parts are timed, each on
// one worker thread a core:
//   zlib    the files in each archive's order (by name, then path), cut in pieces of MEMBER bytes
//           and compressed at the archive's level (mirror/archive.ts scopeLevel) by the archives'
//           compressor (mirror/deflate.ts: libdeflate or zlib), no tar headers;
//   sha256  each file (its manifest line) and each archive the mirror step made (its .sha256);
//   write   each file's bytes written over a file of SCRATCH that holds them already, in place (open,
//           write, close: no new inode, no block freed), and each archive's likewise. SITE's own files
//           are not written: a file changed by another hand is one its next build trusts no more.
// Nothing is rendered and no plan is made: the sum of the three parts' CPU over the cores is a
// lower bound of what the rebuild spent after its plan. rebuild-profile.ts --floor prints it
// beside the rebuild and a no-op rebuild (the plan's checks alone). SCRATCH keeps its files (one
// a file written, numbered) for the next measure: deleting them is slow on this disk.
import { lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { WHOLE_SITE, byNameThenPath, scopeFiles, scopeLevel, type MirrorScope } from '../generator/mirror/archive.ts';
import { GZIP_MEMBER_CODE } from '../generator/mirror/deflate.ts';

/** About one member of the archive (mirror/archive.ts: 192-512 kB of files a member, 430 kB on average). */
const MEMBER = 430 * 1024;
/** One worker a core. */
const THREADS = Math.max(1, os.availableParallelism());
const RELEASE_DIR = /^releases\/\d{4}\//;

export interface Floor {
  files: number;
  bytes: number;
  archives: { scope: string; level: number; files: number; bytes: number; pieces: number; gzipped: number }[];
  /** CPU seconds of the process (its threads) and wall seconds of each part, both cores working. */
  zlib: { cpu: number; wall: number };
  sha256: { cpu: number; wall: number };
  write: { cpu: number; wall: number };
  /** The three parts' CPU over the cores: no rebuild that writes these files does its work after the plan in less wall time. */
  bound: number;
}

// A part's worker (plain JavaScript: it needs no TypeScript loader).
const PART = `const { parentPort } = require('node:worker_threads');
${GZIP_MEMBER_CODE}
const { createHash } = require('node:crypto');
const { openSync, writeSync, closeSync } = require('node:fs');
let kind = null;
let items = [];
parentPort.on('message', (message) => {
  // The items come first and are kept: their copy into this thread is not the part's cost.
  if (message !== 'go') {
    ({ kind, items } = message);
    parentPort.postMessage(null);
    return;
  }
  const out = [];
  for (const item of items) {
    if (kind === 'zlib') out.push(gzipMember(item.bytes, item.level).length);
    else if (kind === 'sha256') out.push(createHash('sha256').update(item.bytes).digest().length);
    else {
      const fd = openSync(item.file, 'r+');
      try {
        for (let at = 0; at < item.bytes.length; ) at += writeSync(fd, item.bytes, at, item.bytes.length - at, at);
      } finally {
        closeSync(fd);
      }
      out.push(item.bytes.length);
    }
  }
  parentPort.postMessage(out);
});`;

/** Every file under root (paths relative, '/'-separated) changed since `since`, hidden folders (the build's state) aside. */
function changedSince(root: string, since: number): string[] {
  const found: string[] = [];
  const visit = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.isFile() && lstatSync(path.join(root, r)).mtimeMs >= since) found.push(r);
    }
  };
  visit('');
  return found.sort();
}

/** Runs one part on a worker a core, the items dealt out in turn; its wall, the process's CPU and each item's output size. */
async function timed(kind: 'zlib' | 'sha256' | 'write', items: object[]): Promise<{ cpu: number; wall: number; out: number[] }> {
  const workers = Array.from({ length: THREADS }, () => new Worker(PART, { eval: true }));
  // Each worker started and holding its share before the clock (a thread's start and the bytes' copy are not the part's cost).
  const shares = workers.map((_, i) => items.filter((_, j) => j % THREADS === i));
  await Promise.all(workers.map((w, i) => new Promise((resolve) => {
    w.once('message', resolve);
    w.postMessage({ kind, items: shares[i] });
  })));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outs = await Promise.all(workers.map((w) => new Promise<number[]>((resolve) => {
    w.once('message', resolve);
    w.postMessage('go');
  })));
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  await Promise.all(workers.map((w) => w.terminate()));
  const out = items.map((_, j) => outs[j % THREADS][Math.floor(j / THREADS)]);
  return { cpu: (used.user + used.system) / 1e6, wall, out };
}

async function floorOf(site: string, since: number, scratch: string): Promise<Floor> {
  const root = path.resolve(site);
  const changed = changedSince(root, since);
  const scopeOf = (rel: string): MirrorScope => {
    const m = RELEASE_DIR.exec(rel);
    return m ? { dir: m[0].slice(0, -1), exclude: [] } : { ...WHOLE_SITE, exclude: ['releases'] };
  };
  const scopes = new Map<string, { scope: MirrorScope; files: string[] }>();
  for (const rel of changed) {
    const scope = scopeOf(rel);
    const entry = scopes.get(scope.dir) ?? { scope, files: [] };
    entry.files.push(rel);
    scopes.set(scope.dir, entry);
  }
  const mirrorMade = new Set<string>();
  for (const { scope } of scopes.values()) {
    const f = scopeFiles(scope);
    for (const rel of [f.archive, f.sum, f.manifest]) mirrorMade.add(rel);
  }
  const zlibItems: { bytes: Buffer; level: number; row: number }[] = [];
  const hashItems: { bytes: Buffer }[] = [];
  const writeItems: { file: string; bytes: Buffer }[] = [];
  mkdirSync(scratch, { recursive: true });
  // The copies written over: the file numbered n holds the bytes of the nth file written (made now, not timed).
  const copy = (bytes: Buffer) => {
    const file = path.join(scratch, String(writeItems.length));
    writeFileSync(file, bytes);
    writeItems.push({ file, bytes });
  };
  const archives: Floor['archives'] = [];
  let [files, bytes] = [0, 0];
  for (const { scope, files: rels } of [...scopes.values()].sort((a, b) => a.scope.dir.localeCompare(b.scope.dir))) {
    const level = scopeLevel(scope);
    // The archive's order: files of one name lie together.
    const ordered = byNameThenPath(rels.filter((r) => !mirrorMade.has(r))).paths;
    const row = { scope: scope.dir || 'root', level, files: ordered.length, bytes: 0, pieces: 0, gzipped: 0 };
    let piece: Buffer[] = [];
    let pieceBytes = 0;
    const cut = () => {
      if (pieceBytes === 0) return;
      const joined = Buffer.concat(piece, pieceBytes);
      for (let at = 0; at < joined.length; at += MEMBER) zlibItems.push({ bytes: joined.subarray(at, at + MEMBER), level, row: archives.length });
      piece = [];
      pieceBytes = 0;
    };
    for (const rel of ordered) {
      const content = readFileSync(path.join(root, rel));
      hashItems.push({ bytes: content });
      copy(content);
      piece.push(content);
      pieceBytes += content.length;
      row.bytes += content.length;
      if (pieceBytes >= MEMBER) cut();
    }
    cut();
    files += ordered.length;
    bytes += row.bytes;
    archives.push(row);
    // The archive the mirror step made, when the rebuild made it: hashed and written once more.
    const archive = scopeFiles(scope).archive;
    if (rels.includes(archive)) {
      const content = readFileSync(path.join(root, archive));
      hashItems.push({ bytes: content });
      copy(content);
    }
  }
  const zlib = await timed('zlib', zlibItems);
  zlibItems.forEach((z, j) => {
    archives[z.row].pieces++;
    archives[z.row].gzipped += zlib.out[j];
  });
  const sha256 = await timed('sha256', hashItems);
  const write = await timed('write', writeItems);
  return {
    files,
    bytes,
    archives,
    zlib: { cpu: zlib.cpu, wall: zlib.wall },
    sha256: { cpu: sha256.cpu, wall: sha256.wall },
    write: { cpu: write.cpu, wall: write.wall },
    bound: (zlib.cpu + sha256.cpu + write.cpu) / THREADS,
  };
}

{
  const [site, since, scratch] = process.argv.slice(2);
  if (!site || !Number.isFinite(Number(since)) || !scratch) {
    process.stderr.write('usage: node --import tsx scripts/rebuild-floor.ts SITE SINCE_MS SCRATCH\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await floorOf(site, Number(since), scratch))}\n`);
}
