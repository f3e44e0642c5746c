// Records' texts kept across builds (pipeline/fragments.ts): the file is
// read only when whole and of the build's salt, and each text only for what
// it was made from (a record's digest, a part, a list item). A rebuild that
// renders from them writes what a build into a new folder writes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { FragmentStore, encodeFragments } from '../../generator/pipeline/fragments.ts';
import { FragmentSpool, fragmentFile } from '../../generator/write/fragments.ts';
import { stateDir } from '../../generator/write/state.ts';
import { makeRelease } from '../support/fixtures.ts';
import { treeSnapshot } from '../support/tree.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-fragments-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An output folder whose state folder exists (as after a build). */
function outDir(name: string): string {
  const out = path.join(root, name, 'site');
  mkdirSync(stateDir(out), { recursive: true });
  return out;
}

function save(out: string, salt: string, entries: [string, string][]): void {
  const spool = new FragmentSpool(out, salt);
  spool.add(encodeFragments(entries));
  spool.save();
}

const texts = (out: string, salt: string, keys: string[]) => {
  const store = FragmentStore.open(fragmentFile(out), salt);
  return keys.map((k) => store.get(k) ?? null);
};

describe('the fragment file', () => {
  it('gives back each text by its key, any characters, under the salt it was written with only', () => {
    const out = outDir('roundtrip');
    save(out, 'salt a', [['jaspar d1', '>MA0001.1\tAGL3\n'], ['json-item {"name":"é\u2028😀"}', 'x\u0000y']]);
    expect(texts(out, 'salt a', ['jaspar d1', 'json-item {"name":"é\u2028😀"}', 'jaspar d2'])).toEqual(['>MA0001.1\tAGL3\n', 'x\u0000y', null]);
    expect(texts(out, 'salt b', ['jaspar d1'])).toEqual([null]);
  });

  it('gives each of many keys its own text, and a key given twice its last one', () => {
    const out = outDir('many');
    const entries: [string, string][] = Array.from({ length: 5000 }, (_, i) => [`api-item {"id":"MA${i}.1","name":"n${i % 7}"}`, `text ${i}`]);
    save(out, 'a', [...entries, ['api-item {"id":"MA17.1","name":"n3"}', 'again']]);
    const store = FragmentStore.open(fragmentFile(out), 'a');
    expect(store.size).toBe(5000);
    expect(entries.every(([key, text], i) => store.get(key) === (i === 17 ? 'again' : text))).toBe(true);
    expect(store.get('api-item {"id":"MA5000.1","name":"n2"}')).toBeUndefined();
  });

  it('a later build adds to it under the same salt, and starts it anew under another', () => {
    const out = outDir('append');
    save(out, 'a', [['k1', 't1']]);
    expect(new FragmentSpool(out, 'a').readable).not.toBeNull();
    save(out, 'a', [['k2', 't2']]);
    expect(texts(out, 'a', ['k1', 'k2'])).toEqual(['t1', 't2']);
    expect(new FragmentSpool(out, 'b').readable).toBeNull();
    save(out, 'b', [['k3', 't3']]);
    expect(texts(out, 'b', ['k1', 'k2', 'k3'])).toEqual([null, null, 't3']);
    expect(texts(out, 'a', ['k1', 'k3'])).toEqual([null, null]);
  });

  it('a file cut short (a save interrupted) is not read, and the next save writes it anew', () => {
    const out = outDir('cut');
    save(out, 'a', [['k1', 't1'], ['k2', 't2']]);
    const file = fragmentFile(out);
    truncateSync(file, readFileSync(file).length - 1);
    expect(texts(out, 'a', ['k1', 'k2'])).toEqual([null, null]);
    expect(new FragmentSpool(out, 'a').readable).toBeNull();
    save(out, 'a', [['k3', 't3']]);
    expect(texts(out, 'a', ['k1', 'k3'])).toEqual([null, 't3']);
  });

  it('a build that made no text leaves the file as it was', () => {
    const out = outDir('none');
    save(out, 'a', [['k1', 't1']]);
    const before = readFileSync(fragmentFile(out));
    new FragmentSpool(out, 'a').save();
    expect(readFileSync(fragmentFile(out)).equals(before)).toBe(true);
  });
});

