// The bulk files' record texts kept across builds (mirror/bulk.ts RecordCache): a rebuild's files from the
// cache, empty or filled by a build before, are the bytes of every record rendered afresh.
import { describe, expect, it } from 'vitest';
import { bulkFiles } from '../../generator/mirror/bulk.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { logoPath } from '../../generator/routes/urls.ts';
import { SITE_BASE_URL } from '../support/paths.ts';
import { releaseInfo, sharedRelease } from '../support/release.ts';

const context = { release: releaseInfo(), logoHref: (id: string) => logoPath(FLAT, id), detailHref: (id: string) => id };
describe('records kept across builds', () => {
  it('give the same files as rendering every record, the json list included, whether the cache is empty or filled', () => {
    const entries = new Map<string, string>();
    const cache = { get: (key: string) => entries.get(key), set: (key: string, text: string) => void entries.set(key, text) };
    const withCache = () => [...bulkFiles(sharedRelease(), SITE_BASE_URL, FLAT, context, undefined, cache)];
    const fresh = [...bulkFiles(sharedRelease(), SITE_BASE_URL, FLAT, context)];
    const first = withCache();
    expect([...entries.keys()].some((key) => key.includes(' json '))).toBe(true);
    // Filled: a second build takes the json list's items from the cache (a wrong item shows in the bytes).
    const second = withCache();
    for (const files of [first, second]) {
      expect(files.map((f) => f.path)).toEqual(fresh.map((f) => f.path));
      files.forEach((f, i) => expect(f.content, f.path).toBe(fresh[i].content));
    }
  });
});
