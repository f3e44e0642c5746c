// The digests a rebuild's render takes of the files it hands the writer (mirror/handed.ts), for the archives' patch.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HandedDigests } from '../../generator/mirror/handed.ts';
import { CHUNKING } from '../../generator/mirror/archive.ts';
import { hashFiles } from '../../generator/mirror/gzip.ts';
import { LINKED_MAX } from '../../generator/write/same-bytes.ts';
import type { ScheduleSink } from '../../generator/pipeline/schedule.ts';
import type { WriteContent } from '../../generator/pipeline/output-plan.ts';

const temp = mkdtempSync(path.join(os.tmpdir(), 'jaspar-handed-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Bytes as varied as a bulk file's (a linear congruential generator's digits), so that they are cut in many chunks. */
function varied(bytes: number, seed: number): string {
  let x = seed;
  let text = '';
  while (text.length < bytes) text += `${(x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 100000}${x % 7 === 0 ? '\n' : ' '}`;
  return text.slice(0, bytes);
}

describe('HandedDigests', () => {
  it('hashes the files over LINKED_MAX bytes as handed (a string as its UTF-8), the large ones cut on a mirror thread as hashFiles cuts them read; hands every call on to the writer', async () => {
    const calls: string[] = [];
    const got = new Map<string, Buffer>();
    const writer: ScheduleSink = {
      key: (first, key) => void calls.push(`key ${first} ${key}`),
      reuse: (paths, key) => (calls.push(`reuse ${paths.join(',')} ${key}`), key === 'kept'),
      file: (rel: string, content: WriteContent) => {
        calls.push(`file ${rel}`);
        if (typeof content === 'string' || Buffer.isBuffer(content)) got.set(rel, Buffer.from(content));
      },
    };
    const handed = new HandedDigests();
    const sink = handed.sink(writer);
    const mid = Buffer.alloc(LINKED_MAX + 1, 'a');
    // Two-byte characters: more bytes than characters, over LINKED_MAX bytes in fewer than LINKED_MAX characters.
    const text = 'é'.repeat(LINKED_MAX / 2 + 10);
    const largeText = `é${varied(CHUNKING.large * 3, 1)}`;
    // A view of a larger buffer, reused by its owner once the call returns (as the render's batches are).
    const batch = Buffer.from(`xx${varied(CHUNKING.large + 5, 2)}yy`);
    const largeBytes = batch.subarray(2, batch.length - 2);
    const want = Buffer.from(largeBytes);
    sink.key('a', 'k');
    expect(sink.reuse(['a'], 'kept')).toBe(true);
    expect(sink.reuse(['a'], 'other')).toBe(false);
    sink.file('mid', mid);
    sink.file('text', text);
    sink.file('small', Buffer.alloc(LINKED_MAX, 'b'));
    sink.file('large text', largeText);
    sink.file('large bytes', largeBytes);
    batch.fill(0);
    sink.file('pieces', { pieces: () => ['d'.repeat(LINKED_MAX + 1)] });
    expect(calls).toEqual(['key a k', 'reuse a kept', 'reuse a other', 'file mid', 'file text', 'file small', 'file large text', 'file large bytes', 'file pieces']);
    // The writer is handed the same bytes.
    expect(got.get('large text')!.equals(Buffer.from(largeText))).toBe(true);
    expect(got.get('text')!.equals(Buffer.from(text))).toBe(true);
    expect(handed.sha256('mid')).toBe(sha256(mid));
    expect(handed.sha256('text')).toBe(sha256(Buffer.from(text, 'utf8')));
    // The writer hashes the small ones (same-bytes.ts); content in pieces is read on the threads after the render.
    for (const rel of ['small', 'pieces', 'unknown', 'large text']) expect(handed.sha256(rel), rel).toBeUndefined();
    for (const rel of ['mid', 'small', 'pieces']) expect(handed.chunked(rel), rel).toBeUndefined();
    // The large ones as hashFiles makes them from the files written.
    writeFileSync(path.join(temp, 'large text'), largeText);
    writeFileSync(path.join(temp, 'large bytes'), want);
    const read = await hashFiles([path.join(temp, 'large text'), path.join(temp, 'large bytes')], CHUNKING);
    const fromHanded = await Promise.all([handed.chunked('large text')!, handed.chunked('large bytes')!]);
    expect(read[0].chunks!.length).toBeGreaterThan(1);
    expect(fromHanded).toEqual(read);
    expect(fromHanded[1].hex).toBe(sha256(want));
  });
});
