// The plan layer on a small release, without a build (seconds): every
// folder planned once, every link of the pages for people pointing at a
// planned folder or file, in the flat and the sharded layout, at the host's
// root and under a path.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../generator/dataset/curated.ts';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import { FORMATS } from '../../generator/formats/registry.ts';
import { planEndpoints } from '../../generator/plan/endpoints.ts';
import { formatContext } from '../../generator/pipeline/render.ts';
import { formatsOf, planListPages, planResources, plannedFromWire, withFormat } from '../../generator/plan/resources.ts';
import { listViews } from '../../generator/plan/views.ts';
import { FORMAT_IDS } from '../../generator/formats/registry.ts';
import { digestsOf } from '../../generator/dataset/digest.ts';
import { FLAT, type Layout } from '../../generator/routes/shard.ts';
import { listDir, listQueryUrl, logoPath, outputPath, sitesPath } from '../../generator/routes/urls.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const data = makeRelease(['MA0004.1', 'MA0014.2', 'MA0014.3', 'MA0600.1', 'MA0600.2', 'UN0083.1', 'MA0074.1', 'MA2191.1', 'MA1972.1', 'UN0498.1', 'MA0002.2']);
const releaseFile = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
const release = loadRelease(data, readReleaseInfo(readFileSync(releaseFile, 'utf8'), (t) => yaml.load(t), releaseFile));
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe.each([
  ['flat', FLAT, 'http://jaspar.test'],
  ['sharded', { idFolders: true, logos: true, shard: 2 } as Layout, 'http://jaspar.test'],
  ['flat under a path', FLAT, 'http://jaspar.test/jaspar'],
])('plan (%s)', (_label, layout, base) => {
  const root = new URL(base).pathname.replace(/\/$/, '');
  const plan = () => [...planResources(release, base, layout), ...planEndpoints(release, base, layout)];

  it('plans each folder once, ids in their shard folders', () => {
    const dirs = plan().map((p) => p.dir);
    expect(new Set(dirs).size).toBe(dirs.length);
    expect(dirs).toContain(layout.idFolders ? '/api/v1/matrix/MA/MA0004.1/' : '/api/v1/matrix/MA0004.1/');
    expect(dirs).toContain(layout.idFolders ? '/api/v1/matrix/MA/MA0014/versions/' : '/api/v1/matrix/MA0014/versions/');
  });

  it('links every page for people to planned folders, files and logos, with the site\'s path in front', () => {
    const planned = plan();
    const files = new Set<string>();
    for (const p of planned) for (const f of formatsOf(p)) files.add(`/${outputPath(p.dir, f)}`);
    for (const m of release.matrices) {
      files.add(logoPath(layout, m.matrixId));
      if (m.sites !== null) files.add(sitesPath(m.matrixId));
    }
    const outside: string[] = [];
    const context = formatContext(release.info, layout); // as the render workers build it
    for (const p of planned.filter((x) => formatsOf(x).includes('api'))) {
      const html = FORMATS.api.render(withFormat(p, 'api'), context);
      for (const [, href] of html.matchAll(/ (?:href|src)="(\/[^"]*)"/g)) {
        if (!href.startsWith(`${root}/`)) { outside.push(`${p.dir}: ${href}`); continue; }
        const sitePath = href.slice(root.length).split('?')[0];
        if (sitePath.startsWith('/static/api/') || sitePath === '/' || ['/download/', '/search/', '/api/v1/live-api/'].includes(sitePath)) continue;
        const target = sitePath.endsWith('/') ? `${sitePath}index.html` : sitePath;
        if (!files.has(target)) outside.push(`${p.dir}: ${href}`);
      }
    }
    expect(outside.slice(0, 10)).toEqual([]);
  });
});

