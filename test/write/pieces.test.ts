// Content written in pieces (pipeline/output-plan.ts StreamedContent): a bulk
// file not held by the plan is rendered again when written, record by record,
// and written a chunk at a time. The bytes are those of the whole text; a
// file already holding them keeps its mtime; and rendering again keeps no
// record (the records kept across builds were let go with the plan).
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../generator/dataset/curated.ts';
import { bulkFiles, type RecordCache } from '../../generator/mirror/bulk.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { writeIfChanged } from '../../generator/write/files.ts';
import { makeRelease } from '../support/fixtures.ts';
import { SITE_BASE_URL } from '../support/paths.ts';
import { context, releaseInfo } from '../support/release.ts';

const fixture = makeRelease();
const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-pieces-'));
afterAll(() => {
  rmSync(fixture, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

const pieces = (...texts: string[]) => ({ pieces: () => texts });
const mtime = (rel: string) => statSync(path.join(root, rel)).mtimeMs;
const age = (rel: string) => utimesSync(path.join(root, rel), new Date(1e12), new Date(1e12));

describe('writeIfChanged with pieces', () => {
  it('writes the pieces joined, across chunk boundaries (a piece over 1 MB, multi-byte characters)', () => {
    const big = 'é'.repeat((1 << 20) + 7);
    const w = writeIfChanged(root, 'a/b.txt', pieces('head\n', big, 'µ tail\n', ''), false, new Set());
    const text = `head\n${big}µ tail\n`;
    expect(w).toMatchObject({ written: true, size: Buffer.byteLength(text) });
    expect(readFileSync(path.join(root, 'a/b.txt'), 'utf8')).toBe(text);
  });

  it('leaves a file that holds the same bytes alone, and rewrites one that differs in a byte, is shorter or longer', () => {
    writeFileSync(path.join(root, 'c.txt'), 'one\ntwo\n');
    age('c.txt');
    expect(writeIfChanged(root, 'c.txt', pieces('one\n', 'two\n'), true, new Set()).written).toBe(false);
    expect(mtime('c.txt')).toBe(1e12);
    for (const text of ['one\ntwO\n', 'one\ntwo', 'one\ntwo\n3\n', '']) {
      age('c.txt');
      writeFileSync(path.join(root, 'c.txt'), 'one\ntwo\n');
      const w = writeIfChanged(root, 'c.txt', pieces(...text.split(/(?<=\n)/)), true, new Set());
      expect(w.written, JSON.stringify(text)).toBe(true);
      expect(readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe(text);
    }
  });
});

describe('writeIfChanged with bytes', () => {
  it('writes over a file in place, cut to its new length when shorter (write/files.ts WRITE: never truncated on open)', () => {
    for (const text of ['a longer text than the file held\n', 'short\n', 'short\n'.repeat(2000), 'x', '']) {
      writeFileSync(path.join(root, 'd.txt'), 'one\ntwo\nthree\n'.repeat(400));
      const ino = statSync(path.join(root, 'd.txt')).ino;
      const w = writeIfChanged(root, 'd.txt', text, true, new Set());
      expect(w, JSON.stringify(text.slice(0, 20))).toMatchObject({ written: true, size: Buffer.byteLength(text), ino });
      expect(readFileSync(path.join(root, 'd.txt'), 'utf8')).toBe(text);
      expect(statSync(path.join(root, 'd.txt')).ctimeMs).toBe(w.ctimeMs);
    }
  });
});

describe('bulk files rendered again in pieces', () => {
  const release = loadRelease(fixture, releaseInfo());

  it('give the bytes rendered when listed, and keep no record in the cache across builds once listed', () => {
    const sets: string[] = [];
    const cache: RecordCache = { get: () => undefined, set: (key) => void sets.push(key) };
    const files = [...bulkFiles(release, SITE_BASE_URL, FLAT, context(), undefined, cache)];
    expect(files.length).toBeGreaterThan(5);
    const listed = sets.length;
    expect(listed).toBeGreaterThan(0);
    for (const file of files) {
      expect([...file.pieces()].join(''), file.path).toBe(file.content);
      expect(file.render(), file.path).toBe(file.content);
    }
    expect(sets.length).toBe(listed);
  });
});
