// Hosts that ignore query strings (issue 19 item 5), on http-server 14.1.1
// for real: a small release built twice, with the service's query links (the
// default) and with --links path. With path links a client that only follows
// the bodies' links (an index list's item, then `next` to the end) gets every
// matrix of a filtered list once, in the format it started with; with query
// links the same client gets the folder's page for people (200 text/html),
// which is what http-server answers any query URL with. The edge handler
// over a compact path build renders every missing file as the full one has it.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { SITE_BASE_URL, dataDir } from '../support/paths.ts';
import { buildOk } from '../support/run.ts';
import { get, startHttpServer, type RunningServer } from '../support/servers.ts';
import { compareCompact } from '../edge/compact-compare.ts';

// About 100 matrices over both collections and every taxonomic group: filtered lists of several pages.
const rows = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').split('\n').slice(1).filter((l) => l !== '');
const IDS = rows.filter((_, i) => i % 50 === 0).map((l) => l.split(',')[0]);
const CORE = new Set(rows.filter((l) => IDS.includes(l.split(',')[0]) && l.split(',')[3] === 'CORE').map((l) => l.split(',')[0]));

let root: string;
let data: string;
const sites: Record<'query' | 'path', { dir: string; server?: RunningServer }> = { query: { dir: '' }, path: { dir: '' } };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'jaspar-links-'));
  data = makeRelease(IDS);
  for (const style of ['query', 'path'] as const) {
    sites[style].dir = path.join(root, style);
    await buildOk(['--data', data, '--out', sites[style].dir, '--base-url', SITE_BASE_URL, '--links', style]);
    sites[style].server = await startHttpServer(sites[style].dir);
  }
}, 300_000);

afterAll(async () => {
  for (const site of Object.values(sites)) await site.server?.stop();
  await rm(root, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
}, 60_000);

/** A body's link on the server under test (the bodies are built for SITE_BASE_URL). */
const on = (style: 'query' | 'path', link: string) => {
  expect(link.startsWith(`${SITE_BASE_URL}/`), link).toBe(true);
  return `${sites[style].server!.origin}${link.slice(SITE_BASE_URL.length)}`;
};

async function json(style: 'query' | 'path', url: string): Promise<Record<string, unknown>> {
  const r = await get(url);
  expect([r.status, r.type], url).toEqual([200, 'application/json']);
  return JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
}

describe('--links path on http-server', () => {
  it('the release holds a collection list of several pages (what the walk below pages through)', () => {
    expect(CORE.size).toBeGreaterThan(30);
  });

  it('a client following an index item and then next gets every matrix of the filtered list once', async () => {
    // Start where a client starts: the API root, by its file.
    const apiRoot = await json('path', `${sites.path.server!.origin}/api/v1/index.json`);
    const collections = await json('path', on('path', apiRoot.collections as string));
    const core = (collections.results as { name: string; url: string }[]).find((c) => c.name === 'CORE')!;
    let url: string | null = on('path', core.url);
    const seen: string[] = [];
    let pages = 0;
    while (url !== null) {
      const page = await json('path', url);
      expect(page.count).toBe(CORE.size);
      for (const item of page.results as { matrix_id: string; collection: string; url: string }[]) {
        expect(item.collection).toBe('CORE');
        seen.push(item.matrix_id);
      }
      url = page.next === null ? null : on('path', page.next as string);
      pages++;
    }
    expect(pages).toBe(Math.ceil(CORE.size / 10));
    expect(seen.length).toBe(new Set(seen).size);
    expect(new Set(seen)).toEqual(CORE);
  });

  it('keeps the format and the page size in next and previous, and links items and versions to their JSON files', async () => {
    const origin = sites.path.server!.origin;
    const yaml = await get(`${origin}/api/v1/matrix/collection/CORE/page_size/1000/page/1/index.yaml`);
    expect(yaml.status).toBe(200);
    const page2 = await json('path', `${origin}/api/v1/matrix/page_size/25/page/2/index.json`);
    expect(page2.next).toBe(`${SITE_BASE_URL}/api/v1/matrix/page_size/25/page/3/index.json`);
    expect(page2.previous).toBe(`${SITE_BASE_URL}/api/v1/matrix/page_size/25/page/1/index.json`);
    const jsonp = (await get(`${origin}/api/v1/matrix/page/2/index.js`)).body.toString('utf8');
    expect(jsonp).toContain(`"next":"${SITE_BASE_URL}/api/v1/matrix/page/3/index.js"`);
    const item = (page2.results as { matrix_id: string; url: string }[])[0];
    const detail = await json('path', on('path', item.url));
    expect(detail.matrix_id).toBe(item.matrix_id);
    const versions = await json('path', on('path', detail.versions_url as string));
    expect((versions.results as { matrix_id: string }[]).map((v) => v.matrix_id)).toContain(item.matrix_id);
  });

  it('with the default query links, the same client gets the page for people: http-server answers a query URL with the folder file', async () => {
    const origin = sites.query.server!.origin;
    const page1 = await json('query', `${origin}/api/v1/matrix/collection/CORE/page/1/index.json`);
    expect(page1.next).toBe(`${SITE_BASE_URL}/api/v1/matrix?collection=CORE&format=json&page=2`);
    const next = await get(on('query', page1.next as string));
    // http-server redirects the folder without its slash (302, the query kept), then answers the folder's index.html, ignoring the query.
    expect([next.status, next.headers.get('location')]).toEqual([302, '/api/v1/matrix/?collection=CORE&format=json&page=2']);
    const followed = await get(on('query', page1.next as string), 'follow');
    expect([followed.status, followed.type]).toEqual([200, 'text/html']);
    expect(followed.body.equals(readFileSync(path.join(sites.query.dir, 'api/v1/matrix/index.html')))).toBe(true);
    // A query on a file is ignored as well: page 1's JSON again, not page 2.
    const again = await get(`${origin}/api/v1/matrix/collection/CORE/page/1/index.json?page=2`);
    expect(again.body.equals(readFileSync(path.join(sites.query.dir, 'api/v1/matrix/collection/CORE/page/1/index.json')))).toBe(true);
  });

  it('the edge handler over a compact --links path build renders every file of the full one, path links included', async () => {
    const compact = path.join(root, 'compact');
    await buildOk(['--data', data, '--out', compact, '--base-url', SITE_BASE_URL, '--links', 'path', '--profile', 'compact']);
    const c = await compareCompact(sites.path.dir, compact);
    expect(c.compared).toBeGreaterThan(5000);
    expect(c.different).toEqual([]);
    expect(c.extra).toEqual([]);
  }, 300_000);
});
