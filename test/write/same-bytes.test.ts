// Files of one build with the same bytes are one inode (write/same-bytes.ts):
// links made for equal bytes only, a path rewritten or pruned leaves the
// other names of its inode (in the site or outside it) as they were, a file
// altered by hand is put back, a link refused is a copy, and the state's
// ctimes stay those of the folder (a linked build's no-op rebuild writes
// nothing).
import { linkSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { renderPlan } from '../../generator/pipeline/schedule.ts';
import { LINKED_MAX, type LinkFunction } from '../../generator/write/same-bytes.ts';
import { readState } from '../../generator/write/state.ts';
import { OutputPlan, SiteWriter, treeChanges } from '../../generator/write/writer.ts';
import { makeRelease } from '../support/fixtures.ts';
import { listFiles, treeSnapshot } from '../support/tree.ts';

const temps: string[] = [];
const tempRoot = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-same-bytes-'));
  temps.push(dir);
  return dir;
};
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes these files as a build's writer does (open, every file handed, close, commit); returns its report. */
async function writeFiles(out: string, files: Record<string, string>, links?: boolean | LinkFunction) {
  const plan = new OutputPlan();
  for (const [rel, content] of Object.entries(files)) plan.add(rel, content);
  const writer = new SiteWriter(out, { fingerprint: 'f', links });
  writer.open(plan);
  const report = writer.close(plan, await renderPlan(plan, {}, writer));
  writer.commit();
  return report;
}

const inoOf = (out: string, rel: string) => lstatSync(path.join(out, rel)).ino;
const read = (out: string, rel: string) => readFileSync(path.join(out, rel), 'utf8');
/** What the next build would find not as its state says (it would render those again). */
const notAsRecorded = (out: string) => [...treeChanges(out, readState(out)!).altered].sort();

