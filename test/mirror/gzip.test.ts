// The archive's gzip members (mirror/gzip.ts): compressed on the main thread for the first ones, on
// worker threads after; either way the bytes of zlib's one-shot call, with the OS byte set to Unix.
import { gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { Compressor } from '../../generator/mirror/gzip.ts';

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
  it.each([5, 2])('at level %i, on the main thread then on workers, are the bytes of gzipSync with byte 9 set to 3 (Unix), in the order asked', async (level) => {
    const tars = members(300);
    // Expected before compressing: a buffer of its own is handed to a worker (detached here).
    const expected = tars.map((t) => {
      const gz = gzipSync(t, { level, memLevel: 9 });
      gz[9] = 3;
      return gz;
    });
    const plain = tars.map((t) => Buffer.from(t));
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
    const compressor = new Compressor(5);
    try {
      for (const t of members(64)) await compressor.compress(t);
      expect((compressor as unknown as { workers: unknown[] }).workers).toHaveLength(0);
      await compressor.compress(Buffer.from('one more\n'));
      expect((compressor as unknown as { workers: unknown[] }).workers).toHaveLength(os.availableParallelism() < 2 ? 0 : os.availableParallelism());
    } finally {
      compressor.close();
    }
  });
});
