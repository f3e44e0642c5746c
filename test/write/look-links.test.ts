// The folder look on its thread (write/changes.ts treeChangesOffThread) looks at one name of each inode
// when the others' folders are untouched: what it finds must be what looking at every name finds
// (treeChanges), whatever was done to the folder since the build; and begun from the state file's bytes
// (treeLookOffThread with readState's onShared, as build.ts begins it), what it finds from the parsed state, on one
// thread or joined by a second (the odd inodes' files).
import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPlan } from '../../generator/pipeline/schedule.ts';
import { treeChangesOffThread, treeLookOffThread } from '../../generator/write/changes.ts';
import { readState, saveState, type BuildState } from '../../generator/write/state.ts';
import { OutputPlan, SiteWriter, treeChanges } from '../../generator/write/writer.ts';

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A built folder whose files of the same bytes are one inode (same-bytes.ts). */
async function built(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-look-links-'));
  temps.push(dir);
  const out = path.join(dir, 'public');
  const plan = new OutputPlan();
  for (const [rel, content] of Object.entries({ 'a/x': 'same', 'b/y': 'same', 'c/z': 'other', 'd/e/f': 'same', 'd/g': 'same' })) plan.add(rel, content);
  const writer = new SiteWriter(out, { fingerprint: 'f' });
  writer.open(plan);
  writer.close(plan, await renderPlan(plan, {}, writer));
  writer.commit();
  expect(lstatSync(path.join(out, 'b/y')).ino).toBe(lstatSync(path.join(out, 'a/x')).ino);
  return out;
}

/** The look begun from the state file's bytes as build.ts begins it (before they are parsed), and the state parsed;
 *  joined: a second thread takes the odd inodes from the file the first is at (a build whose site may be up to date). */
function lookFromBytes(out: string, joined = false): { state: BuildState; found: Promise<unknown> } {
  let begun: ReturnType<typeof treeLookOffThread> | null = null;
  const state = readState(out, (shared) => {
    begun = treeLookOffThread(out, { shared, state: () => state });
  })!;
  expect(begun).not.toBeNull();
  if (joined) begun!.join();
  return { state, found: begun!.found };
}

/** What the four looks find, the same on all. */
async function look(out: string) {
  const { state, found } = lookFromBytes(out);
  const everyName = treeChanges(out, state);
  const offThread = await treeChangesOffThread(out, state);
  expect(offThread).not.toBeNull();
  const sorted = (r: { altered: Set<string>; extras: string[] }) => ({ altered: [...r.altered].sort(), extras: [...r.extras].sort() });
  expect(sorted(offThread!)).toEqual(sorted(everyName));
  for (const begun of [found, lookFromBytes(out, true).found]) {
    const fromBytes = (await begun) as { altered: Set<string>; extras: string[] } | null;
    expect(fromBytes).not.toBeNull();
    expect(sorted(fromBytes!)).toEqual(sorted(everyName));
  }
  return sorted(offThread!);
}

/** A folder's mtime to the nanosecond, to set it back with keepMtime. */
const mtimeOf = (dir: string) => lstatSync(dir, { bigint: true }).mtimeNs;
/** Sets a folder's mtime back to what it was, to the nanosecond (GNU touch; utimes from Node rounds): its ctime becomes now. */
const keepMtime = (dir: string, ns: bigint) => execFileSync('touch', ['-m', '-d', `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`, dir]);

describe('the folder look begun from the state file', () => {
  it('passes over the records of a key without a file, and finds the files altered and added', async () => {
    const out = await built();
    const state = readState(out)!;
    state.keys.set('a/x', 'key of a/x');
    state.keys.set('gone/w', 'key of a file no longer there');
    saveState(out, state);
    writeFileSync(path.join(out, 'a/x'), 'SAME');
    writeFileSync(path.join(out, 'd/e/new'), 'new');
    expect(await look(out)).toEqual({ altered: ['a/x', 'b/y', 'd/e/f', 'd/g'], extras: ['d/e/new'] });
  });

  it('answers null when the state parsed from the bytes is none after all', async () => {
    const out = await built();
    let begun: ReturnType<typeof treeLookOffThread> | null = null;
    readState(out, (shared) => {
      begun = treeLookOffThread(out, { shared, state: () => null });
    });
    expect(await begun!.found).toBeNull();
  });
});

describe('the folder look on its thread, names of one inode', () => {
  it('finds nothing in a folder as the build left it', async () => {
    expect(await look(await built())).toEqual({ altered: [], extras: [] });
  });

  it('finds every name of an inode written in place', async () => {
    const out = await built();
    writeFileSync(path.join(out, 'd/g'), 'SAME');
    expect((await look(out)).altered).toEqual(['a/x', 'b/y', 'd/e/f', 'd/g']);
  });

  it('finds a name in a folder put back by a copy that keeps its mtime, then written in place, though another name of its old inode is as recorded', async () => {
    const out = await built();
    const b = path.join(out, 'b');
    const st = mtimeOf(b);
    // The folder itself moved out, not removed: its file keeps its inode's names, so their ctime stays the recorded one.
    cpSync(b, `${b}.copy`, { recursive: true, preserveTimestamps: true });
    renameSync(b, path.join(out, '..', 'b.moved-out'));
    renameSync(`${b}.copy`, b);
    writeFileSync(path.join(b, 'y'), 'SAME');
    keepMtime(b, st);
    expect(mtimeOf(b)).toBe(st);
    expect((await look(out)).altered).toEqual(['b/y']);
  });

  it('finds a name replaced in a folder whose mtime was set back, and the other names of its old inode (their ctime changed)', async () => {
    const out = await built();
    const d = path.join(out, 'd');
    const st = mtimeOf(d);
    writeFileSync(path.join(out, 'new'), 'SAME');
    renameSync(path.join(out, 'new'), path.join(d, 'g'));
    keepMtime(d, st);
    keepMtime(out, mtimeOf(out));
    expect((await look(out)).altered).toEqual(['a/x', 'b/y', 'd/e/f', 'd/g']);
  });
});
