// Tar headers: ustar name/prefix split, pax for what ustar cannot hold, and
// archives of awkward trees read back by the system's tar and Python's
// tarfile (copies of a file are hard links to it).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMirror } from '../../generator/write/mirror.ts';
import { ARCHIVE, ARCHIVE_FOLDER, MANIFEST, rel } from '../../generator/mirror/layout.ts';
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

describe('the archive\'s order', () => {
  it('is by name, then by path, each by its UTF-8 bytes (LC_ALL=C sort), names and folders beyond U+D7FF included', async () => {
    const site = mkdtempSync(path.join(temp, 'order-'));
    const names = ['index.json', 'index.json5', 'b\u{e000}', 'b\u{1f600}', 'b\u{ffff}', 'b\u00e9', 'B', 'b'];
    const folders = ['', 'x', 'x/y', 'y\u{e001}', 'y\u{1f601}', 'yy', 'y'];
    const files: string[] = [];
    for (const folder of folders) for (const name of names) files.push(folder ? `${folder}/${name}` : name);
    for (const [i, file] of files.entries()) {
      mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
      writeFileSync(path.join(site, file), `${i}\n`);
    }
    await writeMirror(site);
    const listed = readFileSync(path.join(site, rel(MANIFEST)), 'utf8').trimEnd().split('\n').map((l) => l.slice(66));
    const bytes = (text: string) => Buffer.from(text, 'utf8');
    const expected = [...files].sort((a, b) => Buffer.compare(bytes(path.posix.basename(a)), bytes(path.posix.basename(b))) || Buffer.compare(bytes(a), bytes(b)));
    expect(listed).toEqual(expected);
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

  /** A copy of the site without its archive and manifest, the site's own archive made, and the copy's files and folders as a writer's listing gives them. */
  async function listedCopy(prefix: string) {
    const hashed = mkdtempSync(path.join(temp, prefix));
    cpSync(site, hashed, { recursive: true });
    for (const f of [rel(ARCHIVE), rel(MANIFEST), `${rel(ARCHIVE)}.sha256`]) rmSync(path.join(hashed, f), { force: true });
    const before = await writeMirror(site);
    const { files: listed } = listSite(hashed);
    const dirs = [''];
    for (const f of listed) for (let d = path.posix.dirname(f); d !== '.' && !dirs.includes(d); d = path.posix.dirname(d)) dirs.push(d);
    return { hashed, before, listed, dirs };
  }

  it('from a listing that gives the writer\'s SHA-256 of the files (write/same-bytes.ts), the same bytes; a file an earlier one has the bytes of is not opened', async () => {
    const { hashed, before, listed, dirs } = await listedCopy('hashed-');
    const hexOf = new Map(listed.map((f) => [f, createHash('sha256').update(readFileSync(path.join(hashed, f))).digest('hex')]));
    // A copy the listing holds whose file is gone: read, it would fail the step.
    hexOf.set('x/unique.txt', hexOf.get('unique.txt')!);
    const made = await writeMirror(hashed, { siteChanged: true, written: null, listing: { files: [...listed, 'x/unique.txt'], dirs, sha256: (f) => hexOf.get(f) } });
    expect(made.files).toBe(before.files + 1);
    const names = execFileSync('tar', ['-tvzf', path.join(hashed, rel(ARCHIVE))], { encoding: 'utf8' });
    expect(names).toContain(`${ARCHIVE_FOLDER}/x/unique.txt link to ${ARCHIVE_FOLDER}/unique.txt`);
    // Without that file, the archive is the one made by reading every file.
    const again = await writeMirror(hashed, { siteChanged: true, written: null, listing: { files: listed, dirs, sha256: (f) => hexOf.get(f) } });
    expect(again.archiveSha256).toBe(before.archiveSha256);
  });

  it('from a listing that gives the files by the writer\'s slots and the digests by slot (ListingSlots), the same bytes as by path; a copy is not opened', async () => {
    const { hashed, before, listed, dirs } = await listedCopy('slotted-');
    // Slots as a writer's records hold them: not in the listing's order of paths, some unused (no file), some files not hashed (-1).
    const files = [...listed, 'x/unique.txt'];
    const slotOf = files.map((_, k) => 2 * (files.length - 1 - k) + 1);
    const pathAt = (slot: number) => files[(files.length - 1) - (slot - 1) / 2];
    const digests = Buffer.alloc(32 * files.length);
    const at = new Map<number, number>();
    files.forEach((f, k) => {
      if (k % 3 === 0 && f !== 'x/unique.txt' && f !== 'unique.txt') return;
      const source = f === 'x/unique.txt' ? 'unique.txt' : f;
      createHash('sha256').update(readFileSync(path.join(hashed, source))).digest().copy(digests, 32 * k);
      at.set(slotOf[k], 32 * k);
    });
    const slotted = { slots: () => slotOf, pathAt, digestAt: (slot: number) => at.get(slot) ?? -1, digests };
    // A copy the listing holds whose file is gone: read, it would fail the step.
    const made = await writeMirror(hashed, { siteChanged: true, written: null, listing: { files, dirs, slotted } });
    expect(made.files).toBe(before.files + 1);
    const names = execFileSync('tar', ['-tvzf', path.join(hashed, rel(ARCHIVE))], { encoding: 'utf8' });
    expect(names).toContain(`${ARCHIVE_FOLDER}/x/unique.txt link to ${ARCHIVE_FOLDER}/unique.txt`);
    const kept = files.slice(0, -1);
    const keptSlots = slotOf.slice(0, -1);
    const again = await writeMirror(hashed, { siteChanged: true, written: null, listing: { files: kept, dirs, slotted: { ...slotted, slots: () => keptSlots } } });
    expect(again.archiveSha256).toBe(before.archiveSha256);
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

describe('a folder holding hard links (a writer that links files of the same bytes)', () => {
  // One site of copies and one of the same paths as hard links: the first path of each bytes written,
  // every later one a link to it (in another release's folder too, outside the root archive's scope),
  // and one inode holding bytes no other path has (a link whose first path sorts after it).
  const files: [string, string][] = [
    ['api/a/index.json', '{"same":1}\n'],
    ['api/b/index.json', '{"same":1}\n'],
    ['api/c/page.txt', '{"same":1}\n'],
    ['api/d/index.json', 'other bytes\n'],
    ['releases/2026/api/a/index.json', '{"same":1}\n'],
    ['releases/2026/api/e/index.json', 'other bytes\n'],
    ['z/late.txt', 'two paths, one inode\n'],
    ['a/early.txt', 'two paths, one inode\n'],
    ['unique.txt', 'no copy\n'],
  ];
  const make = (linked: boolean) => {
    const site = mkdtempSync(path.join(temp, linked ? 'linked-' : 'copied-'));
    const written = new Map<string, string>();
    for (const [file, content] of files) {
      const at = path.join(site, file);
      mkdirSync(path.dirname(at), { recursive: true });
      const first = written.get(content);
      if (linked && first) linkSync(first, at);
      else writeFileSync(at, content);
      if (!first) written.set(content, at);
    }
    return site;
  };
  const scopes = [
    { dir: '', exclude: ['releases'] },
    { dir: 'releases/2026', exclude: [] },
  ];

  it('gives the same archives and manifests as copies of the files, read once an inode', async () => {
    const copied = make(false);
    const linked = make(true);
    expect(statSync(path.join(linked, 'api/a/index.json')).nlink).toBe(4);
    expect(statSync(path.join(copied, 'api/a/index.json')).nlink).toBe(1);
    for (const scope of scopes) {
      const [a, b] = [await writeMirror(copied, { scope }), await writeMirror(linked, { scope })];
      expect(b).toMatchObject({ files: a.files, bytes: a.bytes, archiveSha256: a.archiveSha256 });
      const manifest = path.join(scope.dir, rel(MANIFEST));
      expect(readFileSync(path.join(linked, manifest), 'utf8')).toBe(readFileSync(path.join(copied, manifest), 'utf8'));
    }
    const into = mkdtempSync(path.join(temp, 'out-'));
    execFileSync('tar', ['-xzf', path.join(linked, rel(ARCHIVE)), '-C', into]);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    for (const [file, content] of files) if (!file.startsWith('releases/')) expect(readFileSync(path.join(mirror, file), 'utf8')).toBe(content);
    expect(intact(verifyMirror(mirror))).toBe(true);
  });

  it("two scopes' archives made at once (a rebuild's) are those made one after the other", async () => {
    const [one, both] = [make(false), make(false)];
    const apart = [];
    for (const scope of scopes) apart.push(await writeMirror(one, { scope }));
    const together = await Promise.all(scopes.map((scope) => writeMirror(both, { scope })));
    expect(together.map((r) => r.archiveSha256)).toEqual(apart.map((r) => r.archiveSha256));
    for (const scope of scopes) {
      const manifest = path.join(scope.dir, rel(MANIFEST));
      expect(readFileSync(path.join(both, manifest), 'utf8')).toBe(readFileSync(path.join(one, manifest), 'utf8'));
    }
  });

  it('an inode written over in place, and a path of it replaced by a file of its own, are archived with their new bytes', async () => {
    const linked = make(true);
    await writeMirror(linked, { scope: scopes[0] });
    // Every path of the inode changes (what an inode's bytes were in an earlier pass says nothing now).
    writeFileSync(path.join(linked, 'a/early.txt'), 'both paths changed\n');
    rmSync(path.join(linked, 'api/b/index.json'));
    writeFileSync(path.join(linked, 'api/b/index.json'), 'new bytes\n');
    await writeMirror(linked, { scope: scopes[0], siteChanged: true });
    const into = mkdtempSync(path.join(temp, 'out-'));
    execFileSync('tar', ['-xzf', path.join(linked, rel(ARCHIVE)), '-C', into]);
    const mirror = path.join(into, ARCHIVE_FOLDER);
    expect(readFileSync(path.join(mirror, 'z/late.txt'), 'utf8')).toBe('both paths changed\n');
    expect(readFileSync(path.join(mirror, 'api/b/index.json'), 'utf8')).toBe('new bytes\n');
    expect(readFileSync(path.join(mirror, 'api/c/page.txt'), 'utf8')).toBe('{"same":1}\n');
    expect(intact(verifyMirror(mirror))).toBe(true);
  });
});
