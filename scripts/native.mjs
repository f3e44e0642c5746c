// node scripts/native.mjs: builds the archive's compressor (generator/mirror/native/deflate.c, a Node-API addon over
// Debian's libdeflate) into .cache/native/deflate.node; `npm ci` runs it (package.json's install script), and again
// after libdeflate's headers are installed (`apt-get install libdeflate-dev`, then `npm run native`).
// Without a C compiler, Node's headers or libdeflate it says so and leaves the build to Node's zlib: the same site,
// archives about 9% larger (mirror/deflate.ts). It never fails an install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'generator/mirror/native/deflate.c');
const OUT = path.join(ROOT, '.cache/native/deflate.node');
// Node's own headers, as an official build installs them (bin/node beside include/node).
const HEADERS = path.join(path.dirname(process.execPath), '..', 'include', 'node');

function fallback(why) {
  rmSync(OUT, { force: true });
  console.log(`native: ${why}; the mirror archives use Node's zlib (apt-get install libdeflate-dev, then npm run native, for libdeflate: about 8% smaller, a quarter to a third less CPU)`);
}

const cc = process.env.CC || 'cc';
if (!existsSync(path.join(HEADERS, 'node_api.h'))) fallback(`no Node headers at ${HEADERS}`);
else {
  mkdirSync(path.dirname(OUT), { recursive: true });
  const temp = `${OUT}.${process.pid}.tmp`;
  const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', `-I${HEADERS}`, SOURCE, '-ldeflate', '-o', temp], { encoding: 'utf8' });
  if (r.error) fallback(`no C compiler (${cc}: ${r.error.code ?? r.error.message})`);
  else if (r.status !== 0) {
    rmSync(temp, { force: true });
    fallback(/libdeflate\.h|-ldeflate/.test(r.stderr) ? 'libdeflate is not installed' : `${cc} failed: ${r.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
  } else {
    renameSync(temp, OUT);
    console.log(`native: ${path.relative(ROOT, OUT)} built (libdeflate for the mirror archives)`);
  }
}