/** Every entry of a fragment file with its text replaced, the file otherwise whole (header, salt, trailer): what a stale store would hold. */
function poison(out: string, salt: string): number {
  const file = fragmentFile(out);
  const bytes = readFileSync(file);
  const header = Buffer.from(`jaspar fragments 1\n${salt}\n`);
  expect(bytes.subarray(0, header.length).equals(header)).toBe(true);
  const entries: [string, string][] = [];
  for (let at = header.length; at < bytes.length - 12; ) {
    const keyBytes = bytes.readUInt32LE(at);
    const textBytes = bytes.readUInt32LE(at + 4);
    entries.push([bytes.toString('utf8', at + 8, at + 8 + keyBytes), 'STALE FRAGMENT\n']);
    at += 8 + keyBytes + textBytes;
  }
  rmSync(file);
  save(out, salt, entries);
  return entries.length;
}

/** The files of a site, but its mirror archives and manifests (whose bytes follow the files'). */
const files = (dir: string) => Object.fromEntries(Object.entries(treeSnapshot(dir)).filter(([k]) => !k.startsWith('downloads/')));
const stale = (dir: string) => Object.entries(files(dir)).filter(([k, v]) => v.startsWith('file ') && readFileSync(path.join(dir, k)).includes('STALE FRAGMENT')).map(([k]) => k);