// Resources are built lazily, when rendered: with the layout as module state
// a plan made for one layout rendered after another layout was set would
// link the other's folders. As a parameter, two sites' plans live side by side.
describe('list pages\' next and previous links (plan/resources.ts viewQuery) and keys', () => {
  // Pages of 1 and 2 records: views of several pages, whose links reach pages 1, 2 and past.
  const views = (links: 'query' | 'path') => listViews(release).flatMap((view) => [1, 2].map((size) => ({ view, size, pages: planListPages(view.matrices, size, view.filters, 'http://jaspar.test/j', FLAT, undefined, links) })));

  it.each(['query', 'path'] as const)('are listQueryUrl\'s for every page and format (%s links)', (links) => {
    let checked = 0;
    for (const { view, size, pages } of views(links)) {
      for (const page of pages) {
        const { query, previous, next } = page.neighbours!;
        for (const format of FORMAT_IDS) {
          for (const n of [previous, next, 1, 2, 3, 12, 100]) {
            if (n === null) continue;
            expect(query(format, n)).toBe(listQueryUrl('http://jaspar.test/j', format, n, size, view.filters, links));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('keys a page by its view, place and records\' digests', () => {
    for (const { view, size, pages } of views('query')) {
      pages.forEach((page, i) => {
        const items = view.matrices.slice(i * size, (i + 1) * size);
        expect(page.key).toBe(`list ${size} ${JSON.stringify(view.filters)} null ${i + 1}/${pages.length} ${view.matrices.length} ${digestsOf(items)}`);
        // Rebuilt from its wire (a worker's, whose view holds no records): the same key.
        expect(plannedFromWire(page.wire!).key).toBe(page.key);
        // Its folder and its navigation's, each listDir's.
        expect(page.dir).toBe(listDir(i + 1, size, view.filters));
        const nav = page.resource.nav.pages!;
        expect([nav.first, nav.previous, nav.next, nav.lastHref, ...nav.window.map((l) => l.href)]).toEqual([
          listDir(1, size, view.filters), i > 0 ? listDir(i, size, view.filters) : null, i + 1 < pages.length ? listDir(i + 2, size, view.filters) : null, listDir(pages.length, size, view.filters),
          ...nav.window.map((l) => listDir(Number(l.label), size, view.filters)),
        ]);
      });
    }
  });
});

describe('two layouts in one process', () => {
  const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
  const base = 'http://jaspar.test';
  const sites = [FLAT, SHARDED, FLAT].map((layout) => ({ layout, planned: planResources(release, base, layout), context: formatContext(release.info, layout) }));
  const render = (site: (typeof sites)[number], dir: string, format: 'api' | 'json') => {
    const p = site.planned.find((x) => x.dir === dir);
    if (!p) throw new Error(`no resource planned in ${dir}`);
    return FORMATS[format].render(withFormat(p, format), site.context) as string;
  };

  it('plans, renders and links each site in its own layout, interleaved', () => {
    const [flat, sharded, flatAgain] = sites;
    // Rendered in turns, after both plans exist.
    const pages = [
      render(sharded, '/api/v1/matrix/MA/MA0004.1/', 'api'),
      render(flat, '/api/v1/matrix/MA0004.1/', 'api'),
      render(sharded, '/api/v1/matrix/page/1/', 'json'),
      render(flatAgain, '/api/v1/matrix/page/1/', 'json'),
    ];
    expect(pages[0]).toContain('src="/static/logos/svg/MA/MA0004.1.svg"');
    expect(pages[0]).toContain('href="/api/v1/matrix/MA/MA0004/versions/?format=api"');
    expect(pages[1]).toContain('src="/static/logos/svg/MA0004.1.svg"');
    expect(pages[1]).toContain('href="/api/v1/matrix/MA0004/versions/?format=api"');
    expect(pages[1]).not.toContain('/MA/MA0004');
    const logos = (json: string) => (JSON.parse(json) as { results: { sequence_logo: string }[] }).results.map((r) => r.sequence_logo);
    expect(logos(pages[2])).toHaveLength(10);
    expect(logos(pages[2]).every((url) => /\/static\/logos\/svg\/(MA|UN)\/(MA|UN)[0-9]{4}\.[0-9]+\.svg$/.test(url))).toBe(true);
    expect(logos(pages[3]).every((url) => /\/static\/logos\/svg\/(MA|UN)[0-9]{4}\.[0-9]+\.svg$/.test(url))).toBe(true);
    expect(logos(pages[3])).toEqual(logos(render(flat, '/api/v1/matrix/page/1/', 'json')));
    // The list page for people draws each matrix's logo and links its page through the format context.
    const srcs = (html: string) => [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]);
    const shardedList = render(sharded, '/api/v1/matrix/page/1/', 'api');
    const flatList = render(flat, '/api/v1/matrix/page/1/', 'api');
    expect(srcs(shardedList)).toHaveLength(10);
    expect(srcs(shardedList).every((src) => /^\/static\/logos\/svg\/([A-Z]{2})\/\1[0-9]{4}\.[0-9]+\.svg$/.test(src))).toBe(true);
    expect(srcs(flatList).every((src) => /^\/static\/logos\/svg\/[A-Z]{2}[0-9]{4}\.[0-9]+\.svg$/.test(src))).toBe(true);
    expect(shardedList).toContain('href="/api/v1/matrix/MA/MA0004.1/?format=api"');
    expect(flatList).toContain('href="/api/v1/matrix/MA0004.1/?format=api"');
  });
});
