// A record's binding sites are read from their file when asked (dataset/sites.ts), not held: the text
// asked for is the file's as checked, a file without a final line break gets one as readBed gives it,
// and a file changed after it was checked stops the build instead of putting another text in the site.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRelease } from '../../generator/dataset/curated.ts';
import type { ReleaseInfo } from '../../generator/dataset/types.ts';
import { hasSites, matrixDigest } from '../../generator/dataset/digest.ts';
import { ParsedFiles } from '../../generator/dataset/parsed-files.ts';
import { createHash } from 'node:crypto';
import { makeRelease } from '../support/fixtures.ts';

const INFO: ReleaseInfo = { name: 'JASPAR 2024', year: 2024, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.genereg.net/matrix/{matrix_id}', number: 10, citation: '', license: '', collections: [], olderVersions: null };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function release(edit?: (bed: string) => void) {
  const dir = makeRelease(['MA0014.2', 'MA0004.1']);
  made.push(dir);
  const bed = path.join(dir, 'sites', 'MA0014.2.bed');
  edit?.(bed);
  const matrices = loadRelease(dir, INFO).matrices;
  return { bed, m: matrices.find((x) => x.matrixId === 'MA0014.2')!, none: matrices.find((x) => x.matrixId === 'MA0004.1')! };
}

describe('binding sites read from their file (dataset/sites.ts)', () => {
  it('kept by an earlier build as their length and MD5 (parsed-files.ts): the file\'s text, checked against them', () => {
    const dir = makeRelease(['MA0014.2', 'MA0004.1']);
    made.push(dir);
    const bed = path.join(dir, 'sites', 'MA0014.2.bed');
    const text = readFileSync(bed, 'utf8');
    const hashOf = (real: string) => createHash('sha1').update(readFileSync(real)).digest('hex');
    const first = new ParsedFiles(new Map(), hashOf);
    const digest = matrixDigest(loadRelease(dir, INFO, first).matrices.find((x) => x.matrixId === 'MA0014.2')!);
    // What is kept for the file is not its text.
    const kept = first.toKeep()!;
    const entry = [...kept].find(([key]) => key.startsWith('bed\0'))![1];
    expect(entry).toEqual({ length: text.length, md5: expect.any(String) });
    const m = loadRelease(dir, INFO, new ParsedFiles(kept, hashOf)).matrices.find((x) => x.matrixId === 'MA0014.2')!;
    expect(matrixDigest(m)).toBe(digest);
    // Another text of the same length under the kept hash (a file changed after it was hashed): the build stops.
    writeFileSync(bed, text.replace(/chr/, 'CHR'));
    expect(() => m.sites).toThrow(/changed while the site was built/);
    writeFileSync(bed, text);
    expect(m.sites).toBe(text);
  });

  it('are told present, and digested, from the text as checked, without reading the file', () => {
    const { bed, m, none } = release();
    const text = readFileSync(bed, 'utf8');
    // Gone: asking for the text would fail; whether there is one and the digest do not ask.
    rmSync(bed);
    expect([hasSites(m), hasSites(none)]).toEqual([true, false]);
    const digest = matrixDigest(m);
    expect(() => m.sites).toThrow();
    // Other sites set (the text held): told present from it, digested from it.
    writeFileSync(bed, text);
    const held = release().m;
    held.sites = `${text}chr1\t1\t2\n`;
    expect(hasSites(held)).toBe(true);
    expect(matrixDigest(held)).not.toBe(digest);
    held.sites = null;
    expect(hasSites(held)).toBe(false);
  });

  it('gives the file\'s text each time, copied whole by the records\' clones and the wire', () => {
    const { bed, m, none } = release();
    const text = readFileSync(bed, 'utf8');
    expect(text.length).toBeGreaterThan(0);
    expect(m.sites).toBe(text);
    expect(m.sites).toBe(text);
    expect(none.sites).toBeNull();
    // The workers get records by v8.serialize (pipeline/wire.ts); other code copies them by spreading.
    expect((deserialize(serialize(m)) as typeof m).sites).toBe(text);
    expect({ ...m }.sites).toBe(text);
    expect(JSON.parse(JSON.stringify(m)).sites).toBe(text);
  });

  it('adds the final line break readBed adds', () => {
    const { bed, m } = release((file) => writeFileSync(file, readFileSync(file, 'utf8').replace(/\n$/, '')));
    expect(readFileSync(bed, 'utf8').endsWith('\n')).toBe(false);
    expect(m.sites!.endsWith('\n')).toBe(true);
    expect(m.sites).toBe(`${readFileSync(bed, 'utf8')}\n`);
  });

  it('stops when the file changed after it was checked, even to a text of the same length', () => {
    const { bed, m } = release();
    const text = readFileSync(bed, 'utf8');
    // One coordinate digit changed: same length, other bytes.
    const changed = text.replace(/\t(\d)/, (_, d: string) => `\t${d === '9' ? '8' : '9'}`);
    expect(changed).not.toBe(text);
    expect(changed.length).toBe(text.length);
    writeFileSync(bed, changed);
    expect(() => m.sites).toThrow(/MA0014\.2\.bed:1: the binding-site file changed while the site was built \(fix: /);
    writeFileSync(bed, text);
    expect(m.sites).toBe(text);
  });

  it('holds a value set, as a plain property', () => {
    const { m } = release();
    m.sites = 'chr1\t1\t2\n';
    expect(m.sites).toBe('chr1\t1\t2\n');
    m.sites = null;
    expect(m.sites).toBeNull();
  });
});
