// Two builds of a small release that the full test site cannot show:
// - under a path (--base-url http://jaspar.test/jaspar/, as a GitHub Pages
//   project site is served under /<repository>/): the PARENT folder is
//   served, so every link, asset and rule must carry /jaspar/ (issue 15, 13);
// - in the sharded layout that only a release ten times JASPAR's gets on its
//   own (routes/shard.ts), forced here: Netlify's rules must find the id
//   folders in their shard folders (issue 13: they pointed at
//   /api/v1/matrix/:id/:id/).
// Both through Netlify's engine (netlify dev) and http-server.
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { RULE_BUDGET } from '../../generator/hosting/rules.ts';
import { makeRelease } from '../support/fixtures.ts';
import { FORMAT_FILES, FORMATS, fetchAll, get, problems, startHttpServer, startNetlifyDev, type RunningServer } from '../support/servers.ts';
import { dataDir } from '../support/paths.ts';

const NOT_FOUND = '{"detail":"Not found."}';
/** Every 60th matrix of the release, plus base ids with several versions: a few list pages. */
function ids(): string[] {
  const all = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').split('\n').slice(1).map((l) => l.split(',')[0]).filter(Boolean);
  return [...new Set([...all.filter((_, i) => i % 60 === 0), 'MA0004.1', 'MA0014.2', 'MA0014.3', 'MA0600.1', 'MA0600.2', 'UN0083.1'])];
}

const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-paths-'));
const data = makeRelease(ids());
const under = path.join(root, 'parent');
const sharded = path.join(root, 'sharded');
const servers: RunningServer[] = [];
/** netlify dev over each site, both started once the sites are built: each mostly waits while it starts. */
let netlify: { under: Promise<RunningServer>; sharded: Promise<RunningServer> };
const started = (server: Promise<RunningServer>) => server.then((s) => (servers.push(s), s));

beforeAll(async () => {
  await build({ dataDir: data, outDir: path.join(under, 'jaspar'), baseUrl: 'http://jaspar.test/jaspar/', workers: 0 });
  // Netlify reads _redirects and _headers at the root of what it publishes.
  for (const file of ['_redirects', '_headers']) copyFileSync(path.join(under, 'jaspar', file), path.join(under, file));
  await build({ dataDir: data, outDir: sharded, baseUrl: 'http://jaspar.test', workers: 0, layout: { idFolders: true, logos: true, shard: 2 } });
  netlify = { under: started(startNetlifyDev(under)), sharded: started(startNetlifyDev(sharded)) };
  // Awaited by the tests that use them; a failure to start is theirs (not an unhandled rejection meanwhile).
  netlify.under.catch(() => undefined);
  netlify.sharded.catch(() => undefined);
}, 300_000);

