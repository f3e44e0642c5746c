// Tar headers (POSIX ustar, pax extended headers where ustar cannot hold a
// path or size), as pure functions. Everything that could differ between two
// builds is fixed: owner 0:0 without names, mode 0644/0755, one mtime, no
// device numbers; the caller supplies entries in a fixed order.

export const BLOCK = 512;

/** The timestamp of every folder: 1985-10-26T08:15:00Z, the one `npm pack`
 *  uses. A fixed date keeps the archive reproducible; 0 (1970) makes some
 *  tools warn about implausible dates. */
export const FIXED_MTIME = 499_162_500;

/** A file's timestamp: FIXED_MTIME plus 30 bits of its SHA-256 (up to 2019):
 *  reproducible, and it changes when the bytes change, so validators servers
 *  derive from mtime and size (nginx's ETag, If-Modified-Since with nginx's
 *  exact match) change with the file (issue 19: every file had the same mtime,
 *  and a changed file of the same size kept its ETag). It may go backwards
 *  from one build to the next: a server comparing If-Modified-Since by
 *  "not newer" (Apache) may then answer 304; clients also send the ETag. */
export function contentMtime(sha256Hex: string): number {
  return FIXED_MTIME + (Number.parseInt(sha256Hex.slice(0, 8), 16) & 0x3fffffff);
}

/** 'link': a hard link to a file entry before it (typeflag 1, no data: its bytes are the target's). */
export type EntryType = 'file' | 'dir' | 'link';

const MAX_OCTAL_SIZE = 8 ** 11 - 1;
const TYPEFLAG: Record<EntryType, string> = { file: '0', dir: '5', link: '1' };

/** The header block(s) of one entry: a pax header first when needed, then the ustar header. A link's
 *  size is 0 (it has no data) and `target` is the path of the entry it links to. */
export function entryHeader(path: string, type: EntryType, size: number, mtime = FIXED_MTIME, target = ''): Buffer {
  if (path.includes('\0') || target.includes('\0')) throw new Error(`tar path "${path}" contains a NUL byte`);
  const name = type === 'dir' && !path.endsWith('/') ? `${path}/` : path;
  const split = splitUstar(name);
  const pax: [string, string][] = [];
  if (split === null) pax.push(['path', name]);
  if (size > MAX_OCTAL_SIZE) pax.push(['size', String(size)]);
  // The link's target: ASCII of at most 100 bytes in the ustar field, else a pax "linkpath" record.
  const linkFits = /^[\x20-\x7e]{0,100}$/.test(target);
  if (!linkFits) pax.push(['linkpath', target]);
  const header = ustarHeader(split ?? fallbackName(name), TYPEFLAG[type], type === 'dir' ? 0o755 : 0o644, size > MAX_OCTAL_SIZE ? 0 : size, mtime, linkFits ? target : ascii(target).slice(-100));
  if (pax.length === 0) return header;
  const body = Buffer.from(pax.map(([k, v]) => paxRecord(k, v)).join(''), 'utf8');
  const paxName = fallbackName({ prefix: '', name: `PaxHeader/${name.replace(/\/$/, '').split('/').pop()}` });
  return Buffer.concat([ustarHeader(paxName, 'x', 0o644, body.length, mtime), body, padding(body.length), header]);
}

/** Zero bytes that fill a member of `size` bytes up to the next block: a view of one shared block (never
 *  written to: the callers concatenate it), not a buffer allocated and zeroed for each of 285,000 files. */
export function padding(size: number): Buffer {
  return ZEROS.subarray(0, (BLOCK - (size % BLOCK)) % BLOCK);
}

const ZEROS = Buffer.alloc(BLOCK);

/** The end of an archive: two zero blocks. */
export const END = Buffer.alloc(2 * BLOCK);

interface UstarName {
  prefix: string;
  name: string;
}

