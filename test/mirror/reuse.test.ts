// A rebuilt archive reuses the previous archive's members: a large file (a
// bulk file, a list page of 1,000 records) is cut where its bytes say, so
// that one changed record compresses again the chunk around it and not the
// file; and the rebuilt archive is byte for byte the one a full build makes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeMirror, writeMirror } from '../../generator/write/mirror.ts';
import { stateDir } from '../../generator/write/state.ts';
import { CHUNKING, contentChunks } from '../../generator/mirror/archive.ts';
import { hashFiles } from '../../generator/mirror/gzip.ts';
import { COMPRESSOR } from '../../generator/mirror/deflate.ts';
import { walkSite } from '../../generator/mirror/manifest.ts';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from '../../generator/mirror/layout.ts';

const temp = mkdtempSync(path.join(os.tmpdir(), 'jaspar-reuse-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Records of a bulk file, as varied as counts are: a linear congruential generator's numbers. */
function bulk(records: number, seed: number): string {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 1000;
  const rows: string[] = [];
  for (let i = 0; i < records; i++) rows.push(`>MA${String(i).padStart(4, '0')}.1\tTF${next()}\n${['A', 'C', 'G', 'T'].map((b) => `${b} [ ${Array.from({ length: 12 }, next).join(' ')} ]`).join('\n')}\n`);
  return rows.join('');
}

function makeSite(dir: string): void {
  for (let i = 0; i < 300; i++) {
    mkdirSync(path.join(dir, `api/m${i}`), { recursive: true });
    writeFileSync(path.join(dir, `api/m${i}/index.json`), `{"id":"m${i}","name":"TF${i}"}\n`);
  }
  mkdirSync(path.join(dir, 'download'), { recursive: true });
  writeFileSync(path.join(dir, 'download/all.txt'), bulk(4000, 1));
  writeFileSync(path.join(dir, 'download/other.txt'), bulk(3000, 2));
  // Copies: hard links in the archive, to the first of their bytes (shared/a/same.txt).
  for (const k of ['a', 'b', 'c']) {
    mkdirSync(path.join(dir, `shared/${k}`), { recursive: true });
    writeFileSync(path.join(dir, `shared/${k}/same.txt`), 'the same bytes in three files\n');
  }
}

describe('a large file in the archive', () => {
  it('is cut at points its bytes fix: an edit in the middle moves no cut far from it', () => {
    const before = Buffer.from(bulk(4000, 1));
    const at = before.indexOf('>MA2000.1');
    // Bytes inserted: every byte after the record moves.
    const after = Buffer.concat([before.subarray(0, at), Buffer.from('>MA2000.2 and more'), before.subarray(at + 9)]);
    const pieces = (b: Buffer) => [...contentChunks(b)].map(([from, to]) => b.subarray(from, to).toString('latin1'));
    const old = new Set(pieces(before));
    const cut = pieces(after);
    expect(old.size).toBeGreaterThan(8);
    // Every piece ends where the next begins, and all the file is cut.
    expect(cut.join('')).toBe(after.toString('latin1'));
    expect(cut.filter((p) => !old.has(p)).length).toBeLessThanOrEqual(2);
  });

  it('is cut as a scan cuts it when the previous version\'s chunks are tried first (an edit anywhere, the same bytes, another length)', () => {
    const before = Buffer.from(bulk(4000, 1));
    const at = before.indexOf('>MA2000.1');
    const edits: Record<string, Buffer> = {
      same: before,
      middle: Buffer.concat([before.subarray(0, at), Buffer.from('>MA2000.2 and more'), before.subarray(at + 9)]),
      start: Buffer.concat([Buffer.from('#'), before.subarray(1)]),
      appended: Buffer.concat([before, Buffer.from(bulk(3, 9))]),
      cut: before.subarray(0, before.length - 70_000),
      twice: Buffer.concat([before.subarray(0, 1000), Buffer.from('x'), before.subarray(1000, at), before.subarray(at + 2)]),
    };
    const chunks = [...contentChunks(before)].map(([from, to]) => {
      const tar = to === before.length ? Buffer.concat([before.subarray(from, to), Buffer.alloc((512 - (before.length % 512)) % 512)]) : before.subarray(from, to);
      return { size: to - from, digest: `c${createHash('sha1').update(tar).digest('base64url')}` };
    });
    for (const [name, after] of Object.entries(edits)) {
      const tried = [...contentChunks(after, chunks)];
      expect(tried.map(([from, to]) => [from, to]), name).toEqual([...contentChunks(after)]);
      // Chunks found as they were are not scanned: every one but those around the edits.
      const found = tried.filter((c) => c[2] !== undefined).length;
      expect(found, name).toBeGreaterThanOrEqual(name === 'same' ? tried.length : tried.length - 4);
    }
  });

  it('is cut on a mirror thread as it is hashed (hashFiles) as contentChunks cuts it (scanned, or its previous chunks tried first), each chunk with its tar bytes\' digest; a smaller file is not cut', async () => {
    const dir = path.join(temp, 'hashed');
    mkdirSync(dir, { recursive: true });
    const big = Buffer.from(bulk(4000, 3));
    const files: Record<string, Buffer> = {
      big,
      // A length of whole blocks (its last chunk not padded), one byte more than a block's, and a file just below LARGE.
      blocks: big.subarray(0, big.length - (big.length % 512)),
      over: big.subarray(0, big.length - (big.length % 512) + 1),
      small: big.subarray(0, CHUNKING.large - 1),
    };
    const names = Object.keys(files);
    for (const name of names) writeFileSync(path.join(dir, name), files[name]);
    const got = await hashFiles(names.map((name) => path.join(dir, name)), CHUNKING);
    for (const [k, name] of names.entries()) {
      const bytes = files[name];
      expect(got[k].hex, name).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(got[k].size, name).toBe(bytes.length);
      if (name === 'small') {
        expect(got[k].chunks).toBeNull();
        continue;
      }
      const want = [...contentChunks(bytes)].map(([from, to]) => {
        const tar = to === bytes.length ? Buffer.concat([bytes.subarray(from, to), Buffer.alloc((512 - (bytes.length % 512)) % 512)]) : bytes.subarray(from, to);
        return [from, to, `c${createHash('sha1').update(tar).digest('base64url')}`];
      });
      expect(want.length, name).toBeGreaterThan(8);
      expect(got[k].chunks, name).toEqual(want);
    }
    // Its previous chunks given, tried first as contentChunks tries them: the same cuts and digests.
    const previous = got[0].chunks!;
    const at = big.indexOf('>MA2000.1');
    const edits = [
      Buffer.concat([big.subarray(0, at), Buffer.from('>MA2000.2 and more'), big.subarray(at + 9)]),
      Buffer.concat([big, Buffer.from(bulk(3, 9))]),
      big.subarray(0, big.length - 70_000),
    ];
    for (const [k, after] of edits.entries()) writeFileSync(path.join(dir, `edit${k}`), after);
    const sizes = previous.map(([from, to]) => to - from);
    const digests = previous.map(([, , digest]) => digest);
    const tried = await hashFiles(edits.map((_, k) => path.join(dir, `edit${k}`)), CHUNKING, edits.map(() => [sizes, digests]));
    for (const [k, after] of edits.entries()) {
      const want = [...contentChunks(after, previous.map(([from, to, digest]) => ({ size: to - from, digest })))].map(([from, to, known]) => {
        const tar = to === after.length ? Buffer.concat([after.subarray(from, to), Buffer.alloc((512 - (after.length % 512)) % 512)]) : after.subarray(from, to);
        return [from, to, known ?? `c${createHash('sha1').update(tar).digest('base64url')}`];
      });
      expect(tried[k].chunks, `edit ${k}`).toEqual(want);
      expect(tried[k].chunks!.filter(([, , digest]) => digests.includes(digest)).length, `edit ${k}`).toBeGreaterThan(want.length - 4);
    }
  });

  it('a rebuild after one changed record, one changed small file and a changed first copy copies every other member, and its bytes are a full build\'s', async () => {
    const site = path.join(temp, 'site');
    makeSite(site);
    const first = await writeMirror(site, { written: new Set() });
    expect(first.reused).toBe(0);
    // One record of the bulk file and one small file, as the writer writes them.
    const bulkFile = path.join(site, 'download/all.txt');
    writeFileSync(bulkFile, readFileSync(bulkFile, 'latin1').replace('>MA2000.1\tTF', '>MA2000.1\tTFX'), 'latin1');
    writeFileSync(path.join(site, 'api/m150/index.json'), '{"id":"m150","name":"changed"}\n');
    // The file the other two copies linked to: the next one is now the first, the last links to it.
    writeFileSync(path.join(site, 'shared/a/same.txt'), 'changed\n');
    const again = await writeMirror(site, { siteChanged: true, written: new Set(['download/all.txt', 'api/m150/index.json', 'shared/a/same.txt']) });
    const made = again.members! - again.reused!;
    // The bulk file's header and the chunk or two around the record, the members of m150 and of the
    // copies, the manifest's header, its changed pieces and its end.
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(9);
    expect(again.members).toBeGreaterThan(30);
    // A full build of the same files in a new folder (no state: nothing to reuse).
    const fresh = path.join(temp, 'fresh');
    const mirrorFiles = new Set([ARCHIVE, ARCHIVE_SUM, MANIFEST].map((f) => path.join(site, rel(f))));
    cpSync(site, fresh, { recursive: true, filter: (src) => !path.basename(src).startsWith('.') && !mirrorFiles.has(src) });
    const full = await writeMirror(fresh, { written: new Set() });
    expect(full.reused).toBe(0);
    expect(again.archiveSha256).toBe(full.archiveSha256);
    expect(readFileSync(path.join(site, rel(ARCHIVE))).equals(readFileSync(path.join(fresh, rel(ARCHIVE))))).toBe(true);
    // The system tar reads the changed record back.
    const unpacked = mkdtempSync(path.join(temp, 'unpacked-'));
    execFileSync('tar', ['-xzf', path.join(site, rel(ARCHIVE)), '-C', unpacked]);
    expect(readFileSync(path.join(unpacked, ARCHIVE_FOLDER, 'download/all.txt'), 'latin1')).toBe(readFileSync(bulkFile, 'latin1'));
    expect(readFileSync(path.join(unpacked, ARCHIVE_FOLDER, 'shared/a/same.txt'), 'utf8')).toBe('changed\n');
    expect(readFileSync(path.join(unpacked, ARCHIVE_FOLDER, 'shared/c/same.txt'), 'utf8')).toBe('the same bytes in three files\n');
    const links = execFileSync('tar', ['-tvzf', path.join(site, rel(ARCHIVE))], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('h'));
    expect(links.map((l) => l.slice(l.indexOf(`${ARCHIVE_FOLDER}/`)))).toEqual([`${ARCHIVE_FOLDER}/shared/c/same.txt link to ${ARCHIVE_FOLDER}/shared/b/same.txt`]);
  });

  // A copy of the site without the mirror's files and state, archived in full: what a full build makes.
  const fullBuild = async (site: string) => {
    const fresh = mkdtempSync(path.join(temp, 'fresh-'));
    const mirrorFiles = new Set([ARCHIVE, ARCHIVE_SUM, MANIFEST].map((f) => path.join(site, rel(f))));
    cpSync(site, fresh, { recursive: true, filter: (src) => !path.basename(src).startsWith('.') && !mirrorFiles.has(src) });
    const full = await writeMirror(fresh, { written: new Set() });
    expect(full.reused).toBe(0);
    return { ...full, archive: readFileSync(path.join(fresh, rel(ARCHIVE))), manifest: readFileSync(path.join(fresh, rel(MANIFEST))) };
  };
  const expectFull = async (site: string, again: { archiveSha256: string }) => {
    const full = await fullBuild(site);
    expect(again.archiveSha256).toBe(full.archiveSha256);
    expect(readFileSync(path.join(site, rel(ARCHIVE))).equals(full.archive)).toBe(true);
    expect(readFileSync(path.join(site, rel(MANIFEST))).equals(full.manifest)).toBe(true);
  };
  const edit = (site: string, file: string, text: string) => {
    mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    writeFileSync(path.join(site, file), text);
  };

  it('a rebuild that only rewrote files patches the previous archive member by member; a later copy of a changed file\'s bytes becomes a link though it was not written', async () => {
    const site = path.join(temp, 'patched');
    makeSite(site);
    // Copies of the bulk file (large: members of its own) and of m200's bytes, later in the order.
    writeFileSync(path.join(site, 'shared/b/all.txt'), bulk(4000, 1));
    writeFileSync(path.join(site, 'download/zz.txt'), 'bytes m150 will have\n');
    await writeMirror(site, { written: new Set(), listChanged: false });
    // m150 takes the bytes of download/zz.txt, which was not written: after the change it is a link to
    // m150 (its member's stored range must not be trusted); the bulk file's first copy changes, so its
    // copy in shared/b is the first of those bytes now (a large file that was a link: members of its own).
    edit(site, 'api/m150/index.json', 'bytes m150 will have\n');
    const bulkFile = path.join(site, 'download/all.txt');
    writeFileSync(bulkFile, readFileSync(bulkFile, 'latin1').replace('>MA2000.1\tTF', '>MA2000.1\tTFX'), 'latin1');
    const again = await writeMirror(site, { siteChanged: true, written: new Set(['api/m150/index.json', 'download/all.txt']), listChanged: false });
    expect(again.patched).toBe(true);
    expect(again.reused).toBeGreaterThan(0);
    await expectFull(site, again);
    const links = execFileSync('tar', ['-tvzf', path.join(site, rel(ARCHIVE))], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('h'));
    expect(links.some((l) => l.endsWith(`${ARCHIVE_FOLDER}/download/zz.txt link to ${ARCHIVE_FOLDER}/api/m150/index.json`))).toBe(true);
    expect(links.some((l) => l.includes('shared/b/all.txt'))).toBe(false);
    // And back: patched again from the patched archive's places.
    edit(site, 'api/m150/index.json', '{"id":"m150","name":"TF150"}\n');
    const back = await writeMirror(site, { siteChanged: true, written: new Set(['api/m150/index.json']), listChanged: false });
    expect(back.patched).toBe(true);
    await expectFull(site, back);
    // Nothing of the scope written: the archive stays as it is.
    const kept = await writeMirror(site, { siteChanged: true, written: new Set(), listChanged: false });
    expect(kept.written).toBe(false);
    expect(kept.archiveSha256).toBe(back.archiveSha256);
  });

  it('stored ranges are not trusted when files were added or removed, or when the places describe another manifest', async () => {
    const site = path.join(temp, 'untrusted');
    makeSite(site);
    await writeMirror(site, { written: new Set(), listChanged: false });
    // A file added (written: the list changed no other way): every place after it moves, patched.
    edit(site, 'api/m0a/index.json', '{"id":"m0a"}\n');
    const added = await writeMirror(site, { siteChanged: true, written: new Set(['api/m0a/index.json']), listChanged: false });
    expect(added.patched).toBe(true);
    await expectFull(site, added);
    // A file removed (the writer says so).
    rmSync(path.join(site, 'api/m0a'), { recursive: true });
    const removed = await writeMirror(site, { siteChanged: true, written: new Set(), listChanged: true });
    expect(removed.patched).toBe(false);
    await expectFull(site, removed);
    // A file that came without being written (found with its planned bytes): the writer says the list changed.
    edit(site, 'api/m0b/index.json', '{"id":"m0b"}\n');
    const came = await writeMirror(site, { siteChanged: true, written: new Set(), listChanged: true });
    expect(came.patched).toBe(false);
    await expectFull(site, came);
    // The manifest changed behind the step's back (not intact: hashed) while the places name the archive:
    // a place of a line may be another's.
    const manifestFile = path.join(site, rel(MANIFEST));
    const lines = readFileSync(manifestFile, 'utf8').split('\n');
    [lines[0], lines[1]] = [lines[1], lines[0]];
    writeFileSync(manifestFile, lines.join('\n'));
    edit(site, 'api/m7/index.json', '{"id":"m7","name":"changed"}\n');
    const moved = await writeMirror(site, { siteChanged: true, written: new Set(['api/m7/index.json']), listChanged: false });
    expect(moved.patched).toBe(false);
    await expectFull(site, moved);
    // The places file of another archive (the index names this one): not used.
    const places = path.join(stateDir(site), 'archive-site.places');
    const saved = readFileSync(places);
    edit(site, 'api/m8/index.json', '{"id":"m8","name":"changed"}\n');
    const next = await writeMirror(site, { siteChanged: true, written: new Set(['api/m8/index.json']), listChanged: false });
    expect(next.patched).toBe(true);
    writeFileSync(places, saved);
    edit(site, 'api/m9/index.json', '{"id":"m9","name":"changed"}\n');
    const stale = await writeMirror(site, { siteChanged: true, written: new Set(['api/m9/index.json']), listChanged: false });
    expect(stale.patched).toBe(false);
    await expectFull(site, stale);
  });

  it('a rebuild that added and removed files and folders patches the previous archive (entries and manifest lines inserted and removed), its bytes a full build\'s', async () => {
    const site = path.join(temp, 'addrm');
    makeSite(site);
    writeFileSync(path.join(site, 'download/zz.txt'), 'the same bytes in three files\n');
    await writeMirror(site, { written: new Set(), listChanged: false });
    // What the writer says after it wrote and pruned: the folder's files and folders, and the files it removed.
    const listing = (removed: string[]) => {
      const files: string[] = [];
      const dirs = [''];
      for (const e of walkSite(site)) (e.kind === 'dir' ? dirs : files).push(e.path);
      return { files, dirs, removed };
    };
    const rebuild = async (written: string[], removed: string[]) => {
      for (const file of removed) rmSync(path.join(site, file), { force: true });
      const again = await writeMirror(site, { siteChanged: true, written: new Set(written), listChanged: true, listing: listing(removed) });
      await expectFull(site, again);
      return again;
    };
    // A matrix removed (its file and folder), another added in a new folder, and a neighbour rewritten.
    rmSync(path.join(site, 'api/m7'), { recursive: true });
    edit(site, 'api/m7b/index.json', '{"id":"m7b"}\n');
    edit(site, 'api/m8/index.json', '{"id":"m8","name":"changed"}\n');
    const one = await rebuild(['api/m7b/index.json', 'api/m8/index.json'], ['api/m7/index.json']);
    expect(one.patched).toBe(true);
    expect(one.reused).toBeGreaterThan(one.members! / 2);
    // The first file of shared bytes removed (its copies link to the next one), files added first and last in the
    // order (by name: a.json, zzz.json) and one with the bytes of a later file (that file becomes its link).
    edit(site, 'api/a.json', 'the same bytes in three files\n');
    edit(site, 'zzz.json', '{}\n');
    const two = await rebuild(['api/a.json', 'zzz.json'], ['shared/a/same.txt']);
    expect(two.patched).toBe(true);
    const links = execFileSync('tar', ['-tvzf', path.join(site, rel(ARCHIVE))], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('h'));
    expect(links.some((l) => l.endsWith(`${ARCHIVE_FOLDER}/shared/b/same.txt link to ${ARCHIVE_FOLDER}/api/a.json`))).toBe(true);
    // A large file removed (the member before it ended where it began) and another added; a page grown large.
    edit(site, 'download/more.txt', bulk(3000, 3));
    edit(site, 'api/m9/index.json', bulk(2000, 4));
    const three = await rebuild(['download/more.txt', 'api/m9/index.json'], ['download/other.txt']);
    expect(three.patched).toBe(true);
    // Files removed only, then added only.
    expect((await rebuild([], ['api/m10/index.json', 'api/m11/index.json', 'zzz.json'])).patched).toBe(true);
    edit(site, 'api/m10/index.json', '{"id":"m10"}\n');
    edit(site, 'api/m10/extra/index.json', '{"id":"m10x"}\n');
    expect((await rebuild(['api/m10/index.json', 'api/m10/extra/index.json'], [])).patched).toBe(true);
    // A folder of 200 files added, then removed with its folders: runs of members inserted, then gone.
    const block = Array.from({ length: 200 }, (_, i) => `block/f${String(i).padStart(3, '0')}/index.json`);
    for (const [i, file] of block.entries()) edit(site, file, `{"block":${i}}\n`);
    expect((await rebuild(block, [])).patched).toBe(true);
    rmSync(path.join(site, 'block'), { recursive: true });
    expect((await rebuild([], block)).patched).toBe(true);
    // A file that came without being written: the scope's files do not add up, the archive is made from the listing.
    edit(site, 'api/m12/index.html', '<p>m12</p>\n');
    expect((await rebuild([], ['api/m13/index.json'])).patched).toBe(false);
  });

  it('the archive replaced is kept as the spare the next archive is written over (cut to its length), never one with another link', async () => {
    const site = path.join(temp, 'spare');
    makeSite(site);
    const first = await writeMirror(site, { written: new Set(), listChanged: false });
    const spare = path.join(stateDir(site), 'archive-site.spare.tar.gz');
    const firstBytes = readFileSync(path.join(site, rel(ARCHIVE)));
    // A longer file written: the spare (the first archive) is longer than what is written over it next.
    edit(site, 'api/m3/index.json', `${'x'.repeat(50_000)}\n`);
    const second = await writeMirror(site, { siteChanged: true, written: new Set(['api/m3/index.json']), listChanged: false });
    expect(readFileSync(spare).equals(firstBytes)).toBe(true);
    expect(second.archiveSha256).not.toBe(first.archiveSha256);
    edit(site, 'api/m3/index.json', '{"id":"m3"}\n');
    const third = await writeMirror(site, { siteChanged: true, written: new Set(['api/m3/index.json']), listChanged: false });
    await expectFull(site, third);
    // A spare with a second link (someone's file): moved aside, never written over.
    const other = path.join(temp, 'someone-else.tar.gz');
    linkSync(spare, other);
    const otherBytes = readFileSync(other);
    edit(site, 'api/m4/index.json', '{"id":"m4","name":"changed"}\n');
    const fourth = await writeMirror(site, { siteChanged: true, written: new Set(['api/m4/index.json']), listChanged: false });
    await expectFull(site, fourth);
    expect(readFileSync(other).equals(otherBytes)).toBe(true);
    // A compact build (no mirror) takes the spares with the archives.
    removeMirror(site);
    expect(existsSync(spare)).toBe(false);
  });

  it('files of tens of kB are members of a few hundred kB: one changed compresses its member again, not its name\'s run; a file grown by blocks moves cuts as a full build moves them', async () => {
    const site = path.join(temp, 'pages');
    makeSite(site);
    // 80 pages of about 20 kB (list pages of one name, as the site's index.meme.txt are): 1.6 MB.
    for (let i = 0; i < 80; i++) edit(site, `pages/p${String(i).padStart(2, '0')}/index.txt`, bulk(100, 100 + i));
    const first = await writeMirror(site, { written: new Set(), listChanged: false });
    // Cut by bytes (192-512 kB of files a member, the last file's beside), not by entries alone (a member of
    // 32 to 512 of them held all 80 pages): the index's members of small files (entries, no large file owning them).
    const groups = () =>
      readFileSync(path.join(stateDir(site), 'archive-site.tsv'), 'utf8')
        .split('\n')
        .map((l) => l.split('\t'))
        .filter((f) => f[6]?.startsWith('e') && f[5] === '')
        .map((f) => Number(f[4]));
    expect(Math.max(...groups())).toBeLessThanOrEqual(512 * 1024 + 128 * 1024);
    expect(groups().filter((bytes) => bytes >= 192 * 1024).length).toBeGreaterThanOrEqual(4);
    const page = (i: number) => `pages/p${String(i).padStart(2, '0')}/index.txt`;
    const change = async (i: number, text: string, extra: Partial<Parameters<typeof writeMirror>[1]> = {}) => {
      edit(site, page(i), text);
      return writeMirror(site, { siteChanged: true, written: new Set([page(i)]), listChanged: false, ...extra });
    };
    // One page's record changed, its size as it was: its member, the manifest's header, its piece and its end.
    const one = await change(40, readFileSync(path.join(site, page(40)), 'latin1').replace('TF', 'XX'));
    expect(one.patched).toBe(true);
    expect(one.members! - one.reused!).toBeLessThanOrEqual(4);
    await expectFull(site, one);
    // Pages grown by many blocks (the cuts after them move) and shrunk back, patched each time.
    for (const [i, text] of [[10, bulk(400, 7)], [11, bulk(300, 8)], [10, bulk(100, 110)], [11, '']] as const) {
      const again = await change(i, text);
      expect(again.patched).toBe(true);
      await expectFull(site, again);
    }
    // A page added after them (and its folder): patched, the sizes of the files not written from the places (no file read).
    const added = await change(79.5 as number, bulk(120, 5), { written: new Set(['pages/p79.5/index.txt']) });
    expect(added.patched).toBe(true);
    await expectFull(site, added);
  });

  it('an unchanged site\'s archive made by another version of the step (its index says so) is made again, as a full build would make it', async () => {
    const site = path.join(temp, 'older');
    makeSite(site);
    const first = await writeMirror(site, { written: new Set() });
    expect((await writeMirror(site)).written).toBe(false);
    // The index as an older version of the step left it (no entry ranges, version 3).
    const index = path.join(stateDir(site), 'archive-site.tsv');
    writeFileSync(index, readFileSync(index, 'utf8').replace(/^jaspar-static-api archive index \d+/, 'jaspar-static-api archive index 3'));
    const again = await writeMirror(site);
    expect(again.written).toBe(true);
    expect(again.archiveSha256).toBe(first.archiveSha256);
  });

  it('an archive whose index names another compressor (libdeflate or zlib, mirror/deflate.ts) is made again, every member, as this build\'s compressor makes it', async () => {
    const site = path.join(temp, 'other-compressor');
    makeSite(site);
    const first = await writeMirror(site, { written: new Set() });
    const index = path.join(stateDir(site), 'archive-site.tsv');
    const header = readFileSync(index, 'utf8').split('\n')[0];
    expect(header.endsWith(` ${COMPRESSOR}`)).toBe(true);
    const other = COMPRESSOR.startsWith('zlib') ? 'libdeflate 1.14' : `zlib ${process.versions.zlib}`;
    writeFileSync(index, readFileSync(index, 'utf8').replace(header, header.replace(COMPRESSOR, other)));
    // A rebuild that wrote one file: the other compressor's members are not copied, not one.
    writeFileSync(path.join(site, 'api/m7/index.json'), '{"id":"m7","name":"changed"}\n');
    const again = await writeMirror(site, { siteChanged: true, written: new Set(['api/m7/index.json']) });
    expect(again.written).toBe(true);
    expect(again.reused).toBe(0);
    expect(again.archiveSha256).not.toBe(first.archiveSha256);
    await expectFull(site, again);
  });
});
