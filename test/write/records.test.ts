// The writer's state as columns (write/records.ts): its three views answer
// as the Maps they replace (paths to records, first paths to keys, folders
// to mtimes), across table growth, forgotten files and folders.
import { describe, expect, it } from 'vitest';
import { SiteRecords } from '../../generator/write/records.ts';
import { random } from '../support/random.ts';

const NAMES = ['index.json', 'index.html', 'index.yaml', 'MA0004.1.svg', 'a', 'Ñandú.txt'];
const FOLDERS = ['', 'api', 'api/v1', 'api/v1/matrix', 'api/v1/matrix/MA0004.1', 'logos', 'api/v1/matrix/MA0004', 'api/v1/matrix/MA0004.1/x'];

/** 3,000 random files (a few forgotten), every fifth with a key, folders recorded (dropping: some removed again). */
function filled(seed: number, dropping: boolean): SiteRecords {
  const next = random(seed);
  const records = new SiteRecords();
  for (let i = 0; i < 3_000; i++) {
    const rel = `${FOLDERS[i % FOLDERS.length] || 'top'}/${i % 700}/${NAMES[i % NAMES.length]}`;
    records.files.set(rel, { size: Math.floor(next() * 1e5), ctimeMs: next() * 1e12, adopted: i % 17 === 0 });
    if (i % 5 === 0) records.keys.set(rel, `key ${i}`);
    if (i % 3 === 0) records.dirs.set(`d/${i}`, i);
    if (dropping && i % 9 === 0) records.dirs.delete(`d/${i - 3}`);
    if (i % 11 === 0) records.files.delete(rel);
  }
  return records;
}