/** name ≤ 100 bytes, or prefix ≤ 155 bytes + "/" + name ≤ 100 bytes; null when neither fits (or not ASCII). */
export function splitUstar(path: string): UstarName | null {
  if (!/^[\x20-\x7e]*$/.test(path)) return null;
  if (path.length <= 100) return { prefix: '', name: path };
  // A directory's trailing "/" belongs to the name part.
  const body = path.endsWith('/') ? path.slice(0, -1) : path;
  for (let i = body.indexOf('/'); i !== -1; i = body.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (prefix.length <= 155 && name.length <= 100 && name.length > 0) return { prefix, name };
  }
  return null;
}

/** What a reader without pax support sees: the path cut to fit (ASCII, ≤ 100 bytes). */
function fallbackName(name: string | UstarName): UstarName {
  if (typeof name !== 'string') return { prefix: name.prefix, name: ascii(name.name).slice(0, 100) };
  return { prefix: '', name: ascii(name).slice(-100) };
}

const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, '_');

/** "LEN key=value\n", LEN counting the whole record in bytes, its own digits included. */
export function paxRecord(key: string, value: string): string {
  const rest = Buffer.byteLength(` ${key}=${value}\n`);
  let digits = String(rest).length;
  while (String(rest + digits).length !== digits) digits++;
  return `${rest + digits} ${key}=${value}\n`;
}

function ustarHeader(path: UstarName, typeflag: string, mode: number, size: number, mtime: number, linkname = ''): Buffer {
  // The fields that vary written over a copy of a block holding those that never do, the checksum summed
  // over the former only. Measured on the 156,788 paths of the root archive (the same bytes for each, at
  // load 9): 1.06-1.19 us a header, where a string of the whole block built, summed over its 512
  // characters and encoded was 1.92-2.03 us (about 0.25 s of CPU for a full build's 285,000 headers).
  // Each field's characters stored and summed in one loop (every field is ASCII here: splitUstar and
  // fallbackName make the names so, the numbers are octal digits), not a binding call a field (block.write)
  // and a sum apart: entryHeader for the root archive's 156,785 paths took 91-104 ms of CPU, where it
  // took 156-213 ms (four alternating runs at load; the same bytes).
  const name = fits(path.name, 100);
  const prefix = fits(path.prefix, 155);
  const link = fits(linkname, 100);
  const block = Buffer.allocUnsafe(BLOCK);
  FIXED.copy(block);
  // Checksum: the byte sum with the checksum field read as eight spaces (FIXED_SUM holds them and the fixed fields).
  let sum = FIXED_SUM + put(block, 0, name) + put(block, 100, octal(mode, 8)) + put(block, 124, octal(size, 12)) + put(block, 136, octal(mtime, 12));
  sum += put(block, 156, typeflag) + put(block, 157, link) + put(block, 345, prefix);
  put(block, 148, `${sum.toString(8).padStart(6, '0')}\u0000 `);
  return block;
}

/** ASCII text stored at a block's offset; returns the sum of its bytes. */
function put(block: Buffer, offset: number, text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    block[offset + i] = c;
    sum += c;
  }
  return sum;
}

/** A header's fields that never vary, every other byte NUL: uid and gid 0 (numeric owners, as `tar
 *  --numeric-owner` writes them; uname and gname empty), magic and version, devmajor and devminor 0. */
const FIXED = (() => {
  const block = Buffer.alloc(BLOCK);
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  block.write(octal(0, 8), 329, 'latin1');
  block.write(octal(0, 8), 337, 'latin1');
  return block;
})();
const FIXED_SUM = FIXED.reduce((a, b) => a + b, 8 * 0x20);

/** Text for a field of `width` bytes (never longer: the callers cut names to fit); the block's NULs pad it. */
function fits(text: string, width: number): string {
  if (text.length > width) throw new Error(`"${text}" does not fit a ${width}-byte tar field`);
  return text;
}

/** An octal number in `width` bytes: width-1 digits, zero-padded, then NUL. */
function octal(value: number, width: number): string {
  const digits = value.toString(8);
  if (digits.length > width - 1) throw new Error(`${value} does not fit a ${width}-byte tar field`);
  return `${digits.padStart(width - 1, '0')}\u0000`;
}
