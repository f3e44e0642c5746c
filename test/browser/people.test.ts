// The pages for people as a biologist uses them, in Chromium (issue 20): a
// journey by clicks only from the home page to a matrix, its versions, its
// collection's, taxon's and species' lists and a search result, never
// meeting JSON, on every server the project ships; searches a biologist
// types; the matrix page's logos, links out and downloads; the list's
// filters and page box; every page type at desktop (1280 px) and phone
// (390 px) width no wider than the screen; axe-core with no violation at all.
// Expected results come from the build's own JSON files, not from the pages.
//
// Split between the two runs, nothing dropped (issue 21: `npm test` in 5
// minutes; Chromium's CPU is most of this file's):
// - `npm test`, on the fixture site: the walk on http-server (no routing:
//   the pages' own script moves query URLs), the Node server and Netlify
//   with the edge function (the request handler both ship), every page test,
//   axe at desktop width, both widths' scroll width;
// - `npm run test:full`, on the full site: the walk on nginx, Caddy, Apache
//   and Netlify's files (the same URLs test/hosts/conformance.test.ts asserts
//   each of them answers alike in `npm test`), and axe at phone width.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatAxe, launchBrowser, openPage, runAxe, type WatchedPage, settle as settleFor } from '../support/browser.ts';
import { sharedRelease } from '../support/release.ts';
import { problems, startHttpServer, startSiteServer, type RunningServer } from '../support/servers.ts';
import { startEdgeServer } from '../support/edge-servers.ts';

const siteDir = inject('siteDir');
const full = inject('siteKind') === 'full';

interface Detail { matrix_id: string; name: string; version: number; class: string[]; family: string[]; uniprot_ids: string[]; species: { tax_id: number; name: string }[] }
const json = <T>(file: string) => JSON.parse(readFileSync(path.join(siteDir, file), 'utf8')) as T;
const detail = (id: string) => json<Detail>(`api/v1/matrix/${id}/index.json`);
/** The matrices of a pre-rendered list view, all of them (JSON at 1000 a page). */
function viewIds(viewDir: string): string[] {
  const ids: string[] = [];
  for (let n = 1; ; n++) {
    const body = json<{ next: string | null; results: { matrix_id: string }[] }>(`${viewDir}page_size/1000/page/${n}/index.json`);
    ids.push(...body.results.map((r) => r.matrix_id));
    if (!body.next) return ids;
  }
}

const MATRIX = 'MA0139.1';
const LATEST = 'MA0139.2';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
}, 30_000);

/** Waits until the page stops moving (test/support/browser.ts settle). */
const settle = (page: Page) => settleFor(page, 300);

/** Clicks and checks that the page reached is HTML for people, not an API body. */
async function click(page: Page, link: ReturnType<Page['locator']>, what: string): Promise<void> {
  await link.first().click();
  await settle(page);
  const type = await page.evaluate(() => document.contentType);
  expect(type, `${what}: ${page.url()} answered ${type}, not the page for people`).toBe('text/html');
  expect(await page.locator('main h1').count(), `${what}: ${page.url()} has no heading`).toBe(1);
}

const h1 = async (page: Page) => ((await page.locator('main h1').textContent()) ?? '').trim();

