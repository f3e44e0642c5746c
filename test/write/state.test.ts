// The build state in its binary form (write/state.ts): what is saved is what
// is read, a state cut short or altered is not trusted, and a folder last
// built with the text form (state.tsv) is still read and recognised.
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serialize } from 'node:v8';
import { binaryState, emptyState, isPreviousOutput, keptAppend, markInProgress, readKept, readState, saveKept, saveState, stateDir, type BuildState } from '../../generator/write/state.ts';

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const outDir = () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-state-'));
  temps.push(root);
  return path.join(root, 'public');
};

/** A state with every kind of entry, numbers a text form could round (fractional ctimes, -0, large sizes) and non-ASCII paths. */
function sample(): BuildState {
  const state = emptyState();
  state.fingerprint = 'fp-1';
  state.report = { files: 3, notes: ['a "quoted"\nnote'] };
  state.files.set('index.html', { size: 10, ctimeMs: 1732634567123.4567, adopted: false });
  state.files.set('api/v1/matrix/MA0001.1/index.json', { size: 2 ** 40 + 1, ctimeMs: -0, adopted: false });
  state.files.set('download/jaspar.tar.gz', { size: 0, ctimeMs: 0.1, adopted: true });
  state.files.set('api/v1/species/Ñandú/index.json', { size: 7, ctimeMs: 5, adopted: false });
  state.files.delete('index.html'); // a forgotten slot is not saved
  state.keys.set('api/v1/matrix/MA0001.1/index.json', 'k1');
  state.keys.set('logos/MA0001.1.svg', 'k2');
  state.dirs.set('', 1.5);
  state.dirs.set('api', 2);
  return state;
}

const plain = (s: BuildState) => ({ fingerprint: s.fingerprint, report: s.report, files: [...s.files], keys: [...s.keys], dirs: [...s.dirs] });
const stateBin = (out: string) => path.join(stateDir(out), 'state.bin');