describe('the writer state as columns', () => {
  it('answers as a Map of paths to records through 20,000 random sets, gets and deletes (table and columns grown many times)', () => {
    const next = random(22);
    const records = new SiteRecords();
    const files = records.files;
    const model = new Map<string, { size: number; ctimeMs: number; adopted: boolean }>();
    const pathOf = () => {
      const folder = next() < 0.8 ? `${FOLDERS[Math.floor(next() * FOLDERS.length)]}/${Math.floor(next() * 500)}` : FOLDERS[Math.floor(next() * FOLDERS.length)];
      const name = NAMES[Math.floor(next() * NAMES.length)];
      return folder.startsWith('/') ? `${folder.slice(1)}/${name}` : folder === '' ? name : `${folder}/${name}`;
    };
    for (let i = 0; i < 20_000; i++) {
      const rel = pathOf();
      const op = next();
      if (op < 0.6) {
        const r = { size: Math.floor(next() * 1e6), ctimeMs: next() * 1e12, adopted: next() < 0.1 };
        files.set(rel, r);
        model.set(rel, r);
      } else if (op < 0.7) expect(files.delete(rel)).toBe(model.delete(rel));
      else {
        expect(files.has(rel)).toBe(model.has(rel));
        expect(files.get(rel)).toEqual(model.get(rel));
      }
    }
    expect(files.size).toBe(model.size);
    const sorted = (xs: Iterable<[string, unknown]>) => [...xs].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(sorted(files)).toEqual(sorted(model));
    expect(new Set(files.keys())).toEqual(new Set(model.keys()));
    const columns = files.columns();
    expect(columns.paths.length).toBe(model.size);
    columns.paths.forEach((rel, i) => expect({ size: columns.sizes[i], ctimeMs: columns.ctimes[i], adopted: columns.adopted[i] === 1 }).toEqual(model.get(rel)));
  });

  it('tells apart a file at the root, in a folder of its name, and one name in two folders', () => {
    const { files } = new SiteRecords();
    files.set('a', { size: 1, ctimeMs: 1, adopted: false });
    files.set('a/a', { size: 2, ctimeMs: 2, adopted: false });
    files.set('b/a', { size: 3, ctimeMs: 3, adopted: true });
    expect([...files]).toEqual([['a', { size: 1, ctimeMs: 1, adopted: false }], ['a/a', { size: 2, ctimeMs: 2, adopted: false }], ['b/a', { size: 3, ctimeMs: 3, adopted: true }]]);
    expect(files.has('c/a')).toBe(false);
    expect(files.has('a/b')).toBe(false);
    expect(files.get('/a')).toBeUndefined();
    files.set('/a', { size: 4, ctimeMs: 4, adopted: false });
    expect([...files.keys()]).toEqual(['a', 'a/a', 'b/a', '/a']);
  });

  it('keeps a task\'s key under its first path, with or without a file there, and through the file forgotten', () => {
    const records = new SiteRecords();
    records.keys.set('api/v1/matrix/MA0004.1/index.json', 'k1');
    records.files.set('api/v1/matrix/MA0004.1/index.json', { size: 5, ctimeMs: 6, adopted: false });
    records.keys.set('logos/MA0004.1.svg', 'k2');
    expect(records.files.size).toBe(1);
    expect(records.files.has('logos/MA0004.1.svg')).toBe(false);
    records.files.delete('api/v1/matrix/MA0004.1/index.json');
    expect(records.files.size).toBe(0);
    expect([...records.keys]).toEqual([['api/v1/matrix/MA0004.1/index.json', 'k1'], ['logos/MA0004.1.svg', 'k2']]);
    records.keys.set('logos/MA0004.1.svg', 'k3');
    expect(records.keys.size).toBe(2);
    expect([...records.keys.values()]).toEqual(['k1', 'k3']);
    expect(records.keys.get('logos/MA0004.2.svg')).toBeUndefined();
  });

  it('answers as a Map of folders to mtimes, in its order (a folder removed and recorded again goes last)', () => {
    const next = random(7);
    const records = new SiteRecords();
    const model = new Map<string, number>();
    // Folders that files name too, before and after they are recorded.
    records.files.set('api/v1/x/index.json', { size: 1, ctimeMs: 1, adopted: false });
    for (let i = 0; i < 5_000; i++) {
      const dir = i % 3 === 0 ? FOLDERS[Math.floor(next() * FOLDERS.length)] : `d${Math.floor(next() * 800)}`;
      if (next() < 0.75) {
        const mtime = next() * 1e12;
        records.dirs.set(dir, mtime);
        model.set(dir, mtime);
      } else expect(records.dirs.delete(dir)).toBe(model.delete(dir));
      if (i % 7 === 0) records.files.set(`${dir}/f`, { size: i, ctimeMs: i, adopted: false });
    }
    expect([...records.dirs]).toEqual([...model]);
    expect([...records.dirs.keys()]).toEqual([...model.keys()]);
    expect([...records.dirs.values()]).toEqual([...model.values()]);
    expect(records.dirs.size).toBe(model.size);
    expect(records.dirs.has('api/v1/x')).toBe(model.has('api/v1/x'));
  });

  it('flags the folders the writer made, as a Set of them would', () => {
    const { made, dirs } = new SiteRecords();
    expect(made.has('api/v1')).toBe(false);
    made.add('api/v1');
    expect(made.has('api/v1')).toBe(true);
    expect(made.has('api')).toBe(false);
    // Made is not recorded: the folders' mtimes are noted after the files are written.
    expect(dirs.has('api/v1')).toBe(false);
    for (let i = 0; i < 3000; i++) made.add(`d${i}`);
    expect(made.has('d2999') && made.has('api/v1') && !made.has('d3000')).toBe(true);
  });

  it('copies a file from another state\'s slot, tells which of its files it holds, and gives its files as numbers in the views\' order', () => {
    const next = random(5);
    const before = new SiteRecords();
    const after = new SiteRecords();
    const paths = new Set<string>();
    for (let i = 0; i < 4_000; i++) {
      const folder = FOLDERS[Math.floor(next() * FOLDERS.length)];
      const name = `${Math.floor(next() * 300)}${NAMES[Math.floor(next() * NAMES.length)]}`;
      paths.add(folder === '' ? name : `${folder}/${name}`);
    }
    // Paths at the root, one that starts with its only "/", and one only the second state has.
    paths.add('a').add('/a').add('a/a');
    const list = [...paths];
    list.forEach((rel, i) => before.files.set(rel, { size: i, ctimeMs: i * 2, adopted: i % 5 === 0 }));
    for (const rel of list.filter((_, i) => i % 3 === 0)) before.files.delete(rel);
    after.files.set('only/after', { size: 1, ctimeMs: 1, adopted: false });
    // Half copied by slot (the writer's reuse), the rest set by path in the second state or not at all.
    const copied = new Map<string, unknown>();
    list.forEach((rel, i) => {
      const slot = before.slot(rel, false);
      if (i % 2 === 0 && before.hasFile(slot)) {
        after.copyFile(rel, before, slot);
        copied.set(rel, before.files.get(rel));
      }
    });
    for (const [rel, r] of copied) expect(after.files.get(rel)).toEqual(r);
    expect(after.files.size).toBe(copied.size + 1);
    for (const slot of before.fileSlots()) expect(after.holdsFileOf(before, slot)).toBe(after.files.has(before.pathAt(slot)));
    // A file forgotten in the second state is not held.
    const gone = [...copied.keys()][0];
    after.files.delete(gone);
    expect(after.holdsFileOf(before, before.slot(gone, false))).toBe(false);
    // A clone (a rebuild that carries the previous build's files) holds each path at the same slot: found there, or
    // not held when forgotten since; a path added to the clone only is not the other's.
    const carried = before.clone();
    const forgotten = [...before.files.keys()].filter((_, i) => i % 4 === 1);
    for (const rel of forgotten) carried.files.delete(rel);
    carried.files.set('only/carried', { size: 2, ctimeMs: 2, adopted: false });
    for (const slot of before.fileSlots()) expect(carried.holdsFileOf(before, slot)).toBe(carried.files.has(before.pathAt(slot)));
    expect(forgotten.every((rel) => !carried.holdsFileOf(before, before.slot(rel, false)))).toBe(true);
    expect(before.holdsFileOf(carried, carried.slot('only/carried', false))).toBe(false);
    // fileParts from the n-th file on: the files view's order, spelt from the numbers.
    for (const from of [0, 7, before.files.size]) {
      const parts = before.fileParts(from);
      const spelt = Array.from(parts.slots, (_, j) => (parts.folders[parts.folder[j]] === '' ? parts.names[parts.name[j]] : `${parts.folders[parts.folder[j]]}/${parts.names[parts.name[j]]}`));
      const expected = [...before.files].slice(from);
      expect(spelt).toEqual(expected.map(([rel]) => rel));
      expect(Array.from(parts.sizes)).toEqual(expected.map(([, r]) => r.size));
      expect(Array.from(parts.ctimes)).toEqual(expected.map(([, r]) => r.ctimeMs));
      expect(Array.from(parts.slots, (slot) => before.pathAt(slot))).toEqual(spelt);
    }
  });

  it('toColumns() and fromColumns(): the same files, keys and folders in their order, without the slots that hold neither a file nor a key', () => {
    const records = filled(11, true);
    // Inode numbers (hard links, write/same-bytes.ts) of some files, up to 2^53.
    for (const [k, rel] of [...records.files.keys()].entries()) if (k % 4 === 0) records.setFile(records.slot(rel, false), records.files.get(rel)!, k === 0 ? 2 ** 53 - 1 : k + 1);
    records.keys.set('key/only', 'k');
    const columns = records.toColumns();
    const read = SiteRecords.fromColumns(columns)!;
    expect([...read.files]).toEqual([...records.files]);
    for (const rel of records.files.keys()) expect(read.inoAt(read.slot(rel, false))).toBe(records.inoAt(records.slot(rel, false)));
    expect([...read.keys]).toEqual([...records.keys]);
    expect([...read.dirs]).toEqual([...records.dirs]);
    expect(read.ownTotals()).toEqual(records.ownTotals());
    const kept = [...records.keys.keys()].length + [...records.files.keys()].filter((rel) => records.keys.get(rel) === undefined).length;
    expect(columns.sizes.length).toBe(kept);
    // Looked up and grown as the records it was read from.
    for (const rel of records.files.keys()) expect(read.slot(rel, false)).toBeGreaterThanOrEqual(0);
    expect(read.files.has('top/1/index.html')).toBe(records.files.has('top/1/index.html'));
    for (let i = 0; i < 3000; i++) read.files.set(`new/${i}`, { size: i, ctimeMs: i, adopted: false });
    expect(read.files.get('new/2999')).toEqual({ size: 2999, ctimeMs: 2999, adopted: false });
    expect(read.files.size).toBe(records.files.size + 3000);
    // A folder recorded twice is not a whole.
    expect(SiteRecords.fromColumns({ ...columns, dirs: Int32Array.from([columns.dirs[0], columns.dirs[0]]), mtimes: Float64Array.from([1, 2]) })).toBeNull();
  });

  it('clone(): the same files, keys, folders and totals, apart from the original from then on; no folder flagged as made', () => {
    const records = filled(7, false);
    records.made.add('d/3');
    const copy = records.clone();
    const sorted = (xs: Iterable<[string, unknown]>) => [...xs].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(sorted(copy.files)).toEqual(sorted(records.files));
    expect(sorted(copy.keys)).toEqual(sorted(records.keys));
    expect([...copy.dirs]).toEqual([...records.dirs]);
    expect(copy.ownTotals()).toEqual(records.ownTotals());
    const own = [...records.files].filter(([, r]) => !r.adopted);
    expect(copy.ownTotals()).toEqual({ files: own.length, bytes: own.reduce((n, [, r]) => n + r.size, 0) });
    expect(copy.made.has('d/3')).toBe(false);
    // Changed apart: a file set, one deleted, a key and a folder in the copy only.
    const [first] = [...records.files.keys()];
    copy.files.set('new/file', { size: 1, ctimeMs: 2, adopted: false });
    copy.files.delete(first);
    copy.keys.set('new/file', 'k');
    copy.dirs.set('new', 5);
    expect(records.files.has('new/file')).toBe(false);
    expect(records.files.has(first)).toBe(true);
    expect(records.keys.get('new/file')).toBeUndefined();
    expect(records.dirs.has('new')).toBe(false);
    expect(copy.files.has('new/file')).toBe(true);
  });
});
