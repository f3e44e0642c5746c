// A rebuilt archive reuses the previous archive's members: a large file (a
// bulk file, a list page of 1,000 records) is cut where its bytes say, so
// that one changed record compresses again the chunk around it and not the
// file; and the rebuilt archive is byte for byte the one a full build makes.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMirror } from '../../generator/write/mirror.ts';
import { stateDir } from '../../generator/write/state.ts';
import { contentChunks } from '../../generator/mirror/archive.ts';
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

  it('an unchanged site\'s archive made by another version of the step (its index says so) is made again, as a full build would make it', async () => {
    const site = path.join(temp, 'older');
    makeSite(site);
    const first = await writeMirror(site, { written: new Set() });
    expect((await writeMirror(site)).written).toBe(false);
    // The index as an older version of the step left it (no links, version 2).
    const index = path.join(stateDir(site), 'archive-site.tsv');
    writeFileSync(index, readFileSync(index, 'utf8').replace(/^jaspar-static-api archive index \d+/, 'jaspar-static-api archive index 2'));
    const again = await writeMirror(site);
    expect(again.written).toBe(true);
    expect(again.archiveSha256).toBe(first.archiveSha256);
  });
});