describe('the build state', () => {
  it('reads back what was saved, entry for entry and in order, and marks the folder as a previous build\'s', () => {
    const out = outDir();
    saveState(out, sample());
    const read = readState(out)!;
    expect(plain(read)).toEqual(plain(sample()));
    expect(Object.is(read.files.get('api/v1/matrix/MA0001.1/index.json')!.ctimeMs, -0)).toBe(true);
    expect(isPreviousOutput(out)).toBe(true);
    // Records added after reading go on growing the arrays it was read into.
    for (let i = 0; i < 3000; i++) read.files.set(`f${i}`, { size: i, ctimeMs: i, adopted: i % 2 === 0 });
    expect(read.files.get('f2999')).toEqual({ size: 2999, ctimeMs: 2999, adopted: false });
    expect(read.files.get('download/jaspar.tar.gz')).toEqual({ size: 0, ctimeMs: 0.1, adopted: true });
  });

  it('an empty state too', () => {
    const out = outDir();
    saveState(out, emptyState());
    expect(plain(readState(out)!)).toEqual(plain(emptyState()));
  });

  it('trusts no state cut short, lengthened, altered in its counts, or with a line break in a path', () => {
    const out = outDir();
    saveState(out, sample());
    const whole = readFileSync(stateBin(out));
    truncateSync(stateBin(out), whole.length - 1);
    expect(readState(out)).toBeNull();
    writeFileSync(stateBin(out), Buffer.concat([whole, Buffer.from('x')]));
    expect(readState(out)).toBeNull();
    // The counts: saved slots, folders, names, keys, recorded folders; one key more than the sections hold.
    const counts = /"counts":\[4,(\d+),(\d+),2,2\]/;
    expect(whole.toString('latin1')).toMatch(counts);
    writeFileSync(stateBin(out), Buffer.from(whole.toString('latin1').replace(counts, '"counts":[4,$1,$2,3,2]'), 'latin1'));
    expect(readState(out)).toBeNull();
    const broken = sample();
    broken.keys.set('a\nb', 'k3');
    saveState(out, broken);
    expect(readState(out)).toBeNull();
    writeFileSync(stateBin(out), 'jaspar-static-api build state 1\nend\n');
    expect(readState(out)).toBeNull();
  });

  it('trusts no columns that name a folder or name out of range, or one path twice', () => {
    const out = outDir();
    saveState(out, sample());
    const whole = readFileSync(stateBin(out));
    const meta = JSON.parse(whole.toString('utf8').split('\n')[1]) as { sections: number[] };
    // Where each section begins: after the two header lines.
    const starts: number[] = [];
    let at = whole.indexOf(10, whole.indexOf(10) + 1) + 1;
    for (const length of meta.sections) starts.push((at += length) - length);
    const altered = (section: number, index: number, value: number) => {
      const bytes = Buffer.from(whole);
      bytes.writeInt32LE(value, starts[section] + 4 * index);
      writeFileSync(stateBin(out), bytes);
      return readState(out);
    };
    // Sections 6 and 7: each saved slot's folder and name numbers; 8: its path's hash.
    expect(altered(6, 0, 99)).toBeNull();
    expect(altered(7, 1, -1)).toBeNull();
    // The second slot made the first's path, hash and all.
    const first = (section: number) => whole.readInt32LE(starts[section]);
    const bytes = Buffer.from(whole);
    for (const section of [6, 7, 8]) bytes.writeInt32LE(first(section), starts[section] + 4);
    writeFileSync(stateBin(out), bytes);
    expect(readState(out)).toBeNull();
    // As saved, it is read.
    writeFileSync(stateBin(out), whole);
    expect(plain(readState(out)!)).toEqual(plain(sample()));
  });

  it('reads the binary state by paths an earlier build left, and replaces it with the columns when saved', () => {
    const out = outDir();
    saveState(out, emptyState()); // makes the folder
    writeFileSync(stateBin(out), Buffer.concat(binaryState(sample())));
    expect(isPreviousOutput(out)).toBe(true);
    const read = readState(out)!;
    expect(plain(read)).toEqual(plain(sample()));
    saveState(out, read);
    expect(readFileSync(stateBin(out), 'latin1')).toMatch(/^jaspar-static-api build state 3\n/);
    expect(plain(readState(out)!)).toEqual(plain(sample()));
  });

  it('reads the text state an earlier build left, and replaces it with the binary one when saved', () => {
    const out = outDir();
    const text = path.join(stateDir(out), 'state.tsv');
    saveState(out, emptyState()); // makes the folder
    rmSync(stateBin(out));
    writeFileSync(text, 'jaspar-static-api build state 1\nfingerprint\tfp-0\nreport\tnull\nF\ta.json\t3\t1.25\nA\tb.tar.gz\t4\t2\nK\ta.json\tkey\nD\t\t7\nend\n');
    expect(isPreviousOutput(out)).toBe(true);
    const read = readState(out)!;
    expect(read.fingerprint).toBe('fp-0');
    expect([...read.files]).toEqual([['a.json', { size: 3, ctimeMs: 1.25, adopted: false }], ['b.tar.gz', { size: 4, ctimeMs: 2, adopted: true }]]);
    saveState(out, read);
    expect(() => readFileSync(text)).toThrow();
    expect(plain(readState(out)!)).toEqual(plain(read));
  });

  it('is written over the previous state.bin while the folder is marked in progress (cut to its length), else whole and renamed', () => {
    const out = outDir();
    const big = sample();
    for (let i = 0; i < 500; i++) big.files.set(`api/v1/matrix/f${i}/index.json`, { size: i, ctimeMs: i + 0.5, adopted: false });
    saveState(out, big);
    const ino = statSync(stateBin(out)).ino;
    // A build's commit: the mark is there (writer.open), the file written over, shorter, then the mark cleared.
    markInProgress(out);
    saveState(out, sample());
    expect(statSync(stateBin(out)).ino).toBe(ino);
    expect(existsSync(path.join(stateDir(out), 'in-progress'))).toBe(false);
    expect(plain(readState(out)!)).toEqual(plain(sample()));
    markInProgress(out);
    saveState(out, big);
    expect(statSync(stateBin(out)).ino).toBe(ino);
    expect(plain(readState(out)!)).toEqual(plain(big));
    // Without the mark (nothing would tell a save cut short), a new file renamed over it.
    saveState(out, sample());
    expect(statSync(stateBin(out)).ino).not.toBe(ino);
    expect(plain(readState(out)!)).toEqual(plain(sample()));
    // Another name of its inode (a copy by hard links) is left as it was: the state gets a file of its own.
    const other = `${stateBin(out)}.copy`;
    linkSync(stateBin(out), other);
    const before = readFileSync(other);
    markInProgress(out);
    saveState(out, big);
    expect(readFileSync(other)).toEqual(before);
    expect(plain(readState(out)!)).toEqual(plain(big));
  });

  it('keeps each file\'s inode number (the columns, version 3), and reads a version 2 state, without them, as inodes not known', () => {
    const out = outDir();
    const state = sample();
    const inoOf = (s: BuildState, rel: string) => s.records.inoAt(s.records.slot(rel, false));
    state.records.setFile(state.records.slot('api/v1/species/Ñandú/index.json', true), { size: 7, ctimeMs: 5, adopted: false }, 2 ** 40 + 3);
    saveState(out, state);
    const read = readState(out)!;
    expect(inoOf(read, 'api/v1/species/Ñandú/index.json')).toBe(2 ** 40 + 3);
    expect(inoOf(read, 'api/v1/matrix/MA0001.1/index.json')).toBe(0);
    // The same state as version 2 (the binary form by paths) wrote it: no inode numbers.
    writeFileSync(stateBin(out), Buffer.concat(binaryState(read)));
    expect(isPreviousOutput(out)).toBe(true);
    const old = readState(out)!;
    expect(plain(old)).toEqual(plain(read));
    expect(inoOf(old, 'api/v1/species/Ñandú/index.json')).toBe(0);
  });
});

