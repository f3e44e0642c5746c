// The digests a rebuild's render takes of the mid-sized files it hands the writer (mirror/handed.ts), for the archives' patch.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HandedDigests } from '../../generator/mirror/handed.ts';
import { CHUNKING } from '../../generator/mirror/archive.ts';
import { LINKED_MAX } from '../../generator/write/same-bytes.ts';
import type { ScheduleSink } from '../../generator/pipeline/schedule.ts';

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('HandedDigests', () => {
  it('hashes the files between LINKED_MAX and LARGE bytes as handed (a string as its UTF-8), hands every call on to the writer', () => {
    const calls: string[] = [];
    const writer: ScheduleSink = {
      key: (first, key) => void calls.push(`key ${first} ${key}`),
      reuse: (paths, key) => (calls.push(`reuse ${paths.join(',')} ${key}`), key === 'kept'),
      file: (rel) => void calls.push(`file ${rel}`),
    };
    const handed = new HandedDigests();
    const sink = handed.sink(writer);
    const mid = Buffer.alloc(LINKED_MAX + 1, 'a');
    // Two-byte characters: more bytes than characters, over LINKED_MAX bytes in fewer than LINKED_MAX characters.
    const text = 'é'.repeat(LINKED_MAX / 2 + 10);
    sink.key('a', 'k');
    expect(sink.reuse(['a'], 'kept')).toBe(true);
    expect(sink.reuse(['a'], 'other')).toBe(false);
    sink.file('mid', mid);
    sink.file('text', text);
    sink.file('small', Buffer.alloc(LINKED_MAX, 'b'));
    sink.file('large', Buffer.alloc(CHUNKING.large, 'c'));
    sink.file('pieces', { pieces: () => ['d'.repeat(LINKED_MAX + 1)] });
    expect(calls).toEqual(['key a k', 'reuse a kept', 'reuse a other', 'file mid', 'file text', 'file small', 'file large', 'file pieces']);
    expect(handed.sha256('mid')).toBe(sha256(mid));
    expect(handed.sha256('text')).toBe(sha256(Buffer.from(text, 'utf8')));
    // The writer hashes the small ones (same-bytes.ts); the large ones are cut on the mirror threads as they are hashed.
    for (const rel of ['small', 'large', 'pieces', 'unknown']) expect(handed.sha256(rel), rel).toBeUndefined();
  });
});
