// The I/O floor of a built site: the same files with the same bytes, read
// into memory first, written into an empty folder as fast as this machine
// allows (folders first, then files from one writer per core, each a plain
// synchronous write). Big sites are done in slices of about 256 MB so the
// bytes held stay bounded; only the writing is timed. Used by bench.ts:
//   node --import tsx scripts/io-floor.ts SITE SCRATCH [keep]   → JSON on stdout
// (keep: leave the copy in SCRATCH/floor for the caller to delete later,
// outside anything timed)
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const SLICE_BYTES = 256 * 1024 * 1024;

function listFiles(root: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const visit = (rel: string) => {
    dirs.push(rel);
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else files.push(r);
    }
  };
  visit('');
  return { files, dirs };
}

// A writer (plain JavaScript: it needs no TypeScript loader): gets
// [path, bytes][] slices, writes them, says done.
const WRITER = `const { parentPort } = require('node:worker_threads');
const { writeFileSync } = require('node:fs');
parentPort.on('message', (slice) => {
  for (const [file, bytes] of slice) writeFileSync(file, bytes);
  parentPort.postMessage('done');
});`;

{
  const [site, scratch, keep] = process.argv.slice(2);
  const threads = os.availableParallelism();
  const { files, dirs } = listFiles(site);
  const target = path.join(scratch, 'floor');
  rmSync(target, { recursive: true, force: true });
  const writers = Array.from({ length: threads }, () => new Worker(WRITER, { eval: true }));
  let seconds = 0;
  let bytes = 0;
  let t = performance.now();
  for (const d of dirs) mkdirSync(path.join(target, d), { recursive: true });
  seconds += (performance.now() - t) / 1000;
  for (let start = 0; start < files.length; ) {
    const slice: [string, Buffer][] = [];
    let size = 0;
    while (start < files.length && size < SLICE_BYTES) {
      const content = readFileSync(path.join(site, files[start]));
      slice.push([path.join(target, files[start]), content]);
      size += content.length;
      start++;
    }
    bytes += size;
    const parts = writers.map((_, i) => slice.filter((_, j) => j % threads === i));
    t = performance.now();
    await Promise.all(writers.map((w, i) => new Promise((resolve) => {
      w.once('message', resolve);
      w.postMessage(parts[i]);
    })));
    seconds += (performance.now() - t) / 1000;
  }
  await Promise.all(writers.map((w) => w.terminate()));
  if (keep !== 'keep') rmSync(target, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ files: files.length, bytes, seconds })}\n`);
}
