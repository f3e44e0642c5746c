// The output plan refuses clashes, escapes and oversized folders; writeSite
// replaces the output folder as a whole and leaves nothing beside it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_DIR_ENTRIES, OutputPlan } from '../../generator/write/writer.ts';
import { fnv1a } from '../../generator/dataset/digest.ts';
import { writeSite } from '../../generator/build.ts';
import { listFiles } from '../support/tree.ts';

const temps: string[] = [];
function tempRoot(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-writer-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('OutputPlan', () => {
  it('accepts clean relative paths and counts bytes', () => {
    const plan = new OutputPlan();
    plan.add('index.html', 'é'); // 2 bytes in UTF-8
    plan.add('api/v1/matrix/MA0004.1/index.json', Buffer.from([1, 2, 3]));
    plan.add('.hidden', 'x');
    expect([...plan.files.keys()]).toEqual(['index.html', 'api/v1/matrix/MA0004.1/index.json', '.hidden']);
    expect(plan.bytes).toBe(6);
  });

  it('refuses two resources mapping to the same path', () => {
    const plan = new OutputPlan();
    plan.add('api/v1/matrix/MA0004.1/index.json', '{}');
    expect(() => plan.add('api/v1/matrix/MA0004.1/index.json', '{"x":1}')).toThrow(/two resources map to the same output file api\/v1\/matrix\/MA0004\.1\/index\.json/);
    expect(plan.files.get('api/v1/matrix/MA0004.1/index.json')).toBe('{}');
  });

  it('refuses a file where another resource needs a folder', () => {
    const plan = new OutputPlan();
    plan.add('api/v1/matrix/MA0004.1', 'a file');
    expect(() => plan.add('api/v1/matrix/MA0004.1/index.json', '{}')).toThrow();
    const other = new OutputPlan();
    other.add('api/v1/matrix/MA0004.1/index.json', '{}');
    expect(() => other.add('api/v1/matrix/MA0004.1', 'a file')).toThrow();
  });

  it.each(['../x', '..', '.', '', '/abs', '/etc/passwd', 'a/../b', 'a/../../b', './a', 'a//b', 'a/./b', 'a/b/..'])(
    'refuses the path %j',
    (p) => {
      const plan = new OutputPlan();
      expect(() => plan.add(p, 'x')).toThrow(/not a clean relative path inside the output folder/);
      expect(plan.files.size).toBe(0);
    },
  );

  it('refuses a folder with more entries than the limit', () => {
    const plan = new OutputPlan();
    for (let i = 0; i < 4; i++) plan.add(`api/v1/matrix/MA000${i}.1/index.json`, '{}');
    plan.add('index.html', '');
    expect(() => plan.checkFolderSizes(4)).not.toThrow(); // exactly the limit is fine
    plan.add('api/v1/matrix/MA0009.1/index.json', '{}');
    expect(() => plan.checkFolderSizes(4)).toThrow(/folder "api\/v1\/matrix" would hold 5 entries; Netlify accepts at most 4/);
  });

  it('counts files and sub-folders alike, at the top level too', () => {
    const plan = new OutputPlan();
    plan.add('a', '');
    plan.add('b/x', '');
    plan.add('c/y/z', '');
    expect(() => plan.checkFolderSizes(3)).not.toThrow();
    expect(() => plan.checkFolderSizes(2)).toThrow(/folder "\." would hold 3 entries/);
  });

  it('uses the host limit by default', () => {
    expect(MAX_DIR_ENTRIES).toBe(54_000);
    const plan = new OutputPlan();
    for (let i = 0; i < 1000; i++) plan.add(`d/${i}`, '');
    expect(() => plan.checkFolderSizes()).not.toThrow();
  });
});

describe('writeSite', () => {
  const plan = () => {
    const p = new OutputPlan();
    p.add('index.html', '<h1>new</h1>');
    p.add('api/v1/matrix/MA0004.1/index.json', '{"matrix_id":"MA0004.1"}');
    p.add('api/v1/matrix/MA0004.1/logo.svg', Buffer.from('<svg/>'));
    p.add('404.html', '{"detail":"Not found."}');
    return p;
  };

  it('writes every planned file into a new folder (parents created)', async () => {
    const root = tempRoot();
    const out = path.join(root, 'deep', 'public');
    await writeSite(plan(), out);
    expect(listFiles(out)).toEqual(['404.html', 'api/v1/matrix/MA0004.1/index.json', 'api/v1/matrix/MA0004.1/logo.svg', 'index.html']);
    expect(readFileSync(path.join(out, 'api/v1/matrix/MA0004.1/index.json'), 'utf8')).toBe('{"matrix_id":"MA0004.1"}');
    expect(readFileSync(path.join(out, 'api/v1/matrix/MA0004.1/logo.svg'), 'utf8')).toBe('<svg/>');
    expect(readdirSync(path.join(root, 'deep'))).toEqual(['.public-build-state', 'public']);
  });

  it('replaces an existing folder completely: stale files and folders disappear', async () => {
    const root = tempRoot();
    const out = path.join(root, 'public');
    mkdirSync(path.join(out, 'api/v1/matrix/MA9999.1'), { recursive: true });
    writeFileSync(path.join(out, 'api/v1/matrix/MA9999.1/index.json'), 'stale');
    writeFileSync(path.join(out, 'index.html'), '<h1>old</h1>');
    writeFileSync(path.join(out, 'stale.txt'), 'stale');
    mkdirSync(path.join(out, 'empty-stale-folder'));
    await writeSite(plan(), out, { workers: 0 });
    expect(listFiles(out)).toEqual(['404.html', 'api/v1/matrix/MA0004.1/index.json', 'api/v1/matrix/MA0004.1/logo.svg', 'index.html']);
    expect(readdirSync(out).sort()).toEqual(['404.html', 'api', 'index.html']);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('<h1>new</h1>');
    expect(readdirSync(root)).toEqual(['.public-build-state', 'public']); // the state, no temporary folder
  });

  it('writes a file where the previous build had a folder, whose files go with it', async () => {
    const out = path.join(tempRoot(), 'public');
    const before = plan();
    before.add('api/v1/species/9606/index.json', '{"n":1}');
    before.add('api/v1/species/9606/index.html', '<p>1</p>');
    await writeSite(before, out, { workers: 0 });
    const after = plan();
    after.add('api/v1/species/9606', 'a file now\n');
    await writeSite(after, out, { workers: 0 });
    expect(listFiles(out)).toEqual(['404.html', 'api/v1/matrix/MA0004.1/index.json', 'api/v1/matrix/MA0004.1/logo.svg', 'api/v1/species/9606', 'index.html']);
    expect(readFileSync(path.join(out, 'api/v1/species/9606'), 'utf8')).toBe('a file now\n');
  });

  it('writing the same plan twice gives the same tree', async () => {
    const root = tempRoot();
    const out = path.join(root, 'public');
    await writeSite(plan(), out);
    const first = listFiles(out).map((f) => [f, readFileSync(path.join(out, f), 'utf8')]);
    await writeSite(plan(), out, { workers: 0 });
    expect(listFiles(out).map((f) => [f, readFileSync(path.join(out, f), 'utf8')])).toEqual(first);
    expect(readdirSync(root)).toEqual(['.public-build-state', 'public']);
  });
});

describe('OutputPlan path tables (32-bit hashes, no path kept but by its owner)', () => {
  /** Two file names whose paths have one FNV-1a hash, found by trying names in turn. */
  const collision = (folder: string, spell: (i: number) => string): [string, string] => {
    const seen = new Map<number, string>();
    for (let i = 0; ; i++) {
      const p = `${folder}/${spell(i)}`;
      const h = fnv1a(p);
      const other = seen.get(h);
      if (other !== undefined) return [other, p];
      seen.set(h, p);
    }
  };

  it('tells apart two paths with one hash, and still refuses each planned twice', () => {
    const [a, b] = collision('api', (i) => `f${i}.json`);
    const plan = new OutputPlan();
    plan.add(a, 'a');
    plan.add(b, 'b');
    expect(plan.files.get(a)).toBe('a');
    expect(plan.files.get(b)).toBe('b');
    expect(() => plan.add(b, 'again')).toThrow(/two resources map to the same output file/);
    expect([...plan.files.keys()]).toEqual([a, b]);
  });

  it('tells apart two lower-case spellings with one hash, and still finds a case clash of each', () => {
    const [a, b] = collision('api', (i) => `f${i}.json`);
    const plan = new OutputPlan();
    plan.add(a, 'a');
    plan.add(b, 'b');
    expect(() => plan.checkCaseClashes()).not.toThrow();
    plan.add(`api/${b.slice(4).toUpperCase()}`, 'B');
    expect(() => plan.checkCaseClashes()).toThrow(/differs only in case/);
  });

  it('keeps a plan of many paths in many folders (the tables grow)', () => {
    const plan = new OutputPlan();
    for (let i = 0; i < 5000; i++) plan.add(`d${i % 700}/f${i}.json`, String(i));
    expect(plan.files.size).toBe(5000);
    expect(plan.folderList().length).toBe(701);
    for (let i = 0; i < 5000; i += 37) expect(plan.files.get(`d${i % 700}/f${i}.json`)).toBe(String(i));
    expect(plan.files.has('d0/f1.json')).toBe(false);
  });
});
