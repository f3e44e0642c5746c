// The archive step reads back every file of the site without setting its
// access time (O_NOATIME, mirror/archive.ts openToRead): on a file system
// mounted relatime, as Linux mounts by default, the first read of a file
// written since it was last read sets its atime and dirties its inode, a
// cost of every file a full build has just written. Nor does a rebuild's
// compare of a file with the bytes it would write (write/files.ts), which
// would otherwise be that first read now.
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMirror } from '../../generator/write/mirror.ts';
import { writeIfChanged } from '../../generator/write/files.ts';
import { walkSite } from '../../generator/mirror/manifest.ts';

const temp = mkdtempSync(path.join(os.tmpdir(), 'jaspar-atime-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe.runIf(constants.O_NOATIME !== undefined)('site files read back', () => {
  it('by the archive step (small, large, hard links): their access time unchanged', async () => {
    const site = path.join(temp, 'site');
    for (let i = 0; i < 50; i++) {
      mkdirSync(path.join(site, `api/m${i}`), { recursive: true });
      writeFileSync(path.join(site, `api/m${i}/index.json`), `{"id":"m${i}"}\n`);
    }
    mkdirSync(path.join(site, 'download'), { recursive: true });
    writeFileSync(path.join(site, 'download/all.txt'), 'x'.repeat(300_000));
    linkSync(path.join(site, 'api/m0/index.json'), path.join(site, 'api/m0/index.html'));
    // Every file's atime an hour before its mtime: a read, under relatime or strictatime, would set it to now.
    const files = [...walkSite(site)].filter((e) => e.kind === 'file').map((e) => path.join(site, e.path));
    const hourAgo = Date.now() / 1000 - 3600;
    for (const file of files) utimesSync(file, hourAgo, statSync(file).mtimeMs / 1000);
    const before = files.map((file) => statSync(file).atimeMs);
    const report = await writeMirror(site, { written: new Set() });
    // Every file is in the archive, its manifest besides.
    expect(report.files).toBe(files.length + 1);
    expect(files.map((file) => statSync(file).atimeMs)).toEqual(before);
  });

  it('by a rebuild comparing a file with its planned bytes: its access time unchanged', () => {
    const root = path.join(temp, 'compare');
    mkdirSync(path.join(root, 'api/m1'), { recursive: true });
    const file = path.join(root, 'api/m1/index.json');
    writeFileSync(file, '{"id":"m1"}\n');
    utimesSync(file, Date.now() / 1000 - 3600, statSync(file).mtimeMs / 1000);
    const before = statSync(file).atimeMs;
    const w = writeIfChanged(root, 'api/m1/index.json', '{"id":"m1"}\n', true, new Set());
    expect(w.written).toBe(false);
    expect(statSync(file).atimeMs).toBe(before);
  });
});
