// Two builds of the same input are byte-identical; the base URL changes
// nothing but the URLs. The global setup's site (the fixture site under
// `npm test`, the full one under `npm run test:full`) is built a second time
// and compared by its manifests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { SITE_BASE_URL, siteDataDirs } from '../support/paths.ts';
import { buildOk, turn } from '../support/run.ts';
import { suiteFolders } from '../support/folders.ts';
import { listFiles } from '../support/tree.ts';

async function build(data: string | string[], out: string, baseUrl: string): Promise<void> {
  await buildOk([...[data].flat().flatMap((d) => ['--data', d]), '--out', out, '--base-url', baseUrl]);
}

/**
 * The files whose bytes differ (after an optional rewrite of b's text), at
 * most `limit`. Yields to the event loop now and then: a test worker blocked
 * for a minute misses Vitest's RPC deadline ("Timeout calling onTaskUpdate").
 */
async function differences(a: string, b: string, files: string[], rewrite?: (text: string) => string, limit = 20): Promise<string[]> {
  const diff: string[] = [];
  for (const [i, f] of files.entries()) {
    if (i % 500 === 499) await turn();
    const x = readFileSync(path.join(a, f));
    let y = readFileSync(path.join(b, f));
    if (rewrite) {
      const text = y.toString('utf8');
      const rewritten = rewrite(text);
      if (rewritten !== text) y = Buffer.from(rewritten);
    }
    if (!x.equals(y)) {
      diff.push(f);
      if (diff.length >= limit) break;
    }
  }
  return diff;
}

const { make: tempDir, keep } = suiteFolders();

/**
 * Every mirror scope's manifest, archive checksum (the site's and each
 * release's under releases/<year>/), by path: the manifest holds the SHA-256
 * of every other file of its scope, the checksum the archive's.
 */
function hashedFiles(files: string[]): string[] {
  return files.filter((f) => /(^|\/)download\/(SHA256SUMS|jaspar-api-mirror\.tar\.gz\.sha256)$/.test(f));
}

describe('builds are deterministic', () => {
  // Compared by their manifests, not file by file: a full site is 285,000 files
  // (`npm run test:full`), and the manifests hold a hash of each of them.
  it('the site of the global setup (both releases) built twice: the same files, the same manifests and archives', async () => {
    const first = inject('siteDir'); // built by the global setup with SITE_BASE_URL
    const second = path.join(tempDir('jaspar-determinism-'), 'public');
    await build(siteDataDirs(), second, SITE_BASE_URL);
    const a = listFiles(first);
    await turn();
    expect(listFiles(second)).toEqual(a);
    const hashed = hashedFiles(a);
    // A manifest and a checksum for the default release and one for each other (releases/2026/download/).
    expect(hashed.filter((f) => f.endsWith('SHA256SUMS')).length).toBe(siteDataDirs().length);
    // The manifests cover every file but themselves, the archives and their checksums: equal manifests are equal files.
    const listed = new Set<string>();
    for (const m of hashed.filter((f) => f.endsWith('SHA256SUMS'))) {
      const scope = m.slice(0, -'download/SHA256SUMS'.length);
      // Paths are the site's (a release's archive unpacks into its place in the whole site).
      for (const line of readFileSync(path.join(first, m), 'utf8').split('\n').filter(Boolean)) listed.add(line.slice(66));
    }
    const unlisted = a.filter((f) => !listed.has(f) && !hashed.includes(f) && !f.endsWith('download/jaspar-api-mirror.tar.gz'));
    expect(unlisted).toEqual([]);
    expect(await differences(first, second, hashed)).toEqual([]);
  }, 1_800_000); // the full site built again (`npm run test:full`): 140 s on a quiet machine, 880 s under five helpers' load

  describe('a small release', () => {
    const data = makeRelease();
    keep(data);
    const root = tempDir('jaspar-determinism-fixture-');
    const one = path.join(root, 'one');
    const two = path.join(root, 'two');
    const other = path.join(root, 'other');
    const OTHER_BASE = 'https://mirror.example.org';
    beforeAll(() => build(data, one, SITE_BASE_URL), 120_000);

    it('built twice gives byte-identical trees', async () => {
      await build(data, two, SITE_BASE_URL);
      const files = listFiles(one);
      expect(listFiles(two)).toEqual(files);
      expect(await differences(one, two, files)).toEqual([]);
    }, 120_000);

    it('built with another base URL differs only in the URLs', async () => {
      await build(data, other, OTHER_BASE);
      const files = listFiles(one);
      expect(listFiles(other)).toEqual(files);
      // The base URL is used…
      const detail = 'api/v1/matrix/MA0004.1/index.json';
      const text = readFileSync(path.join(other, detail), 'utf8');
      expect(text).toContain(`"sequence_logo":"${OTHER_BASE}/static/logos/svg/MA0004.1.svg"`);
      expect(text).not.toContain(SITE_BASE_URL);
      expect((await differences(one, other, files)).length).toBeGreaterThan(0);
      // …and nothing else changes.
      expect(readFileSync(path.join(one, detail), 'utf8')).toBe(text.replaceAll(OTHER_BASE, SITE_BASE_URL));
      // The mirror's archive, its checksum and the manifest hold hashes (and
      // compressed bytes) of the files, and the downloads page their sizes,
      // which change with the URLs' length: no text replacement can carry those over.
      const hashed = (f: string) => f === 'download/SHA256SUMS' || f.endsWith('.tar.gz') || f.endsWith('.tar.gz.sha256') || f === 'download/index.html';
      expect(await differences(one, other, files.filter((f) => !hashed(f)), (t) => t.replaceAll(OTHER_BASE, SITE_BASE_URL))).toEqual([]);
    }, 120_000);
  });
});
