// New files made on a thread of their own (write/off-thread.ts), for a build
// into an empty folder: the same tree as made on the writer's thread (bytes,
// folders, the same groups of names of one inode), a state whose every size,
// inode and ctime is the folder's (a rebuild finds nothing altered and writes
// nothing), across the thread's batches (more files than one holds, a file
// larger than one, content in pieces in between); and a link put in the way
// meanwhile is refused, not followed.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPlan } from '../../generator/pipeline/schedule.ts';
import { OffThreadFiles } from '../../generator/write/off-thread.ts';
import { readState } from '../../generator/write/state.ts';
import { OutputPlan, SiteWriter, treeChanges } from '../../generator/write/writer.ts';
import { listFiles, treeSnapshot } from '../support/tree.ts';

const temps: string[] = [];
const tempRoot = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-off-thread-'));
  temps.push(dir);
  return dir;
};
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

type Files = Record<string, string | Buffer | { pieces(): Iterable<string> }>;

/** A site of many files: small ones, many with the bytes of another (links), nested folders, a file over a megabyte, content in pieces. */
function site(): Files {
  const files: Files = {};
  for (let i = 0; i < 3000; i++) {
    files[`api/v1/matrix/M${String(i % 97).padStart(3, '0')}/${i}.json`] = `{"n":${i % 250}}\n`;
    if (i % 7 === 0) files[`api/v1/lists/${i}/index.html`] = Buffer.from(`<p>${i}</p>\n`.repeat(1 + (i % 40)));
  }
  files['download/big.txt'] = 'line of a large file\n'.repeat(120_000);
  files['download/pieces.txt'] = { pieces: () => Array.from({ length: 5000 }, (_, i) => `record ${i}\n`) };
  files['download/after-pieces.txt'] = '{"n":3}\n';
  files['empty/1'] = '';
  files['empty/2'] = '';
  return files;
}

/** Writes the files as a build's writer does (open, every file handed, close, commit); returns its report. */
async function writeFiles(out: string, files: Files, offThread: boolean) {
  const plan = new OutputPlan();
  for (const [rel, content] of Object.entries(files)) plan.add(rel, content);
  const writer = new SiteWriter(out, { fingerprint: 'f', offThread });
  writer.open(plan);
  try {
    const report = writer.close(plan, await renderPlan(plan, {}, writer));
    writer.commit();
    return report;
  } finally {
    writer.stop();
  }
}

/** The site's files grouped by inode: each group its paths, sorted. */
const groups = (out: string) => {
  const byIno = new Map<number, string[]>();
  for (const f of listFiles(out)) {
    const ino = lstatSync(path.join(out, f)).ino;
    byIno.set(ino, [...(byIno.get(ino) ?? []), f]);
  }
  return [...byIno.values()].filter((g) => g.length > 1).map((g) => g.join(' ')).sort();
};

