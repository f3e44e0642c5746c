// The archives' gzip members: by libdeflate where scripts/native.mjs built its addon (generator/mirror/native/deflate.c,
// over Debian's libdeflate-dev; `npm ci` builds it), else by Node's zlib. Both are deterministic; they make different
// bytes, so an archive's index names the compressor that made its members (write/mirror.ts), and a rebuild with the
// other remakes every member rather than mixing them. On the shipped site (both archives; 2026-11-28, members of
// 430 kB, alternated at load 11-12) libdeflate took 5.5-6.2 + 1.8-2.0 s of CPU for 90.5 + 65.1 MB where Node's zlib
// took 7.6-8.5 + 2.6-3.5 s for 93.3 + 77.5 MB: a quarter to a third less CPU, 9% smaller (the shipped archives: 92.7 + 66.8 MB against 95.5 + 78.4).
//
// JASPAR_DEFLATE=zlib makes a build use zlib though the addon is there (the tests of the fallback, A/B benches).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** deflate.c's ADDON_VERSION: an addon of another (an old build left in .cache/) is not used. */
const ADDON_VERSION = 1;
/** Where scripts/native.mjs builds the addon. */
export const ADDON_FILE = fileURLToPath(new URL('../../.cache/native/deflate.node', import.meta.url));

interface Addon {
  gzip(data: Uint8Array, level: number): Buffer;
  compressor: string;
  addonVersion: number;
}

function loadAddon(): Addon | null {
  if (process.env.JASPAR_DEFLATE === 'zlib' || !existsSync(ADDON_FILE)) return null;
  try {
    const addon = createRequire(import.meta.url)(ADDON_FILE) as Addon;
    return addon.addonVersion === ADDON_VERSION ? addon : null;
  } catch {
    // Built for another Node or against a libdeflate since removed: zlib, as without it.
    return null;
  }
}

const addon = loadAddon();

/** What makes the members: "libdeflate 1.14", or "zlib" and Node's zlib version (a Node with another zlib makes other bytes). */
export const COMPRESSOR: string = addon?.compressor ?? `zlib ${process.versions.zlib}`;

/** One gzip member of bytes at a level (zlib's memory level 9), its header's OS byte as the compressor wrote it (gzip.ts fix). */
export const gzipMember: (data: Uint8Array, level: number) => Buffer = addon ? (data, level) => addon.gzip(data, level) : (data, level) => gzipSync(data, { level, memLevel: 9 });

/** gzipMember for a mirror thread's code (CommonJS, gzip.ts WORKER): the same compressor, loaded there. */
export const GZIP_MEMBER_CODE = addon
  ? `const gzipMember = require(${JSON.stringify(ADDON_FILE)}).gzip;`
  : `const gzipMember = (data, level) => require('node:zlib').gzipSync(data, { level, memLevel: 9 });`;
