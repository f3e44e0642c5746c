// A record's digest: a short hash of everything a matrix record holds
// (counts, annotations, binding sites) but its row in matrices.csv, which
// only breaks ties in the list order (plan/views.ts listOrder): a list's
// order is that of its records' digests, and no format prints a row. With
// the row, a matrix added or removed changed the digest of every record
// after it (every row shifts), and a rebuild rendered 25,574 of the shipped
// site's 47,785 tasks again instead of the pages that show or follow it in
// a list (issue 22). Rendering tasks are keyed by
// the digests of the records they render (pipeline/schedule.ts), so that a
// rebuild finds what one changed record affects without rendering anything.
// Computed once per record object and build. A hash of plain JavaScript, not
// node:crypto: the planners that call it are bundled into the Cloudflare
// Worker too (edge/render-missing.ts), which has no node:crypto.
import { BASES, type Matrix, type Pfm } from './types.ts';

const digests = new WeakMap<Matrix, string>();

/**
 * Records whose binding sites are read from their file when asked (dataset/sites.ts withSites), with what stands
 * for their text in the digest: its MD5 and length, taken when the file was read and checked (a text read again
 * must have them). Asking for the text to hash it read all 281 BED files of the shipped 2024 release again, and
 * hashed their 9.8 million characters, in every rebuild's plan: 0.26 + 0.15 s of its 0.8 s of digests (profile
 * at load 10). A WeakMap here, not in sites.ts: this module is bundled into the Cloudflare Worker, without node:crypto.
 */
export const sitesDigests = new WeakMap<object, string>();

/** Whether a record has binding sites, without reading a BED file held by its file (sitesDigests): the plan asks
 *  this of every record three times (the sites' pages, their BED files, the edge indexes), each read and checked
 *  all 281 files of the shipped 2024 release again. */
export const hasSites = (m: Matrix): boolean => sitesDigests.has(m) || m.sites !== null;

/** JSON prints -0 as 0 and NaN as null; a format may print them apart (a Python float "-0.0"). */
const exact = (_key: string, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `number ${Object.is(v, -0) ? '-0' : v}` : v);

/** A record's digest as an earlier build computed it, for a record it kept unchanged (dataset/official/index.ts: a
 *  kept merge), so that it is not computed again. Only for a record whose every field is as it was then. */
export function knownDigest(m: Matrix, digest: string): void {
  digests.set(m, digest);
}

/** A record's own fields but these, in its order, as a rest pattern would take them, without reading the ones left
 *  out (`sites` is an accessor that reads its file: dataset/sites.ts). */
export function fieldsBut<K extends keyof Matrix>(m: Matrix, ...but: K[]): Omit<Matrix, K> {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(m)) if (!(but as string[]).includes(key)) rest[key] = m[key as keyof Matrix];
  return rest as Omit<Matrix, K>;
}

export function matrixDigest(m: Matrix): string {
  let d = digests.get(m);
  if (d === undefined) {
    // The binding sites (up to hundreds of KB of BED text, 9.8 million characters for the shipped
    // releases) hashed as they are: printed as JSON, each tab and line break escaped, they were most
    // of the digests' cost (0.3 s of a rebuild's plan at load).
    // The counts hashed as numbers, not printed: JSON printed 1.8 million characters of counts for the
    // shipped releases' 9,850 records, about a third of the digests' cost (0.28 s of a rebuild's plan at load 8).
    const record = fieldsBut(m, 'row', 'sites', 'pfm');
    let sites = sitesDigests.get(m);
    if (sites === undefined) sites = m.sites === null ? 'no sites' : hash128(m.sites);
    d = hash128(`${exactJson(record)}\0${pfmDigest(m.pfm)}\0${sites}`);
    digests.set(m, d);
  }
  return d;
}

/**
 * JSON.stringify(value, exact), with the replacer only where a value needs it: it is called for
 * every key and value, about a hundred a record (the counts), and was most of the 0.27 s a rebuild's
 * plan spent on the digests of 9,850 records (profile at load 9). Without -0, NaN or infinities the
 * replacer returns every value as it is: the same text.
 */
function exactJson(value: unknown): string {
  return plain(value) ? JSON.stringify(value) : JSON.stringify(value, exact);
}

/** Whether JSON prints every number of a value apart (no -0, NaN or infinity in it). */
function plain(value: unknown): boolean {
  if (typeof value === 'number') return value === 0 ? !Object.is(value, -0) : Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plain(value[i])) return false;
    return true;
  }
  for (const key in value) if (!plain((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** The digests of records in order, as one string (a list page's items, a base id's versions). */
export const digestsOf = (matrices: readonly Matrix[]): string => matrices.map(matrixDigest).join(',');

/**
 * The counts' digest (a logo's input: the counts alone): hash128 of each count's 64 bits as two 32-bit units,
 * base by base after each row's length. The bits tell -0 from 0 and keep every digit JSON would print.
 */
export function pfmDigest(pfm: Pfm): string {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  let c = 0xc2b2ae35;
  let d = 0x27d4eb2f;
  let n = 0;
  for (const base of BASES) {
    const row = pfm[base];
    a = Math.imul(a ^ row.length, 0x01000193);
    b = Math.imul(b ^ row.length, 0x5bd1e995);
    for (let i = 0; i < row.length; i++) {
      NUMBER[0] = row[i];
      // Each half into every lane, as hash128 a code unit (a whole count's low half is 0).
      for (let k = 0; k < 2; k++) {
        const u = HALVES[k];
        a = Math.imul(a ^ u, 0x01000193);
        b = Math.imul(b ^ u, 0x5bd1e995);
        c = Math.imul((c << 5) | (c >>> 27), 0xcc9e2d51) ^ u;
        d = Math.imul((d << 13) | (d >>> 19), 0x1b873593) ^ u;
      }
    }
    n += 2 * row.length + 1;
  }
  return finish(a, b, c, d, n);
}

/** One number's 64 bits, as two 32-bit halves (pfmDigest). */
const NUMBER = new Float64Array(1);
const HALVES = new Uint32Array(NUMBER.buffer);

/**
 * 128 bits of a text in four 32-bit lanes, each code unit mixed into every
 * lane with its own multiplier, then each lane finished with the other
 * lanes (MurmurHash3's finaliser). Not for secrecy: a key only has to tell
 * one record's content from another's.
 */
export function hash128(text: string): string {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  let c = 0xc2b2ae35;
  let d = 0x27d4eb2f;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ u, 0x5bd1e995);
    c = Math.imul((c << 5) | (c >>> 27), 0xcc9e2d51) ^ u;
    d = Math.imul((d << 13) | (d >>> 19), 0x1b873593) ^ u;
  }
  return finish(a, b, c, d, text.length);
}

/** Each lane finished with the others and the input's length (MurmurHash3's finaliser), as 32 hex digits. The
 *  digits from a table a byte at a time: toString(16), padStart and join were about 5 us a hash, more than
 *  hashing a record's 340 characters, and a plan hashes 60,000 texts (0.3 s of a rebuild's plan at load 12). */
function finish(a: number, b: number, c: number, d: number, length: number): string {
  return hex8(fin(a, d, length)) + hex8(fin(b, a, length)) + hex8(fin(c, b, length)) + hex8(fin(d, c, length));
}

function fin(h: number, salt: number, length: number): number {
  h = (h ^ salt ^ length) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** A 32-bit unsigned number as 8 hex digits. */
const hex8 = (h: number): string => HEX[h >>> 24] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];

/** FNV-1a over the UTF-16 code units, as a small integer (a typed array's entry, or a Map key without a heap number). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