describe('new files made on another thread', () => {
  it('make the tree the writer makes on its own thread, links the same, and a state as the folder is', async () => {
    const here = path.join(tempRoot(), 'public');
    const there = path.join(tempRoot(), 'public');
    const files = site();
    const a = await writeFiles(here, files, false);
    const b = await writeFiles(there, files, true);
    expect(b).toEqual(a);
    expect(treeSnapshot(there)).toEqual(treeSnapshot(here));
    expect(groups(there).length).toBeGreaterThan(100);
    expect(groups(there)).toEqual(groups(here));
    expect(readFileSync(path.join(there, 'download/pieces.txt'), 'utf8')).toBe(Array.from({ length: 5000 }, (_, i) => `record ${i}\n`).join(''));
    // Every record (size, inode, ctime) as the folder has it: nothing taken for altered by hand.
    const state = readState(there)!;
    expect(treeChanges(there, state).altered.size).toBe(0);
    for (const rel of ['api/v1/matrix/M003/3.json', 'api/v1/matrix/M003/100.json', 'download/big.txt', 'empty/2']) {
      const st = lstatSync(path.join(there, rel));
      expect(state.records.inoAt(state.records.slot(rel, false)), rel).toBe(st.ino);
      expect(state.files.get(rel), rel).toEqual({ size: st.size, ctimeMs: st.ctimeMs, adopted: false });
    }
    // Built again into it: compared on the writer's thread, nothing written.
    const again = await writeFiles(there, files, true);
    expect(again.written).toBe(0);
  });

  it('write over a previous build\'s files as the writer does on its own thread: in place, cut, linked', async () => {
    const here = path.join(tempRoot(), 'public');
    const there = path.join(tempRoot(), 'public');
    const before = site();
    await writeFiles(here, before, false);
    await writeFiles(there, before, false);
    const after: Files = {};
    for (const [rel, content] of Object.entries(before)) {
      const i = Number(/(\d+)\.json$/.exec(rel)?.[1] ?? -1);
      // Longer, shorter, of another file's bytes (a link where a file of its own was), or left as it was.
      after[rel] = i < 0 ? content : i % 4 === 0 ? `{"n":${i % 250},"more":"${'x'.repeat(i % 30)}"}\n` : i % 4 === 1 ? `${i % 9}\n` : i % 4 === 2 ? '{"n":2}\n' : content;
    }
    after['new/one.txt'] = 'new\n';
    after['download/big.txt'] = 'a shorter large file\n'.repeat(30_000);
    const handed = vi.spyOn(OffThreadFiles.prototype, 'write');
    const linked = vi.spyOn(OffThreadFiles.prototype, 'link');
    let b;
    let calls: number[];
    try {
      b = await writeFiles(there, after, true);
      calls = [handed.mock.calls.length, linked.mock.calls.length];
    } finally {
      handed.mockRestore();
      linked.mockRestore();
    }
    const a = await writeFiles(here, after, false);
    expect(b).toEqual(a);
    expect(a.written).toBeGreaterThan(1500);
    // Written over in place or cut (i % 4 0 and 1, big.txt: the others of their bytes links) and linked on the other thread.
    expect(calls[0]).toBeGreaterThan(300);
    expect(calls[1]).toBeGreaterThan(500);
    expect(treeSnapshot(there)).toEqual(treeSnapshot(here));
    expect(groups(there)).toEqual(groups(here));
    expect(listFiles(there).some((f) => f.includes('.~unlinked-'))).toBe(false);
    const state = readState(there)!;
    expect(treeChanges(there, state).altered.size).toBe(0);
    for (const rel of ['api/v1/matrix/M004/4.json', 'api/v1/matrix/M005/5.json', 'api/v1/matrix/M006/6.json', 'api/v1/matrix/M007/7.json', 'download/big.txt', 'new/one.txt']) {
      const st = lstatSync(path.join(there, rel));
      expect(state.records.inoAt(state.records.slot(rel, false)), rel).toBe(st.ino);
      expect(state.files.get(rel), rel).toEqual({ size: st.size, ctimeMs: st.ctimeMs, adopted: false });
    }
    expect((await writeFiles(there, after, true)).written).toBe(0);
  });

  it('refuses a link put at a path before its file is made, and writes nothing through it', async () => {
    const root = tempRoot();
    const out = path.join(root, 'public');
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'outside\n');
    const files = site();
    const plan = new OutputPlan();
    for (const [rel, content] of Object.entries(files)) plan.add(rel, content);
    const writer = new SiteWriter(out, { fingerprint: 'f', offThread: true });
    writer.open(plan);
    // After the folder was checked: a link where a file will be made.
    mkdirSync(path.join(out, 'download'), { recursive: true });
    symlinkSync(outside, path.join(out, 'download/after-pieces.txt'));
    await expect((async () => writer.close(plan, await renderPlan(plan, {}, writer)))()).rejects.toThrow(/download\/after-pieces\.txt in the output folder became a link .*fix: remove the link/);
    writer.stop();
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
  });

  it('hands each folder once, after the folders above it (one mkdir a folder, none failing)', async () => {
    const handed: string[] = [];
    const folder = OffThreadFiles.prototype.folder;
    const spy = vi.spyOn(OffThreadFiles.prototype, 'folder').mockImplementation(function (this: OffThreadFiles, rel: string) {
      handed.push(rel);
      folder.call(this, rel);
    });
    const out = path.join(tempRoot(), 'site');
    // Files deep in a folder first, then in the folders above it, then beside it.
    const files: Files = {};
    for (let i = 0; i < 5000; i++) files[`a/b/c/d${i % 40}/f${i}.txt`] = `${i}\n`;
    files['a/b/c/top.txt'] = 'c\n';
    files['a/b/mid.txt'] = 'b\n';
    files['a/x/y/side.txt'] = 'y\n';
    try {
      await writeFiles(out, files, true);
    } finally {
      spy.mockRestore();
    }
    expect(new Set(handed).size).toBe(handed.length);
    handed.forEach((dir, i) => {
      const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : null;
      if (parent !== null) expect(handed.indexOf(parent), `${dir} after ${parent}`).toBeLessThan(i);
    });
    expect(new Set(handed)).toEqual(new Set(['a', 'a/b', 'a/b/c', ...Array.from({ length: 40 }, (_, i) => `a/b/c/d${i}`), 'a/x', 'a/x/y']));
    expect(readFileSync(path.join(out, 'a/b/mid.txt'), 'utf8')).toBe('b\n');
  });
});
