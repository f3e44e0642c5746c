// The archive's gzip members (mirror/gzip.ts): compressed on the main thread for the first ones, on
// worker threads after; either way the bytes of the compressor's one-shot call (mirror/deflate.ts: libdeflate
// where its addon is built, else zlib), with the OS byte set to Unix.
// The archive's bytes written and hashed on those threads (ArchiveStream): in the order given.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveStream, Compressor, hashFiles, startedThreads, stopThreads } from '../../generator/mirror/gzip.ts';
import { ADDON_FILE, COMPRESSOR, gzipMember } from '../../generator/mirror/deflate.ts';

/** Deterministic, compressible bytes of several sizes: a member's tar, a view of a larger buffer, an empty one. */
function members(count: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const text = Buffer.from(`{"id":"MA${String(i).padStart(4, '0')}.1","name":"member ${i}"}\n`.repeat(1 + ((i * 37) % 400)));
    if (i % 5 === 0) {
      // A view inside a larger buffer (a file read into an arena): its neighbours must not be compressed with it.
      const arena = Buffer.alloc(text.length + 64, 0x5a);
      text.copy(arena, 32);
      out.push(arena.subarray(32, 32 + text.length));
    } else if (i % 17 === 0) out.push(Buffer.alloc(0));
    else out.push(text);
  }
  return out;
}

describe('gzip members', () => {
  it.each([5, 2])('at level %i, on the main thread then on workers, are the bytes of gzipMember with byte 9 set to 3 (Unix), in the order asked', async (level) => {
    const tars = members(300);
    // Expected before compressing: a buffer of its own is handed to a worker (detached here).
    const expected = tars.map((t) => {
      const gz = gzipMember(t, level);
      gz[9] = 3;
      return gz;
    });
    const plain = tars.map((t) => Buffer.from(t));
    // No thread yet: the first members on the main thread.
    stopThreads();
    const compressor = new Compressor(level);
    try {
      const got = await Promise.all(tars.map((t) => compressor.compress(t)));
      for (let i = 0; i < got.length; i++) {
        expect(got[i].equals(expected[i]), `member ${i}`).toBe(true);
        expect(gunzipSync(got[i]).equals(plain[i]), `member ${i} unpacked`).toBe(true);
      }
    } finally {
      compressor.close();
    }
  });

  it('start workers only past the main thread\'s share (a machine of one core compresses every member on the main thread)', async () => {
    stopThreads();
    const compressor = new Compressor(5);
    try {
      for (const t of members(64)) await compressor.compress(t);
      expect(startedThreads()).toBe(0);
      await compressor.compress(Buffer.from('one more\n'));
      expect(startedThreads()).toBe(os.availableParallelism() < 2 ? 0 : os.availableParallelism());
      // The next archive's compressor takes the same threads, from its first member on.
      const next = new Compressor(1);
      for (const t of members(70)) await next.compress(t);
      expect(startedThreads()).toBe(os.availableParallelism() < 2 ? 0 : os.availableParallelism());
      stopThreads();
      // A thread started (an archive's writer): the first members go to it, and no other starts for them.
      await new ArchiveStream(-1).end().catch(() => {});
      expect(startedThreads()).toBe(1);
      const third = new Compressor(1);
      for (const t of members(64)) await third.compress(t);
      expect(startedThreads()).toBe(1);
    } finally {
      compressor.close();
    }
  });
});