describe('files of the same bytes', () => {
  const large = 'x'.repeat(LINKED_MAX + 1);

  it('are one inode, and only they; a file over LINKED_MAX is a file of its own; the state records every ctime as it is', async () => {
    const out = path.join(tempRoot(), 'public');
    const report = await writeFiles(out, { 'a/x': 'same', 'b/y': 'same', 'c/z': 'other', 'd/e/f': 'same', 'big/1': large, 'big/2': large, 'empty/1': '', 'empty/2': '' });
    expect(report.written).toBe(8);
    expect(inoOf(out, 'b/y')).toBe(inoOf(out, 'a/x'));
    expect(inoOf(out, 'd/e/f')).toBe(inoOf(out, 'a/x'));
    expect(lstatSync(path.join(out, 'a/x')).nlink).toBe(3);
    expect(inoOf(out, 'c/z')).not.toBe(inoOf(out, 'a/x'));
    expect(inoOf(out, 'big/2')).not.toBe(inoOf(out, 'big/1'));
    expect(inoOf(out, 'empty/2')).toBe(inoOf(out, 'empty/1'));
    expect(read(out, 'd/e/f')).toBe('same');
    expect(notAsRecorded(out)).toEqual([]);
  });

  it('the listing gives the SHA-256 of each file hashed as written (the first of its bytes, a link to it, one found with its bytes), none of a file over LINKED_MAX', async () => {
    const out = path.join(tempRoot(), 'public');
    const files = { 'a/x': 'same', 'b/y': 'same', 'c/z': 'other', 'big/1': large };
    const hex = (text: string) => createHash('sha256').update(text).digest('hex');
    const digestsOf = async () => {
      const plan = new OutputPlan();
      for (const [rel, content] of Object.entries(files)) plan.add(rel, content);
      const writer = new SiteWriter(out, { fingerprint: 'f' });
      writer.open(plan);
      writer.close(plan, await renderPlan(plan, {}, writer));
      const { sha256, slotted, files: listed } = writer.listing();
      writer.commit();
      // The same digests by slot (mirror/archive.ts ListingSlots): its slots spell the listing's files in their order.
      const bySlot = new Map<string, string | undefined>();
      for (const slot of slotted!.slots()) {
        const at = slotted!.digestAt(slot);
        bySlot.set(slotted!.pathAt(slot), at < 0 ? undefined : slotted!.digests.toString('hex', at, at + 32));
      }
      expect([...bySlot.keys()]).toEqual([...listed]);
      const rels = ['a/x', 'b/y', 'c/z', 'big/1', 'nowhere'];
      expect(rels.map((rel) => bySlot.get(rel))).toEqual(rels.map((rel) => sha256?.(rel)));
      return rels.map((rel) => sha256?.(rel));
    };
    const expected = [hex('same'), hex('same'), hex('other'), undefined, undefined];
    expect(await digestsOf()).toEqual(expected);
    // Built again over the same files (found with their bytes, not written).
    expect(await digestsOf()).toEqual(expected);
  });

  it('not as links when asked not to', async () => {
    const out = path.join(tempRoot(), 'public');
    await writeFiles(out, { 'a/x': 'same', 'b/y': 'same' }, false);
    expect(inoOf(out, 'b/y')).not.toBe(inoOf(out, 'a/x'));
  });

  it('a path rewritten leaves the other names of its inode, in the site and outside it, with their bytes and their ctimes recorded', async () => {
    const root = tempRoot();
    const out = path.join(root, 'public');
    await writeFiles(out, { 'a/x': 'same', 'b/y': 'same', 'c/z': 'same' });
    // A name of the inode outside the output folder, made by hand.
    const outside = path.join(root, 'outside.txt');
    linkSync(path.join(out, 'a/x'), outside);
    const report = await writeFiles(out, { 'a/x': 'same', 'b/y': 'changed', 'c/z': 'same' });
    expect(report.written).toBe(1);
    expect(read(out, 'b/y')).toBe('changed');
    expect([read(out, 'a/x'), read(out, 'c/z'), readFileSync(outside, 'utf8')]).toEqual(['same', 'same', 'same']);
    expect(inoOf(out, 'b/y')).not.toBe(inoOf(out, 'a/x'));
    expect(inoOf(out, 'c/z')).toBe(inoOf(out, 'a/x'));
    expect(notAsRecorded(out)).toEqual([]);
    // Rewritten to bytes a file handed before it has (found holding them): a link to that one, its old inode left to the others.
    await writeFiles(out, { 'b/y': 'changed', 'a/x': 'changed', 'c/z': 'same' });
    expect(inoOf(out, 'a/x')).toBe(inoOf(out, 'b/y'));
    expect([read(out, 'a/x'), read(out, 'c/z'), readFileSync(outside, 'utf8')]).toEqual(['changed', 'same', 'same']);
    expect(notAsRecorded(out)).toEqual([]);
  });

  it('a path pruned leaves the other names of its inode, their ctimes recorded', async () => {
    const out = path.join(tempRoot(), 'public');
    await writeFiles(out, { 'a/x': 'same', 'b/y': 'same' });
    const report = await writeFiles(out, { 'a/x': 'same' });
    expect(report.removed).toBe(1);
    expect(read(out, 'a/x')).toBe('same');
    expect(listFiles(out)).toEqual(['a/x']);
    expect(notAsRecorded(out)).toEqual([]);
  });

  it('a file of a previous build (its only name) that this build makes a link is gone, with the name it was moved aside to (files.ts LaterUnlinks)', async () => {
    const out = path.join(tempRoot(), 'public');
    await writeFiles(out, { 'a/x': 'one', 'a/y': 'two', 'b/z': 'three' });
    const report = await writeFiles(out, { 'a/x': 'same', 'a/y': 'same', 'b/z': 'same' });
    expect(report.written).toBe(3);
    expect(inoOf(out, 'a/y')).toBe(inoOf(out, 'a/x'));
    expect(inoOf(out, 'b/z')).toBe(inoOf(out, 'a/x'));
    expect(listFiles(out)).toEqual(['a/x', 'a/y', 'b/z']);
    expect(notAsRecorded(out)).toEqual([]);
  });

  it('a link refused is a copy (EMLINK: the copy is linked to from then on); a file system that makes none is not asked again', async () => {
    const out = path.join(tempRoot(), 'public');
    let calls = 0;
    const emlink: LinkFunction = (existing, name) => {
      if (++calls === 2) throw Object.assign(new Error('too many links'), { code: 'EMLINK' });
      linkSync(existing, name);
    };
    await writeFiles(out, { '1': 'same', '2': 'same', '3': 'same', '4': 'same' }, emlink);
    expect(calls).toBe(3);
    expect(['1', '2', '3', '4'].map((f) => read(out, f))).toEqual(['same', 'same', 'same', 'same']);
    expect(inoOf(out, '2')).toBe(inoOf(out, '1'));
    // The third was refused: a copy, to which the fourth links.
    expect(inoOf(out, '3')).not.toBe(inoOf(out, '1'));
    expect(inoOf(out, '4')).toBe(inoOf(out, '3'));
    expect(notAsRecorded(out)).toEqual([]);

    const other = path.join(tempRoot(), 'public');
    let tried = 0;
    const none: LinkFunction = () => {
      tried++;
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    };
    await writeFiles(other, { '1': 'same', '2': 'same', '3': 'same', '4': 'other', '5': 'other' }, none);
    expect(tried).toBe(1);
    expect(['1', '2', '3', '4', '5'].map((f) => read(other, f))).toEqual(['same', 'same', 'same', 'other', 'other']);
    expect(new Set(['1', '2', '3', '4', '5'].map((f) => inoOf(other, f))).size).toBe(5);
    expect(notAsRecorded(other)).toEqual([]);
  });
});