describe('a rebuild on render workers', () => {
  const data = makeRelease();
  afterAll(() => rmSync(data, { recursive: true, force: true }));
  const options = (out: string, baseUrl = 'http://localhost:8080') => ({ dataDir: [data], outDir: out, baseUrl, workers: 1 });
  /** The salt the store of out was written with (its second line). */
  const saltOf = (out: string) => readFileSync(fragmentFile(out), 'latin1').split('\n')[1];

  it('never uses texts kept under other sources or options, nor those of a record as it was', async () => {
    const out = path.join(root, 'site-a', 'site');
    await build(options(out));
    // The first build kept the records' texts.
    expect(poison(out, saltOf(out))).toBeGreaterThan(50);

    // Another base URL (another salt): every task renders again, none from the poisoned texts.
    await build(options(out, 'http://example.org/'));
    const fresh = path.join(root, 'fresh-a', 'site');
    await build(options(fresh, 'http://example.org/'));
    expect(stale(out)).toEqual([]);
    expect(files(out)).toEqual(files(fresh));

    // Poisoned again under the salt the next build has: a record whose counts change has another digest,
    // and its files show its new counts, not a kept text; the pages of unchanged records read the kept
    // texts (which shows the file is read at all).
    poison(out, saltOf(out));
    const csv = readFileSync(path.join(data, 'matrices.csv'), 'utf8').split('\n');
    const id = csv[1].split(',')[0];
    const matrixFile = path.join(data, 'matrices', `${id}.jaspar`);
    const before = readFileSync(matrixFile, 'utf8');
    writeFileSync(matrixFile, before.replace(/\[\s*(\d+)/, (m, n: string) => m.replace(n, String(Number(n) + 7))));
    const edited = path.join(root, 'fresh-b', 'site');
    try {
      await build(options(out, 'http://example.org/'));
      await build(options(edited, 'http://example.org/'));
    } finally {
      writeFileSync(matrixFile, before);
    }
    const a = files(out);
    const b = files(edited);
    const detail = Object.keys(b).filter((k) => k.includes(`/${id}/`) && !k.endsWith('.svg'));
    expect(detail.length).toBeGreaterThan(5);
    for (const k of detail) expect(a[k], k).toBe(b[k]);
    expect(stale(out).some((k) => !k.includes(`/${id}/`))).toBe(true);
  }, 120_000);

  it('writes what a build into a new folder writes, from the texts the previous build kept', async () => {
    const out = path.join(root, 'site-c', 'site');
    await build(options(out));
    const kept = readFileSync(fragmentFile(out)).length;
    // A matrix taken out (its row and its file, which has no sites): the list pages after it shift, rendered from kept texts.
    const csvFile = path.join(data, 'matrices.csv');
    const csv = readFileSync(csvFile, 'utf8');
    const lines = csv.split('\n');
    const at = lines.findIndex((l, i) => i > 0 && l !== '' && !existsSync(path.join(data, 'sites', `${l.split(',')[0]}.bed`)));
    const id = lines[at].split(',')[0];
    const jaspar = path.join(data, 'matrices', `${id}.jaspar`);
    const aside = path.join(root, `${id}.jaspar`);
    writeFileSync(csvFile, lines.filter((_, i) => i !== at).join('\n'));
    renameSync(jaspar, aside);
    try {
      const rebuilt = await build(options(out));
      expect(rebuilt.tasks.rendered).toBeGreaterThan(20);
      const fresh = path.join(root, 'fresh-c', 'site');
      await build(options(fresh));
      expect(files(out)).toEqual(files(fresh));
      // Nothing new to keep: every text of the rebuild was there.
      expect(readFileSync(fragmentFile(out)).length).toBe(kept);
    } finally {
      writeFileSync(csvFile, csv);
      renameSync(aside, jaspar);
    }
    expect(readdirSync(path.dirname(out)).filter((f) => f.endsWith('.spool'))).toEqual([]);
  }, 120_000);
});

// A small rebuild renders its tasks on the main thread (schedule.ts WORKER_THRESHOLD), which looks its records'
// texts up in the kept file too (pipeline/here-fragments.ts), and keeps those it made for the next build.
describe('a rebuild on the main thread', () => {
  const data = makeRelease();
  afterAll(() => rmSync(data, { recursive: true, force: true }));
  const options = (out: string, workers?: number) => ({ dataDir: [data], outDir: out, baseUrl: 'http://localhost:8080', ...(workers === undefined ? {} : { workers }) });
  const saltOf = (out: string) => readFileSync(fragmentFile(out), 'latin1').split('\n')[1];
  /** One count of the first matrix up by n (its file), for the length of fn. */
  async function counted<T>(n: number, fn: () => Promise<T>): Promise<T> {
    const csv = readFileSync(path.join(data, 'matrices.csv'), 'utf8').split('\n');
    const matrixFile = path.join(data, 'matrices', `${csv[1].split(',')[0]}.jaspar`);
    const before = readFileSync(matrixFile, 'utf8');
    writeFileSync(matrixFile, before.replace(/\[\s*(\d+)/, (m, x: string) => m.replace(x, String(Number(x) + n))));
    try {
      return await fn();
    } finally {
      writeFileSync(matrixFile, before);
    }
  }

  it('reads the kept texts for the pages of the records unchanged, and keeps the changed record\'s for the next build', async () => {
    const out = path.join(root, 'site-main', 'site');
    // The render worker keeps every record's texts.
    await build(options(out, 1));
    const id = readFileSync(path.join(data, 'matrices.csv'), 'utf8').split('\n')[1].split(',')[0];
    const fresh = path.join(root, 'fresh-main', 'site');
    const rebuilt = await counted(5, async () => {
      await build(options(fresh, 1));
      return build(options(out));
    });
    expect(rebuilt.tasks.rendered).toBeGreaterThan(0);
    expect(rebuilt.tasks.rendered).toBeLessThan(2000);
    expect(files(out)).toEqual(files(fresh));
    // The changed record's texts were made on this thread and kept: poisoned, every text is stale, and the next
    // rebuild with that count shows them, in the pages of the changed record too.
    await counted(0, () => build(options(out)));
    await counted(5, () => {
      poison(out, saltOf(out));
      return build(options(out));
    });
    expect(stale(out).some((k) => k.includes(`/${id}/`))).toBe(true);
    expect(stale(out).some((k) => !k.includes(`/${id}/`))).toBe(true);
  }, 120_000);
});