// The seven walks run side by side (each its own server and page): they
// mostly wait for pages to settle, and one after the other they took 90 s.
const WALKS = [
  { server: 'http-server', start: (dir: string) => startHttpServer(dir), full: false },
  { server: 'nginx', start: (dir: string) => startSiteServer('nginx', dir), full: true },
  { server: 'caddy', start: (dir: string) => startSiteServer('caddy', dir), full: true },
  { server: 'apache', start: (dir: string) => startSiteServer('apache', dir), full: true },
  { server: 'netlify', start: (dir: string) => startSiteServer('netlify', dir), full: true },
  { server: 'netlify with the edge function', start: (dir: string) => startEdgeServer('netlify', dir), full: false },
  { server: 'the Node server', start: (dir: string) => startSiteServer('node', dir), full: false },
];
describe.concurrent.each(WALKS.filter((w) => w.full === full))('a biologist in Chromium on $server', ({ server: name, start }) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start(siteDir);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('clicks from the home page to a matrix, its versions, its collection, taxon and species lists and a search result, never seeing JSON', async () => {
    const w = await openPage(browser);
    const { page } = w;
    try {
      const m = detail(MATRIX);
      await page.goto(`${server.origin}/`);
      await settle(page);
      await click(page, page.getByRole('link', { name: `${MATRIX} ${m.name}`, exact: true }), 'home → example matrix');
      expect(await h1(page)).toBe(`${MATRIX} ${m.name}`);
      const matrixUrl = page.url();

      await click(page, page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'MA0139 versions' }), 'matrix → versions');
      expect(await h1(page)).toBe('MA0139 versions');
      await click(page, page.getByRole('link', { name: LATEST, exact: true }), 'versions → latest version');
      expect(await h1(page)).toBe(`${LATEST} ${detail(LATEST).name}`);

      await page.goto(matrixUrl);
      await settle(page);
      const facts = page.locator('dl.annotations');
      await click(page, facts.getByRole('link', { name: 'CORE', exact: true }), 'matrix → its collection');
      expect(await h1(page)).toBe('Matrix List (collection=CORE)');
      await page.goBack();
      await settle(page);
      await click(page, facts.getByRole('link', { name: 'vertebrates', exact: true }), 'matrix → its taxon');
      expect(await h1(page)).toBe('Matrix List (tax_group=vertebrates)');
      await page.goBack();
      await settle(page);
      await click(page, facts.getByRole('link', { name: 'Homo sapiens', exact: true }), 'matrix → its species');
      expect(await h1(page)).toBe('Matrix List (tax_id=9606)');
      // The species list shows the species' matrices, first page.
      const first = viewIds('api/v1/matrix/tax_id/9606/').slice(0, 10);
      expect(await page.locator('table.matrices tbody tr td:first-child').allTextContents()).toEqual(first);

      // From the banner's search box to a result.
      await page.getByRole('searchbox', { name: 'Search matrices' }).fill('P49711');
      await page.getByRole('searchbox', { name: 'Search matrices' }).press('Enter');
      await page.locator('#search-results tbody tr').first().waitFor();
      await click(page, page.locator('#search-results').getByRole('link', { name: MATRIX, exact: true }), 'search → result');
      expect(await h1(page)).toBe(`${MATRIX} ${m.name}`);

      // Sections of the banner: collections, taxa and species are tables of links.
      for (const [section, heading, link] of [['Collections', 'Collections', 'CORE'], ['Taxa', 'Taxonomic groups', 'plants'], ['Species', 'Species', 'Homo sapiens']] as const) {
        await click(page, page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }), `banner → ${section}`);
        expect(await h1(page)).toBe(heading);
        await click(page, page.locator('table.index').getByRole('link', { name: link, exact: true }), `${section} → ${link}`);
        expect(await h1(page)).toMatch(/^Matrix List \(/);
      }
      expect(w.problems(), problems(w.problems())).toEqual([]);
    } finally {
      await w.close();
    }
  }, 120_000);
});

