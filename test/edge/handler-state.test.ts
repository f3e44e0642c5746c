// createHandler() (issue 21): what a handler reads of its site (the
// indexes) is its own, kept across its requests; two handlers share nothing
// (with the indexes in the module, as before, the second handler below would
// answer from the first one's release). Over the 9-matrix fixture release,
// its indexes as the build writes them, in memory.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadRelease } from '../../generator/dataset/curated.ts';
import type { Release } from '../../generator/dataset/types.ts';
import { edgeIndexFiles } from '../../generator/edge/build-indexes.ts';
import { createHandler, type EdgeSite } from '../../generator/edge/handler.ts';
import { INDEX_PATH } from '../../generator/edge/indexes.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { FIXTURE_IDS, makeRelease } from '../support/fixtures.ts';
import { releaseInfo } from '../support/release.ts';

const BASE = 'http://jaspar.test';
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

function release(ids: string[]): Release {
  const dir = makeRelease(ids);
  folders.push(dir);
  return loadRelease(dir, releaseInfo());
}

/** A site holding only the release's edge indexes; `reads` counts the reads of each path. */
function siteOf(r: Release): EdgeSite & { reads: Map<string, number> } {
  const files = new Map(edgeIndexFiles(r, BASE, FLAT).map(([file, content]) => [`/${file}`, content]));
  const reads = new Map<string, number>();
  return {
    reads,
    next: async () => new Response('{"detail":"Not found."}', { status: 404 }),
    readFile: async (path) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return files.get(path) ?? null;
    },
  };
}

const count = async (response: Response) => ((await response.json()) as { count: number }).count;
/** A list the build does not pre-render (search=): rendered from the indexes. */
const searched = () => new Request(`${BASE}/api/v1/matrix/?search=MA&format=json`);

describe('createHandler', () => {
  it('two handlers share nothing: each answers from its own site', async () => {
    const nine = siteOf(release(FIXTURE_IDS));
    const three = siteOf(release(FIXTURE_IDS.slice(0, 3)));
    const a = createHandler();
    const b = createHandler();
    expect(await count(await a(searched(), nine))).toBe(7); // the MA ids of the nine
    expect(await count(await b(searched(), three))).toBe(3);
    // A handler without indexes passes the request to the files, whatever another handler has read.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bare = await createHandler()(searched(), { next: async () => new Response('static'), readFile: async () => null });
    quiet.mockRestore();
    expect(await bare.text()).toBe('static');
  });

  it('a handler reads its indexes once, however many requests it answers', async () => {
    const site = siteOf(release(FIXTURE_IDS));
    const handle = createHandler();
    for (let i = 0; i < 3; i++) expect((await handle(searched(), site)).status).toBe(200);
    expect(site.reads.get(INDEX_PATH)).toBe(1);
    // A new handler starts cold: it reads them again.
    await createHandler()(searched(), site);
    expect(site.reads.get(INDEX_PATH)).toBe(2);
  });

  it('a read that failed is tried again by the next request', async () => {
    const site = siteOf(release(FIXTURE_IDS));
    let fail = true;
    const flaky: EdgeSite = { next: site.next, readFile: async (path) => (fail ? Promise.reject(new Error('unreachable')) : site.readFile(path)) };
    const handle = createHandler();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await handle(searched(), flaky)).status).toBe(404); // the files' answer: the handler could not read its indexes
    quiet.mockRestore();
    fail = false;
    expect(await count(await handle(searched(), flaky))).toBe(7);
  });
});
