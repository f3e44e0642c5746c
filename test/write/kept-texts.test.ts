import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptTexts, TextSpool, readKeptTexts, saveKeptTexts, type KeptTextsFile } from '../../generator/write/kept-texts.ts';
import { KEPT_APPEND_MAX, spoolDir, stateDir } from '../../generator/write/state.ts';

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** Every entry a kept file gives, in its order. */
function entriesOf(file: KeptTextsFile): [string, string][] {
  return Array.from(file.number, (_, i) => {
    const f = file.frames[file.frameOf[i]];
    const k = file.at[i];
    const cut = (s: string, ends: number[]) => s.slice(k === 0 ? 0 : ends[k - 1], ends[k]);
    return [cut(f.keys, f.keyEnds), cut(f.texts, f.textEnds)];
  });
}

// The bulk files' record texts kept between builds (mirror/bulk.ts RecordCache): what a full build made comes back in
// its order, a rebuild's few changes are appended, a file cut short or of other sources is not read.
describe('kept record texts', () => {
  /** More entries than KEPT_APPEND_MAX (a full build's: spooled as they come) and than a frame holds; Latin-1 and wider texts among them. */
  const texts = (n = KEPT_APPEND_MAX + 1500): [string, string][] =>
    Array.from({ length: n }, (_, i) => [`salt jaspar digest${i}`, i % 700 === 5 ? `MOTIF MA${i}.1 Ñandú — ${i}\n` : `>MA${i}.1\tname\n${'A  [ 1 2 3 ]\n'.repeat(i % 7)}`]);
  /** A build: asks for the keys in turn, as mirror/bulk.ts does (a text not given is made, and set), and saves what it keeps. */
  const build = (out: string, asked: [string, string][], sources = 'sources-1', spools = spoolDir(out)) => {
    const kept = new KeptTexts(readKeptTexts(out, sources), new TextSpool(sources, spools));
    const given: (string | undefined)[] = [];
    for (const [key, text] of asked) {
      const found = kept.get(key);
      given.push(found);
      kept.set(key, found ?? text);
    }
    const keep = kept.toKeep();
    kept.forget();
    if (keep) saveKeptTexts(out, sources, keep);
    return { given, kept: keep };
  };
  const file = (out: string) => path.join(stateDir(out), 'bulk-records.v8');

  it('keeps what a full build made, in its order, through a spool file unlinked at once', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const spools = tempDir('jaspar-spool-');
    const all = texts();
    const spool = new TextSpool('sources-1', spools);
    expect(readdirSync(spools)).toEqual([]);
    spool.close();
    const { given } = build(out, all, 'sources-1', spools);
    expect(given.every((g) => g === undefined)).toBe(true);
    expect(readdirSync(spools)).toEqual([]);
    const read = readKeptTexts(out, 'sources-1');
    expect(entriesOf(read)).toEqual(all);
    expect(read.frames.length).toBeGreaterThan(2);
    // A text beyond Latin-1 has frames of its own: the others' slices stay one byte a character.
    expect(read.frames.filter((f) => /[^\x00-\xff]/.test(f.texts)).every((f) => f.keyEnds.length === 1)).toBe(true);
    // Beside the output folder, on the disk the kept file goes to; the system's temporary folder only when that is not there.
    expect(spoolDir(out)).toBe(stateDir(out));
    expect(spoolDir(path.join(out, 'a', 'b'))).toBe(os.tmpdir());
    expect(spoolDir(path.join(spools, 'new-site'))).toBe(spools);
    expect(readdirSync(stateDir(out))).toEqual(['bulk-records.v8']);
  });

  it('keeps the file as it is when a rebuild used every text and made none; a set of the text found is no new entry', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const all = texts(3000);
    build(out, all);
    const bytes = readFileSync(file(out));
    const { given, kept } = build(out, all);
    expect(given).toEqual(all.map(([, text]) => text));
    expect(kept).toBeNull();
    expect(readFileSync(file(out))).toEqual(bytes);
  });

  it('appends what a rebuild made and drops what it did not use while an eighth of the file at most is dropped; else writes what it kept, whole, in its order', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const all = texts(3000);
    build(out, all);
    const first = readFileSync(file(out));
    // One record changed (its key is another), one removed: the rest found where the order says, the file appended to.
    const changed: [string, string] = ['salt jaspar changed', 'new text'];
    const asked = [...all.slice(0, 1000), changed, ...all.slice(1001, 2000), ...all.slice(2001)];
    const { given, kept } = build(out, asked);
    expect(given.filter((g) => g === undefined)).toHaveLength(1);
    expect(kept?.append?.drop).toEqual([1000, 2000]);
    expect(readFileSync(file(out)).subarray(0, first.length - 4)).toEqual(first.subarray(0, first.length - 4));
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual([...all.slice(0, 1000), ...all.slice(1001, 2000), ...all.slice(2001), changed]);
    // Asked again as before the change: the two dropped are made again and appended.
    build(out, all);
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual([...all.slice(0, 1000), ...all.slice(1001, 2000), ...all.slice(2001), all[1000], all[2000]]);
    // Half unused: written whole, in the order asked.
    const half = all.slice(0, 1500);
    build(out, half);
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual(half);
    expect(readFileSync(file(out)).length).toBeLessThan(first.length * 0.6);
  });

  it('keeps the texts of a group the rebuild did not ask for (another release\'s), appended or written whole, in their place', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const mine = texts(2000);
    const other = mine.map(([key, text]): [string, string] => [key.replace('salt ', 'other '), text]);
    build(out, [...mine, ...other]);
    // The first release's one record changed: the other's texts are not dropped.
    const changed: [string, string] = ['salt jaspar changed', 'new text'];
    build(out, [changed, ...mine.slice(1)]);
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual([...mine.slice(1), ...other, changed]);
    // Half of the first release's unused: written whole, the other's where they were.
    build(out, mine.slice(0, 1000));
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual([...mine.slice(0, 1000), ...other]);
    // Both asked for again: found where they lie.
    const { given } = build(out, [...mine.slice(0, 1000), ...other]);
    expect(given).toEqual([...mine.slice(0, 1000), ...other].map(([, text]) => text));
  });

  it('finds texts asked in another order than kept, past a few misses (the records made again)', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const all = texts(3000);
    build(out, all);
    const reversed = [...all].reverse();
    const { given } = build(out, reversed);
    const missed = given.filter((g) => g === undefined).length;
    expect(missed).toBeGreaterThan(0);
    expect(missed).toBeLessThanOrEqual(40);
    expect(given.every((g, i) => g === undefined || g === reversed[i][1])).toBe(true);
    // Each key kept once (those missed made again and appended, their entries dropped).
    const read = entriesOf(readKeptTexts(out, 'sources-1'));
    expect(new Set(read.map(([key]) => key)).size).toBe(read.length);
    expect(new Map(read)).toEqual(new Map(all));
  });

  it('writes the file whole when the file read is no longer there, or no longer the one read', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    const all = texts(2000);
    build(out, all);
    const kept = new KeptTexts(readKeptTexts(out, 'sources-1'), new TextSpool('sources-1', spoolDir(out)));
    for (const [key] of all) kept.get(key);
    kept.set('salt jaspar made', 'made');
    const keep = kept.toKeep()!;
    expect(keep.append?.added).toEqual([['salt jaspar made', 'made']]);
    kept.forget();
    // Another build wrote it meanwhile (another size): not appended to.
    writeFileSync(file(out), readFileSync(file(out)).subarray(0, 10));
    saveKeptTexts(out, 'sources-1', keep);
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual([...all, ['salt jaspar made', 'made']]);
    expect(() => saveKeptTexts(out, 'sources-1', keep)).toThrow(/spool is closed/);
  });

  it('trusts nothing cut short or kept by other sources', () => {
    const out = path.join(tempDir('jaspar-texts-'), 'public');
    expect(readKeptTexts(out, 'sources-1').number.length).toBe(0);
    const all = texts(2000);
    build(out, all);
    expect(readKeptTexts(out, 'sources-2').number.length).toBe(0);
    // A build of other sources keeps its own.
    build(out, all.slice(0, 10), 'sources-2');
    expect(readKeptTexts(out, 'sources-1').number.length).toBe(0);
    expect(entriesOf(readKeptTexts(out, 'sources-2'))).toEqual(all.slice(0, 10));
    build(out, all);
    const whole = readFileSync(file(out));
    // Without the end mark: every entry is there, but the file may have been cut between two frames.
    truncateSync(file(out), whole.length - 4);
    expect(readKeptTexts(out, 'sources-1').number.length).toBe(0);
    truncateSync(file(out), Math.floor(whole.length / 2));
    expect(readKeptTexts(out, 'sources-1').number.length).toBe(0);
    // Not appended to either: written whole.
    build(out, all.slice(0, 5));
    expect(entriesOf(readKeptTexts(out, 'sources-1'))).toEqual(all.slice(0, 5));
    expect(() => readFileSync(`${file(out)}.${process.pid}`)).toThrow();
  });
});