// Side by side too: each test opens its own page.
describe.concurrent('the pages for people in Chromium on http-server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer(siteDir);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  async function open(url: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<WatchedPage> {
    const w = await openPage(browser, options);
    await w.page.goto(`${server.origin}${url}`);
    await settle(w.page);
    if (url.startsWith('/search/')) await w.page.locator('#search-status').filter({ hasNotText: 'Loading' }).waitFor();
    return w;
  }

  // The page tests run on the fixture site only; the full site adds axe at phone width (see the top).
  if (!full) {
    it('the matrix page: both logos, links out, lists, the newer version, named downloads, whole counts', async () => {
      const w = await open(`/api/v1/matrix/${MATRIX}/?format=api`, { acceptDownloads: true });
      const { page } = w;
      try {
        const m = detail(MATRIX);
        expect(await page.locator('img.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        expect(await page.locator('svg.logo').getAttribute('aria-label')).toBe(`Sequence logo of the reverse complement of ${MATRIX}`);
        // The reverse complement draws the last column's complement first: MA0139.1 ends with A (402 of 1060), so it starts with T.
        expect(await page.locator('svg.logo use[href="#T"]').count()).toBeGreaterThan(0);
        const href = (name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).first().getAttribute('href');
        expect(await href(m.uniprot_ids[0])).toBe(`https://www.uniprot.org/uniprotkb/${m.uniprot_ids[0]}`);
        expect(await href('17512414')).toBe('https://pubmed.ncbi.nlm.nih.gov/17512414/');
        expect(await href('NCBI Taxonomy 9606')).toBe('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=9606');
        expect(await href('on JASPAR')).toBe(`https://jaspar.elixir.no/matrix/${MATRIX}/`);
        expect(await href(m.class[0])).toBe(`/search/?q=${encodeURIComponent(m.class[0])}`);
        expect(await page.getByRole('note').textContent()).toBe(`A newer version of this profile exists: ${LATEST}.`);
        expect(await page.locator('dl.annotations').textContent()).toMatch(/Information content\d+\.\d\d bits/);
        expect(await page.locator('.consensus').textContent()).toMatch(/^[ACGTRYSWKMN]{19}$/);
        // Downloads carry the matrix's name; the matrix has no binding sites, so no BED.
        const jaspar = page.locator('ul.downloads').getByRole('link', { name: 'JASPAR', exact: true });
        expect(await jaspar.getAttribute('download')).toBe(`${MATRIX}.jaspar`);
        const [download] = await Promise.all([page.waitForEvent('download'), jaspar.click()]);
        expect(download.suggestedFilename()).toBe(`${MATRIX}.jaspar`);
        expect(readFileSync((await download.path())!, 'utf8')).toBe(readFileSync(path.join(siteDir, `api/v1/matrix/${MATRIX}/index.jaspar.txt`), 'utf8'));
        expect(await page.getByRole('link', { name: /BED/ }).count()).toBe(0);
        const [rc] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download SVG' }).nth(1).click()]);
        expect(rc.suggestedFilename()).toBe(`${MATRIX}.rc.svg`);
        expect(readFileSync((await rc.path())!, 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        const counts = await page.locator('table.pfm tbody tr').first().locator('td').allTextContents();
        expect(counts.every((c) => /^[0-9]+$/.test(c)), counts.join(' ')).toBe(true);
        expect(w.problems(), problems(w.problems())).toEqual([]);
      } finally {
        await w.close();
      }
    });

    it('a matrix with binding sites offers its BED file, named after it', async () => {
      const w = await open('/api/v1/matrix/MA0014.2/?format=api');
      try {
        const bed = w.page.getByRole('link', { name: 'Binding sites (release BED file)' });
        expect(await bed.getAttribute('href')).toBe('/download/bed_files/MA0014.2.bed');
        expect(await bed.getAttribute('download')).toBe('MA0014.2.sites.bed');
      } finally {
        await w.close();
      }
    });

    it('the list: the filter form and the page box go to the pre-rendered lists', async () => {
      const w = await open('/api/v1/matrix/page/1/');
      const { page } = w;
      try {
        const form = page.locator('form[data-filters]');
        await form.getByLabel('Taxon').selectOption('vertebrates');
        await form.getByLabel('latest versions only').check();
        await form.getByRole('button', { name: 'Show' }).click();
        await page.waitForURL((u) => u.pathname === '/api/v1/matrix/tax_group/vertebrates/version/latest/page/1/');
        await settle(page);
        const ids = viewIds('api/v1/matrix/tax_group/vertebrates/version/latest/');
        expect(await page.locator('table.matrices tbody tr td:first-child').allTextContents()).toEqual(ids.slice(0, 10));
        // Several pages (the fixture's latest vertebrates: about 40), or there is no page box.
        const last = Math.ceil(ids.length / 10);
        expect(last).toBeGreaterThan(1);
        await page.getByLabel('Go to page').fill(String(last));
        await page.getByRole('button', { name: 'Go', exact: true }).click();
        await page.waitForURL((u) => u.pathname === `/api/v1/matrix/tax_group/vertebrates/version/latest/page/${last}/`);
        await settle(page);
        expect(await page.locator('table.matrices tbody tr td:first-child').allTextContents()).toEqual(ids.slice((last - 1) * 10));
        expect(w.problems(), problems(w.problems())).toEqual([]);
      } finally {
        await w.close();
      }
    });

    describe('search', () => {
      const results = (page: Page) => page.locator('#search-results tbody tr td:first-child').allTextContents();
      const names = (page: Page) => page.locator('#search-results tbody tr td:nth-child(2)').allTextContents();
      const total = async (page: Page) => Number(/^(\d+) matri/.exec((await page.locator('#search-status').textContent()) ?? '')?.[1] ?? 0);

      it('"Homo sapiens" finds every human matrix (the tax_id 9606 list), paged 50 at a time', async () => {
        const w = await open('/search/?q=Homo%20sapiens');
        try {
          const human = viewIds('api/v1/matrix/tax_id/9606/');
          expect(await total(w.page)).toBe(human.length);
          expect(await results(w.page)).toHaveLength(Math.min(50, human.length));
          const next = w.page.getByRole('navigation', { name: 'Result pages' }).getByRole('link', { name: 'Next ›' });
          // One page of results (the fixture's 46 human matrices): no next page.
          if (human.length <= 50) {
            expect(await next.count()).toBe(0);
            return;
          }
          await next.click();
          const second = await results(w.page);
          expect(second).toHaveLength(Math.min(50, human.length - 50));
          expect(second.every((id) => human.includes(id))).toBe(true);
          expect(new URL(w.page.url()).searchParams.get('page')).toBe('2');
        } finally {
          await w.close();
        }
      });

      it('"P49711" finds the matrices of that UniProt id', async () => {
        const w = await open('/search/?q=P49711');
        try {
          const found = await results(w.page);
          expect(found).toContain(MATRIX);
          for (const id of found) expect(detail(id).uniprot_ids).toContain('P49711');
        } finally {
          await w.close();
        }
      });

      it('"zinc finger" finds zinc finger factors', async () => {
        const w = await open('/search/?q=zinc%20finger');
        try {
          // At least the matrices whose class or family says zinc finger (over 100 in JASPAR 2024); the search also reads other fields.
          const all = sharedRelease().matrices;
          const latest = (m: (typeof all)[number]) => all.every((o) => o.baseId !== m.baseId || o.version <= m.version);
          // Latest versions (the search lists those).
          const zinc = all.filter((m) => latest(m) && /zinc.*finger|finger.*zinc/i.test([...m.tfClass, ...m.tfFamily].join(' ')));
          expect(zinc.length).toBeGreaterThan(0);
          expect(await total(w.page)).toBeGreaterThanOrEqual(zinc.length);
          for (const id of (await results(w.page)).slice(0, 20)) {
            const m = detail(id);
            expect([...m.class, ...m.family].join(' '), id).toMatch(/zinc.*finger|finger.*zinc/i);
          }
        } finally {
          await w.close();
        }
      });

      // The test's own expect: expect.poll needs its test, which the global expect loses among concurrent tests.
      it('"SOX2" lists SOX2 itself first; "Sox-2" finds it too; latest versions only', async ({ expect }) => {
        const w = await open('/search/?q=SOX2');
        try {
          expect((await names(w.page))[0]).toBe('SOX2');
          const all = await results(w.page);
          expect(all.slice(0, 2)).toEqual(['MA0143.4', 'MA0143.5'].filter((id) => detail(id).name === 'SOX2'));
          await w.page.getByRole('searchbox', { name: 'Search matrices' }).fill('Sox-2');
          await expect.poll(async () => (await names(w.page))[0]?.toLowerCase()).toBe('sox2');
          expect(await results(w.page)).toEqual(all);
          await w.page.getByLabel('latest versions only').check();
          await expect.poll(() => results(w.page)).not.toEqual(all);
          const latest = await results(w.page);
          expect(latest).toContain('MA0143.5');
          expect(latest).not.toContain('MA0143.4');
        } finally {
          await w.close();
        }
      });
    });

    it('a skip link is the first tab stop and moves focus past the banner', async () => {
      const w = await open(`/api/v1/matrix/page/1/`);
      try {
        await w.page.keyboard.press('Tab');
        expect(await w.page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
        await w.page.keyboard.press('Enter');
        await w.page.keyboard.press('Tab');
        // The next stop is inside <main>: the list's filters, not the banner.
        expect(await w.page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
      } finally {
        await w.close();
      }
    });
  }

  const PAGES: [string, string][] = [
    ['home', '/'],
    ['list', '/api/v1/matrix/page/1/'],
    ['list, 100 a page', '/api/v1/matrix/page_size/100/page/1/'],
    ['filtered list', '/api/v1/matrix/collection/CORE/tax_group/vertebrates/version/latest/page/2/'],
    ['matrix', `/api/v1/matrix/${MATRIX}/?format=api`],
    ['matrix with sites', '/api/v1/matrix/MA0014.2/?format=api'],
    ['versions', '/api/v1/matrix/MA0014/versions/?format=api'],
    ['collections', '/api/v1/collections/page/1/'],
    ['taxa', '/api/v1/taxon/page/1/'],
    ['species', '/api/v1/species/page_size/100/page/1/'],
    ['API root', '/api/v1/?format=api'],
    ['search', '/search/?q=SOX2'],
    ['downloads', '/download/'],
    ['API documentation', '/api/v1/live-api/'],
    ['not found', '/404/'],
  ];

  // Axe at desktop width on the fixture site, at phone width on the full one.
  const axeWidth = full ? 390 : 1280;
  it.each(PAGES)(`%s (%s): no wider than ${full ? 'a phone screen' : 'a desktop or a phone screen'}, axe at ${axeWidth} px finds no violation`, async (label, url) => {
    for (const width of full ? [390] : [1280, 390]) {
      const w = await open(url, { viewport: { width, height: 800 } });
      try {
        const scrollWidth = await w.page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${label} at ${width} px`).toBeLessThanOrEqual(width);
        if (width === axeWidth) {
          const report = await runAxe(w.page);
          const all = report.violations.map((v) => `${v.impact} ${v.id} ×${v.count}: ${v.help} [${v.targets.join(' | ')}]`);
          expect(all, `${label} at ${width} px: ${formatAxe(label, report)}`).toEqual([]);
        }
        expect(w.problems(), problems(w.problems())).toEqual([]);
      } finally {
        await w.close();
      }
    }
  });
});
