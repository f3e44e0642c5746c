// Links inside the output folder are never followed (issue 15.3): replacing
// OUT/static by a link to another folder made a build delete a file there
// and write site files into it. Now any link or special file found in the
// output folder stops the build before anything is written: the output
// folder, its state and the link's target stay byte-identical.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { writeIfChanged } from '../../generator/write/files.ts';
import { OutFolderError } from '../../generator/write/guard.ts';
import { markInProgress } from '../../generator/write/state.ts';
import { makeRelease } from '../support/fixtures.ts';
import { treeSnapshot } from '../support/tree.ts';

let release: string;
let sandbox: string;
let out: string;
let elsewhere: string;
const options = () => ({ dataDir: release, outDir: out, baseUrl: 'http://localhost:8080', workers: 0 });

beforeAll(() => {
  release = makeRelease(['MA0004.1', 'MA0014.2']);
});
afterAll(() => rmSync(release, { recursive: true, force: true }));

beforeEach(async () => {
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'jaspar-out-links-'));
  out = path.join(sandbox, 'public');
  elsewhere = path.join(sandbox, 'elsewhere');
  // The link's target: a folder shaped like the one it replaces, with a file the build would prune.
  mkdirSync(path.join(elsewhere, 'logos/svg'), { recursive: true });
  writeFileSync(path.join(elsewhere, 'logos/svg/precious.svg'), '<svg>mine</svg>\n');
  writeFileSync(path.join(elsewhere, 'notes.txt'), 'keep\n');
  await build(options());
}, 120_000);
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

async function refused(pattern: RegExp): Promise<void> {
  const before = treeSnapshot(sandbox);
  await expect(build(options())).rejects.toThrow(OutFolderError);
  await expect(build(options())).rejects.toThrow(pattern);
  expect(treeSnapshot(sandbox)).toEqual(before);
}

describe('a link inside the output folder', () => {
  it('OUT/static replaced by a link to another folder: refused, nothing deleted or written there', async () => {
    renameSync(path.join(out, 'static'), path.join(sandbox, 'static-moved'));
    symlinkSync(elsewhere, path.join(out, 'static'));
    await refused(/--out .*public: holds a link or special file, which the build never follows.*: static \(a link to .*elsewhere\) \(fix: remove them/);
  });

  it('a site file replaced by a link to a file outside: refused, the target untouched', async () => {
    rmSync(path.join(out, 'index.html'));
    symlinkSync(path.join(elsewhere, 'notes.txt'), path.join(out, 'index.html'));
    await refused(/index\.html \(a link to /);
  });

  it('an extra link beside the site files: refused (not removed, not followed)', async () => {
    symlinkSync(elsewhere, path.join(out, 'api', 'extra'));
    await refused(/api\/extra \(a link to /);
  });

  it('a FIFO in the output folder: refused', async () => {
    execFileSync('mkfifo', [path.join(out, 'static', 'pipe')]);
    await refused(/static\/pipe \(not a regular file or folder\)/);
  });

  it('after an interrupted build (nothing trusted, the whole folder walked): a deep link is refused', async () => {
    markInProgress(out);
    const logos = path.join(out, 'static/logos');
    renameSync(path.join(logos, 'svg'), path.join(sandbox, 'svg-moved'));
    symlinkSync(path.join(elsewhere, 'logos/svg'), path.join(logos, 'svg'));
    await refused(/static\/logos\/svg \(a link to /);
  });
});

describe('writeIfChanged', () => {
  it('never writes through a link at the path (O_NOFOLLOW)', () => {
    const root = path.join(sandbox, 'w');
    mkdirSync(root);
    symlinkSync(path.join(elsewhere, 'notes.txt'), path.join(root, 'f.txt'));
    const before = treeSnapshot(elsewhere);
    expect(() => writeIfChanged(root, 'f.txt', 'overwritten', false, new Set())).toThrow(/f\.txt in the output folder became a link/);
    expect(() => writeIfChanged(root, 'f.txt', 'keep\n', true, new Set())).toThrow(/became a link/);
    expect(treeSnapshot(elsewhere)).toEqual(before);
  });
});