describe('a linked build', () => {
  const data = makeRelease(['MA0004.1', 'MA0014.2']);
  afterAll(() => rmSync(data, { recursive: true, force: true }));
  const options = (outDir: string) => ({ dataDir: data, outDir, baseUrl: 'http://localhost:8080', workers: 0 });
  /** The site's files grouped by inode: each group its paths, sorted. */
  const groups = (out: string) => {
    const byIno = new Map<number, string[]>();
    for (const f of listFiles(out)) {
      const ino = inoOf(out, f);
      byIno.set(ino, [...(byIno.get(ino) ?? []), f]);
    }
    return [...byIno.values()].filter((g) => g.length > 1).map((g) => g.join(' ')).sort();
  };

  it('has links; built twice, the same bytes and the same groups of names; rebuilt unchanged, writes nothing', async () => {
    const one = path.join(tempRoot(), 'public');
    const two = path.join(tempRoot(), 'public');
    await build(options(one));
    await build(options(two));
    expect(groups(one).length).toBeGreaterThan(10);
    expect(groups(two)).toEqual(groups(one));
    expect(treeSnapshot(two)).toEqual(treeSnapshot(one));
    const again = await build(options(one));
    expect(again.written).toBe(0);
    expect(again.upToDate).toBe(true);
  }, 120_000);

  it('a linked file altered by hand is put back, with every other name of its inode; the next rebuild writes nothing', async () => {
    const out = path.join(tempRoot(), 'public');
    await build(options(out));
    const before = treeSnapshot(out);
    const group = groups(out)[0].split(' ');
    // Written in place: every name of the inode shows it.
    writeFileSync(path.join(out, group[0]), 'altered by hand\n');
    expect(read(out, group[1])).toBe('altered by hand\n');
    const report = await build(options(out));
    expect(report.upToDate).toBe(false);
    expect(report.written).toBeGreaterThanOrEqual(group.length);
    expect(treeSnapshot(out)).toEqual(before);
    const again = await build(options(out));
    expect(again.written).toBe(0);
    expect(again.upToDate).toBe(true);
  }, 120_000);
});