describe('the compressor (mirror/deflate.ts)', () => {
  // What `npm ci` builds (scripts/native.mjs): libdeflate's addon where its headers are installed (.ci/run installs
  // libdeflate-dev), else nothing, and zlib compresses.
  const libdeflateThere = existsSync('/usr/include/libdeflate.h') || existsSync('/usr/local/include/libdeflate.h');

  it('is libdeflate where its headers are installed and its addon built, else Node\'s zlib (JASPAR_DEFLATE=zlib: zlib)', () => {
    if (process.env.JASPAR_DEFLATE === 'zlib' || !libdeflateThere) expect(COMPRESSOR).toBe(`zlib ${process.versions.zlib}`);
    else {
      expect(existsSync(ADDON_FILE), `${ADDON_FILE} is missing: npm run native builds it`).toBe(true);
      expect(COMPRESSOR).toMatch(/^libdeflate \d+\.\d+/);
    }
  });

  it('makes members that unpack to their bytes, at every level used and more, from none to a megabyte', () => {
    const sizes = [0, 1, 511, 512, 65_536, 430 * 1024, 1 << 20];
    for (const level of [1, 2, 4, 6, 9]) {
      for (const size of sizes) {
        const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919) % 251 < 40 ? 65 + (i % 26) : (i >> 4) & 0xff));
        const gz = gzipMember(bytes, level);
        expect(gz[0] === 0x1f && gz[1] === 0x8b && gz[2] === 8, `level ${level}, ${size} bytes: a gzip header`).toBe(true);
        expect(gunzipSync(gz).equals(bytes), `level ${level}, ${size} bytes`).toBe(true);
      }
    }
  });

  it('is zlib\'s one-shot call (memory level 9) when JASPAR_DEFLATE=zlib, libdeflate or not', () => {
    const code = `import { COMPRESSOR, gzipMember } from ${JSON.stringify(new URL('../../generator/mirror/deflate.ts', import.meta.url).href)};
      const bytes = Buffer.from('{"id":"MA0004.1"}\\n'.repeat(5000));
      process.stdout.write(JSON.stringify([COMPRESSOR, gzipMember(bytes, 4).toString('base64')]));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, JASPAR_DEFLATE: 'zlib' } });
    const [name, gz] = JSON.parse(out) as [string, string];
    expect(name).toBe(`zlib ${process.versions.zlib}`);
    expect(Buffer.from(gz, 'base64').equals(gzipSync(Buffer.from('{"id":"MA0004.1"}\n'.repeat(5000)), { level: 4, memLevel: 9 }))).toBe(true);
  });
});

describe('files hashed on the mirror threads', () => {
  it('give each file its SHA-256 and size, in the order asked, over several batches and larger than a thread\'s buffer', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hash-files-'));
    try {
      const files: string[] = [];
      const bytes: Buffer[] = [];
      // 150 files: three batches; one empty, one of 9 MB (its thread reads 4 MB at a time).
      for (let i = 0; i < 150; i++) {
        const b = i === 7 ? Buffer.alloc(0) : i === 100 ? Buffer.alloc(9 << 20, 'ab') : Buffer.from(`page ${i}\n`.repeat(1 + ((i * 53) % 3000)));
        const file = path.join(dir, `f${i}.json`);
        writeFileSync(file, b);
        files.push(file);
        bytes.push(b);
      }
      const got = await hashFiles(files);
      expect(got.map((g) => g.size)).toEqual(bytes.map((b) => b.length));
      expect(got.map((g) => g.hex)).toEqual(bytes.map((b) => createHash('sha256').update(b).digest('hex')));
      expect(await hashFiles([])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that cannot be read fails the hashing, naming it', async () => {
    const missing = path.join(os.tmpdir(), `hash-files-missing-${process.pid}`);
    await expect(hashFiles([missing])).rejects.toThrow(missing);
  });
});

describe('an archive stream', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes made members and copied ranges of another file in the order given, and gives their SHA-256', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'archive-stream-'));
    dirs.push(dir);
    // A previous archive larger than the thread's 4 MiB buffer, so a run is copied in several reads.
    const previous = Buffer.alloc(9 << 20);
    for (let i = 0; i < previous.length; i++) previous[i] = (i * 2654435761) >>> 24;
    writeFileSync(path.join(dir, 'previous'), previous);
    const before = openSync(path.join(dir, 'previous'), 'r');
    const out = openSync(path.join(dir, 'out'), 'w');
    try {
      // Streams on two archives at once, their messages interleaved.
      const other = openSync(path.join(dir, 'other'), 'w');
      const a = new ArchiveStream(out);
      const b = new ArchiveStream(other);
      const made = members(40);
      const expected: Buffer[] = [];
      for (const [i, m] of made.entries()) {
        if (i % 7 === 3) {
          const [offset, length] = [(i * 104729) % (1 << 20), i === 10 ? (8 << 20) + 17 : 1000 + i];
          a.copy(before, offset, length);
          expected.push(previous.subarray(offset, offset + length));
        } else {
          expected.push(Buffer.from(m));
          // Handed over (a buffer of its own is detached) or copied (a view).
          a.put(m);
        }
        b.put(Buffer.from(`other ${i}\n`));
      }
      const whole = Buffer.concat(expected);
      const [got, gotOther] = await Promise.all([a.end(), b.end()]);
      closeSync(other);
      expect(got).toEqual({ bytes: whole.length, sha256: createHash('sha256').update(whole).digest('hex') });
      expect(readFileSync(path.join(dir, 'out')).equals(whole)).toBe(true);
      const otherBytes = Buffer.from(made.map((_, i) => `other ${i}\n`).join(''));
      expect(gotOther.sha256).toBe(createHash('sha256').update(otherBytes).digest('hex'));
      expect(readFileSync(path.join(dir, 'other')).equals(otherBytes)).toBe(true);
    } finally {
      closeSync(before);
      closeSync(out);
    }
  });

  it('a copy past the end of the previous archive fails the archive, with what happened', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'archive-stream-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'previous'), 'short');
    const before = openSync(path.join(dir, 'previous'), 'r');
    const out = openSync(path.join(dir, 'out'), 'w');
    try {
      const stream = new ArchiveStream(out);
      stream.copy(before, 2, 100);
      await expect(stream.end()).rejects.toThrow('writing the archive: the previous archive ended before its member at 5');
      // The thread is still there for the next archive.
      const next = new ArchiveStream(out);
      next.put(Buffer.from('after\n'));
      expect((await next.end()).bytes).toBe(6);
    } finally {
      closeSync(before);
      closeSync(out);
    }
  });
});