// What a build keeps of its own work (the reader's results, the plan), written a frame of
// entries at a time: more entries than a frame holds come back as they went, in order; a file cut short,
// kept by other sources or in the whole-object form of version 1 is not trusted.
describe('kept entries', () => {
  const keptPath = (out: string) => path.join(stateDir(out), 'parsed-files.v8');
  /** 1,300 entries (two frames and part of a third), of the kinds kept: counts, BED text, rows, records. */
  const entries = (): Map<string, unknown> => {
    const map = new Map<string, unknown>();
    for (let i = 0; i < 1300; i++) {
      if (i % 3 === 0) map.set(`jaspar\0MA${i}.1\0name\0hash${i}`, { A: [i, 1.5], C: [0, -0], G: [2, 3], T: [4, 5] });
      else if (i % 3 === 1) map.set(`bed\0hash${i}`, `chr1\t${i}\t${i + 10}\tMA${i}.1\t0\t+\n`.repeat(i % 50));
      else map.set(`csv\0matrices.csv\0hash${i}`, [{ id: `MA${i}.1`, name: 'Ñandú' }, null]);
    }
    return map;
  };

  it('reads what was saved, every frame, in order', () => {
    const out = outDir();
    const kept = entries();
    saveKept(out, 'parsed-files', 'sources-1', kept);
    const read = readKept(out, 'parsed-files', 'sources-1');
    expect([...read.keys()]).toEqual([...kept.keys()]);
    expect(read).toEqual(kept);
    expect(Object.is((read.get('jaspar\0MA0.1\0name\0hash0') as { C: number[] }).C[1], -0)).toBe(true);
    saveKept(out, 'parsed-files', 'sources-1', new Map());
    expect(readKept(out, 'parsed-files', 'sources-1').size).toBe(0);
  });

  it('counts what it drops in bytes: one large entry unused is a file written whole', () => {
    const out = outDir();
    const small = Array.from({ length: 200 }, (_, i) => [`small\0${i}`, `text ${i}`] as const);
    saveKept(out, 'parsed-files', 'sources-1', new Map<string, unknown>([...small, ['large', 'x'.repeat(200_000)]]));
    const size = () => readFileSync(keptPath(out)).length;
    const whole = size();
    const build = (use: (key: string) => boolean) => {
      const before = readKept(out, 'parsed-files', 'sources-1');
      const used = new Set([...before.keys()].filter(use));
      const made = new Map([['made', 'new']]);
      saveKept(out, 'parsed-files', 'sources-1', new Map([...[...before].filter(([key]) => used.has(key)), ...made]), keptAppend(before, used, made));
    };
    // One small entry unused: appended (the file grows).
    build((key) => key !== 'small\0' + '7');
    expect(size()).toBeGreaterThan(whole);
    expect(readKept(out, 'parsed-files', 'sources-1').has('small\0' + '7')).toBe(false);
    // The large one unused: written whole, without it.
    build((key) => key !== 'large');
    expect(size()).toBeLessThan(whole / 4);
    expect([...readKept(out, 'parsed-files', 'sources-1').keys()]).toEqual([...small.map(([key]) => key).filter((key) => key !== 'small\0' + '7'), 'made']);
  });

  it('trusts nothing cut short, kept by other sources, or in the form of version 1', () => {
    const out = outDir();
    expect(readKept(out, 'parsed-files', 'sources-1').size).toBe(0);
    saveKept(out, 'parsed-files', 'sources-1', entries());
    expect(readKept(out, 'parsed-files', 'sources-2').size).toBe(0);
    const whole = readFileSync(keptPath(out));
    // Without the end mark: every entry is there, but the file may have been cut between two frames.
    truncateSync(keptPath(out), whole.length - 4);
    expect(readKept(out, 'parsed-files', 'sources-1').size).toBe(0);
    truncateSync(keptPath(out), Math.floor(whole.length / 2));
    expect(readKept(out, 'parsed-files', 'sources-1').size).toBe(0);
    writeFileSync(keptPath(out), serialize({ header: 'jaspar-static-api kept entries 1', sources: 'sources-1', entries: entries() }));
    expect(readKept(out, 'parsed-files', 'sources-1').size).toBe(0);
    expect(() => readFileSync(`${keptPath(out)}.${process.pid}`)).toThrow();
  });
});
