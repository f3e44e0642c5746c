// Tar headers: ustar name/prefix split, pax for what ustar cannot hold, and
// archives of awkward trees read back by the system's tar and Python's
// tarfile (copies of a file are hard links to it).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMirror } from '../../generator/write/mirror.ts';
import { ARCHIVE, ARCHIVE_FOLDER, rel } from '../../generator/mirror/layout.ts';
import { byPathBytes, listSite } from '../../generator/mirror/manifest.ts';
import { entryHeader, paxRecord, splitUstar } from '../../generator/mirror/tar.ts';
import { intact, verifyMirror } from '../../generator/mirror/verify.ts';

const temp = mkdtempSync(path.join(os.tmpdir(), 'jaspar-tar-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const long = (n: number, part = 'abcdefghij') => Array.from({ length: n }, (_, i) => `${part}${i}`).join('/');

describe('ustar names', () => {
  it.each([
    ['short.txt', { prefix: '', name: 'short.txt' }],
    ['a'.repeat(100), { prefix: '', name: 'a'.repeat(100) }],
    [`${'p'.repeat(150)}/${'n'.repeat(100)}`, { prefix: 'p'.repeat(150), name: 'n'.repeat(100) }],
    [`${'p'.repeat(156)}/n`, null], // prefix too long
    [`${'n'.repeat(101)}`, null], // no "/" to split at
    ['Krüppel.txt', null], // not ASCII: pax
  ])('%s', (input, expected) => {
    expect(splitUstar(input)).toEqual(expected);
  });

  it('keeps a folder\'s trailing "/" in the name part', () => {
    expect(splitUstar(`${'p'.repeat(120)}/${'d'.repeat(20)}/`)).toEqual({ prefix: 'p'.repeat(120), name: `${'d'.repeat(20)}/` });
  });
});

describe('headers', () => {
  it('pax records count their own length', () => {
    for (const value of ['x', 'y'.repeat(85), 'z'.repeat(993), 'é'.repeat(50)]) {
      const record = paxRecord('path', value);
      expect(Number(record.split(' ')[0])).toBe(Buffer.byteLength(record));
    }
  });

  it('a ustar header is one block with a valid checksum; a long path gets a pax header first', () => {
    const h = entryHeader('a/b.txt', 'file', 5);
    expect(h.length).toBe(512);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
    expect(parseInt(h.subarray(148, 154).toString(), 8)).toBe(sum);
    expect(h.subarray(257, 263).toString()).toBe('ustar\0');
    const pax = entryHeader(long(30), 'file', 5);
    expect(pax.length).toBe(512 * 3);
    expect(pax[156]).toBe('x'.charCodeAt(0));
  });
});

describe('archives of awkward trees, read back by the system tar', () => {
  it('long paths (ustar prefix and pax), non-ASCII names, empty and block-sized files', async () => {
    const site = mkdtempSync(path.join(temp, 'site-'));
    const files: Record<string, string | Buffer> = {
      'index.html': '<!doctype html>\n',
      [`${'p'.repeat(120)}/${'n'.repeat(90)}.txt`]: 'fits ustar with a prefix\n',
      [`${long(30)}/deep.txt`]: 'needs pax: more than 255 bytes\n',
      'download/Krüppel ünicode.txt': 'pax path in UTF-8\n',
      'empty.txt': '',
      'block.bin': Buffer.alloc(512, 7),
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
      writeFileSync(path.join(site, file), content);
    }
    const report = await writeMirror(site);
    expect(report.files).toBe(Object.keys(files).length + 1);
    const into = mkdtempSync(path.join(temp, 'out-'));
    execFileSync('tar', ['-xzf', path.join(site, rel(ARCHIVE)), '-C', into]);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    for (const [file, content] of Object.entries(files)) expect(readFileSync(path.join(mirror, file)).equals(Buffer.from(content))).toBe(true);
    expect(listSite(mirror).files).toHaveLength(Object.keys(files).length + 1);
    expect(intact(verifyMirror(mirror))).toBe(true);
    expect(intact(verifyMirror(site))).toBe(true);
  });
});

describe('copies of a file in the archive', () => {
  // The first file of some bytes (in archive order: files grouped by name, then by path) and copies of
  // it: next to it, under a long path (pax linkpath), with a non-ASCII name, and empty files.
  const first = `${'p'.repeat(120)}/${'n'.repeat(90)}.txt`;
  const files: Record<string, string> = {
    'a/copy.txt': 'the same bytes\n',
    'b/copy.txt': 'the same bytes\n',
    [`${long(30)}/copy.txt`]: 'the same bytes\n',
    [first]: 'a target whose path needs the ustar prefix\n',
    [`z/${'n'.repeat(90)}.txt`]: 'a target whose path needs the ustar prefix\n',
    [`${long(30)}/${'n'.repeat(90)}.txt`]: 'a target whose path needs the ustar prefix\n',
    'download/Krüppel.txt': 'pax path in UTF-8\n',
    'download/Krüppel ünicode.txt': 'pax path in UTF-8\n',
    'empty.txt': '',
    'x/empty.txt': '',
    'unique.txt': 'no copy\n',
  };
  const site = mkdtempSync(path.join(temp, 'copies-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    writeFileSync(path.join(site, file), content);
  }

  it('are hard links to the first file of their bytes, with no data; GNU tar unpacks them into a mirror that verifies', async () => {
    const report = await writeMirror(site);
    expect(report.files).toBe(Object.keys(files).length + 1);
    expect(report.bytes - statSync(path.join(site, 'download/SHA256SUMS')).size).toBe(Object.values(files).reduce((n, c) => n + Buffer.byteLength(c), 0));
    const listing = execFileSync('tar', ['-tvzf', path.join(site, rel(ARCHIVE)), '--numeric-owner', '--quoting-style=literal'], { encoding: 'utf8' }).trim().split('\n');
    const links = listing.filter((l) => l.startsWith('h'));
    for (const line of links) expect(line).toMatch(/^hrw-r--r-- 0\/0 +0 \d{4}-\d\d-\d\d \d\d:\d\d /);
    // Each copy links to the first file of its bytes in the archive's order (by name, then by path).
    const inOrder = Object.keys(files).sort((x, y) => byPathBytes(path.posix.basename(x), path.posix.basename(y)) || byPathBytes(x, y));
    const expected = inOrder.filter((f, i) => inOrder.findIndex((g) => files[g] === files[f]) !== i).map((f) => `${ARCHIVE_FOLDER}/${f} link to ${ARCHIVE_FOLDER}/${inOrder.find((g) => files[g] === files[f])}`);
    expect(links.map((l) => l.slice(l.indexOf(`${ARCHIVE_FOLDER}/`)))).toEqual(expected);
    expect(expected).toHaveLength(6);
    // A target longer than the 100 bytes of the ustar link field (a pax linkpath record).
    expect(expected.some((l) => l.endsWith(`/${long(30)}/${'n'.repeat(90)}.txt`))).toBe(true);
    const into = mkdtempSync(path.join(temp, 'out-'));
    execFileSync('tar', ['-xzf', path.join(site, rel(ARCHIVE)), '-C', into]);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    for (const [file, content] of Object.entries(files)) expect(readFileSync(path.join(mirror, file), 'utf8')).toBe(content);
    expect(statSync(path.join(mirror, 'b/copy.txt')).nlink).toBe(3);
    expect(intact(verifyMirror(mirror))).toBe(true);
  });

  it('Python\'s tarfile unpacks them too (its "data" filter, the default from Python 3.14)', () => {
    const into = mkdtempSync(path.join(temp, 'py-'));
    const py = spawnSync('python3', ['-c', 'import sys, tarfile\nwith tarfile.open(sys.argv[1]) as t: t.extractall(sys.argv[2], filter="data")', path.join(site, rel(ARCHIVE)), into], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    for (const [file, content] of Object.entries(files)) expect(readFileSync(path.join(mirror, file), 'utf8')).toBe(content);
    expect(intact(verifyMirror(mirror))).toBe(true);
  });

  it('bsdtar (libarchive: the tar of macOS and Windows) unpacks them too', () => {
    const into = mkdtempSync(path.join(temp, 'bsd-'));
    const bsd = spawnSync('bsdtar', ['-xzf', path.join(site, rel(ARCHIVE)), '-C', into], { encoding: 'utf8' });
    expect(bsd.error, 'bsdtar is not installed (Debian: libarchive-tools, as .ci/run installs)').toBeUndefined();
    expect(bsd.status, bsd.stderr).toBe(0);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    for (const [file, content] of Object.entries(files)) expect(readFileSync(path.join(mirror, file), 'utf8')).toBe(content);
    expect(statSync(path.join(mirror, 'b/copy.txt')).nlink).toBe(3);
    expect(intact(verifyMirror(mirror))).toBe(true);
  });
});