afterAll(async () => {
  await Promise.allSettled([netlify?.under, netlify?.sharded]);
  for (const s of servers) await s.stop();
  await rm(root, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
}, 60_000);

/** Site paths (no query) every page reachable from `starts` links to: href, src, the search index. The
 *  documentation page's examples are API requests (query URLs for Netlify), not links to files: left out. */
async function crawl(origin: string, starts: string[], maxPages = 150): Promise<{ pages: number; links: Set<string> }> {
  const seen = new Set<string>(starts);
  const links = new Set<string>();
  const queue = [...starts];
  let pages = 0;
  while (queue.length && pages < maxPages) {
    const page = queue.shift()!;
    const r = await get(`${origin}${page}`);
    pages++;
    if (r.type !== 'text/html' || page.endsWith('/api/v1/live-api/')) continue;
    for (const m of r.body.toString('utf8').matchAll(/ (?:href|src|data-index|data-size-of)="([^"#]+)"/g)) {
      const url = m[1].replace(/&amp;/g, '&');
      if (!url.startsWith('/')) continue;
      const bare = url.split('?')[0];
      links.add(bare);
      if (!seen.has(bare) && (bare.endsWith('/') || bare.endsWith('.html'))) {
        seen.add(bare);
        queue.push(bare);
      }
    }
  }
  return { pages, links };
}

describe('a site under a path, its parent folder served', () => {
  it('links, assets and scripts all under the path, each answered by http-server', async () => {
    const server = await startHttpServer(under);
    servers.push(server);
    const { pages, links } = await crawl(server.origin, ['/jaspar/', '/jaspar/search/']);
    expect(pages).toBeGreaterThan(20);
    const outside = [...links].filter((l) => !l.startsWith('/jaspar/'));
    expect(outside, problems(outside)).toEqual([]);
    for (const asset of ['/jaspar/static/api/site.css', '/jaspar/static/api/site.js', '/jaspar/static/api/search.js', '/jaspar/static/search/index.json']) expect(links).toContain(asset);
    const found = (await fetchAll([...links].sort(), 8, async (link) => {
      const r = await get(`${server.origin}${link}`, 'follow');
      return r.status === 200 && r.body.toString('utf8') !== NOT_FOUND ? [] : [`${link}: ${r.status}`];
    })).flat();
    expect(found, problems(found)).toEqual([]);
    // The scripts find the folders under the path (routes/client.ts).
    expect(readFileSync(path.join(under, 'jaspar/static/api/site.js'), 'utf8')).toContain('"list":"/jaspar/api/v1/matrix/"');
  }, 300_000);

  it('answers the query URLs under the path through Netlify\'s engine', async () => {
    const server = await netlify.under;
    const site = (rel: string) => readFileSync(path.join(under, 'jaspar', rel));
    const checks: [string, string][] = [
      ['/jaspar/api/v1/matrix?format=jaspar&page=2', 'api/v1/matrix/page/2/index.jaspar.txt'],
      ['/jaspar/api/v1/matrix/?page=2', 'api/v1/matrix/page/2/index.json'],
      ['/jaspar/api/v1/matrix', 'api/v1/matrix/page/1/index.json'],
      ['/jaspar/api/v1/matrix/?collection=CORE&page_size=1000&format=meme', 'api/v1/matrix/collection/CORE/page_size/1000/page/1/index.meme.txt'],
      ['/jaspar/api/v1/matrix/?page=2&page_size=25', 'api/v1/matrix/page_size/25/page/2/index.json'],
      ['/jaspar/api/v1/matrix/MA0004.1/?format=transfac', 'api/v1/matrix/MA0004.1/index.transfac.txt'],
      ['/jaspar/api/v1/matrix/MA0014/versions/?format=yaml', 'api/v1/matrix/MA0014/versions/index.yaml'],
      ['/jaspar/api/v1/matrix/MA0600', 'api/v1/matrix/MA0600.2/index.json'],
      ['/jaspar/api/v1/collections/', 'api/v1/collections/index.json'],
      ['/jaspar/api/v1/', 'api/v1/index.json'],
    ];
    const found = (await fetchAll(checks, 4, async ([p, file]) => {
      const r = await get(`${server.origin}${p}`);
      return r.status === 200 && r.body.equals(site(file)) ? [] : [`${p}: ${r.status} ${r.body.toString('utf8').slice(0, 60)}, wanted ${file}`];
    })).flat();
    const unsupported = await get(`${server.origin}/jaspar/api/v1/matrix/?search=CTCF`);
    if (unsupported.status !== 501) found.push(`?search=: ${unsupported.status}`);
    const over = await get(`${server.origin}/jaspar/api/v1/matrix/?page_size=5000&collection=CORE`);
    if (over.status !== 301 || over.headers.get('location') !== '/jaspar/api/v1/matrix/?collection=CORE&page_size=1000') found.push(`page_size=5000: ${over.status} ${over.headers.get('location')}`);
    const headers = await get(`${server.origin}/jaspar/api/v1/matrix/page/1/index.json`);
    if (headers.headers.get('access-control-allow-origin') !== '*') found.push('no CORS header under the path');
    expect(found, problems(found)).toEqual([]);
  }, 300_000);
});

describe('a release in the sharded layout', () => {
  it('writes id folders and logos in shard folders', () => {
    for (const file of ['api/v1/matrix/MA/MA0004.1/index.json', 'api/v1/matrix/MA/MA0014/versions/index.json', 'api/v1/matrix/UN/UN0083.1/index.jaspar.txt', 'static/logos/svg/MA/MA0004.1.svg']) {
      expect(existsSync(path.join(sharded, file)), file).toBe(true);
    }
    expect(existsSync(path.join(sharded, 'api/v1/matrix/MA0004.1'))).toBe(false);
  });

  it('answers ids, base ids and versions in every format through Netlify\'s engine, and the shard folders\' own files', async () => {
    const server = await netlify.sharded;
    const checks: [string, string][] = [];
    for (const [id, dir] of [['MA0004.1', 'MA/MA0004.1'], ['UN0083.1', 'UN/UN0083.1'], ['MA0014', 'MA/MA0014'], ['MA0014/versions', 'MA/MA0014/versions']]) {
      checks.push([`/api/v1/matrix/${id}/`, `api/v1/matrix/${dir}/index.json`], [`/api/v1/matrix/${id}`, `api/v1/matrix/${dir}/index.json`]);
      for (const format of FORMATS) checks.push([`/api/v1/matrix/${id}/?format=${format}`, `api/v1/matrix/${dir}/${FORMAT_FILES[format]}`]);
    }
    checks.push(
      ['/api/v1/matrix/MA/MA0004.1/index.meme.txt', 'api/v1/matrix/MA/MA0004.1/index.meme.txt'],
      ['/api/v1/matrix/MA/MA0014/versions/index.yaml', 'api/v1/matrix/MA/MA0014/versions/index.yaml'],
      ['/api/v1/matrix/MA/MA0004.1/', 'api/v1/matrix/MA/MA0004.1/index.html'],
      ['/static/logos/svg/MA/MA0004.1.svg', 'static/logos/svg/MA/MA0004.1.svg'],
      ['/api/v1/matrix?format=json&page=2', 'api/v1/matrix/page/2/index.json'],
      // The list rules (placeholders for filters, page sizes and text formats) beside the shard rules.
      ['/api/v1/matrix/?collection=CORE&page_size=1000&format=meme', 'api/v1/matrix/collection/CORE/page_size/1000/page/1/index.meme.txt'],
      ['/api/v1/taxon/vertebrates/?page_size=25&version=latest', 'api/v1/matrix/tax_group/vertebrates/version/latest/page_size/25/page/1/index.json'],
      ['/api/v1/matrix/?page=2&page_size=25&release=2024', 'api/v1/matrix/page_size/25/page/2/index.json'],
    );
    const found = (await fetchAll(checks, 4, async ([p, file]) => {
      const r = await get(`${server.origin}${p}`);
      return r.status === 200 && r.body.equals(readFileSync(path.join(sharded, file))) ? [] : [`${p}: ${r.status} ${r.body.toString('utf8').slice(0, 60)}, wanted ${file}`];
    })).flat();
    const unknown = await get(`${server.origin}/api/v1/matrix/MA9999.1/?format=json`);
    if (unknown.body.toString('utf8') !== NOT_FOUND) found.push(`unknown id: ${unknown.status} ${unknown.body.toString('utf8').slice(0, 60)}`);
    const otherRelease = await get(`${server.origin}/api/v1/matrix/?release=2022&page_size=1000`);
    if (otherRelease.status !== 501) found.push(`release=2022: ${otherRelease.status}`);
    const rules = readFileSync(path.join(sharded, '_redirects'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).length;
    expect(rules).toBeLessThanOrEqual(RULE_BUDGET);
    expect(found, problems(found)).toEqual([]);
  }, 300_000);

  it('links pages to the shard folders (http-server follows every link)', async () => {
    const server = await startHttpServer(sharded);
    servers.push(server);
    const { links } = await crawl(server.origin, ['/', '/api/v1/matrix/page/1/'], 40);
    expect([...links].filter((l) => /^\/static\/logos\/svg\/[A-Z]{2}\/[A-Z]{2}[0-9]{4}\.[0-9]+\.svg$/.test(l)).length).toBeGreaterThan(5);
    expect([...links].filter((l) => /^\/api\/v1\/matrix\/[A-Z]{2}\/[A-Z]{2}[0-9]{4}\.[0-9]+\/$/.test(l)).length).toBeGreaterThan(5);
    const found = (await fetchAll([...links].sort(), 8, async (link) => {
      const r = await get(`${server.origin}${link}`, 'follow');
      return r.status === 200 ? [] : [`${link}: ${r.status}`];
    })).flat();
    expect(found, problems(found)).toEqual([]);
  }, 300_000);
});
