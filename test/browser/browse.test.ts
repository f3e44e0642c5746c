// The browsable pages in a real browser (headless Chromium), on Netlify's
// engine (netlify dev) and on a plain static server (http-server): a
// person's journey with real clicks and keys, query URLs, keyboard focus,
// axe-core, and the pages with JavaScript off. Every page may only load from
// the server under test (off-host requests are blocked and fail the test),
// and must not log a console error.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, type ExpectStatic } from 'vitest';
import { formatAxe, launchBrowser, openPage, runAxe, type WatchedPage, settle as settleFor } from '../support/browser.ts';
import { problems, startHttpServer, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
const full = inject('siteKind') === 'full';
const MATRIX = path.join(siteDir, 'api/v1/matrix');
const LAST = readdirSync(path.join(MATRIX, 'page')).filter((n) => /^\d+$/.test(n)).length;

interface Row { matrix_id: string; name: string }
interface ListBody { count: number; next: string | null; previous: string | null; results: Row[] }
const listJson = (page: number) => JSON.parse(readFileSync(path.join(MATRIX, `page/${page}/index.json`), 'utf8')) as ListBody;
const ids = (rows: Row[]) => rows.map((r) => r.matrix_id);

const LIST_PAGES = Array.from({ length: LAST }, (_, i) => listJson(i + 1).results);
/** The matrices the search page must list for "CTCF", in list order, from the build's list pages. */
const CTCF: Row[] = LIST_PAGES.flat().filter((r) => r.name.toLowerCase().includes('ctcf'));

const DETAIL_ID = 'MA0139.1';
const VERSIONS_BASE = 'MA0014';
const DETAIL_LIST_PAGE = LIST_PAGES.findIndex((rows) => rows.some((r) => r.matrix_id === DETAIL_ID)) + 1;

/**
 * The URL the site's own pages use for the HTML page of a folder (the folder,
 * its index.html or the folder with ?format=api): the first such link in the
 * given built file. Pages are opened by that URL, as a person following the
 * links would.
 */
function linkedUrl(folder: string, fromFile: string): string {
  const html = readFileSync(path.join(siteDir, fromFile), 'utf8');
  const found = new RegExp(`href="(${folder.replace(/[.?]/g, '\\$&')}(?:index\\.html)?(?:\\?format=api)?)"`).exec(html);
  return found ? found[1].replace(/&amp;/g, '&') : folder;
}
const LINKED = {
  list1: () => linkedUrl('/api/v1/matrix/page/1/', 'index.html'),
  list2: () => linkedUrl('/api/v1/matrix/page/2/', 'api/v1/matrix/page/1/index.html'),
  detail: () => linkedUrl(`/api/v1/matrix/${DETAIL_ID}/`, `api/v1/matrix/page/${DETAIL_LIST_PAGE}/index.html`),
  versions: () => linkedUrl(`/api/v1/matrix/${VERSIONS_BASE}/versions/`, `api/v1/matrix/${VERSIONS_BASE}.1/index.html`),
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
}, 30_000);

/** Waits until the page stops moving (test/support/browser.ts settle). */
const settle = (page: Page) => settleFor(page, 400);

/** A page's folder URL or its index.html: either may be what the links use. */
const isPage = (u: URL, dir: string) => u.pathname === dir || u.pathname === `${dir}index.html`;
const pageHref = (dir: string) => new RegExp(`^${dir.replace(/[.]/g, '\\.')}(index\\.html)?(\\?format=api)?$`);
const contentType = (page: Page) => page.evaluate(() => document.contentType);
const pathOf = (page: Page) => new URL(page.url()).pathname;
const h1 = async (page: Page) => ((await page.locator('h1').count()) ? (await page.locator('h1').first().textContent())?.trim() : undefined);
const tableIds = (page: Page, table = 'table.matrices') => page.locator(`${table} tbody tr td:first-child`).allTextContents();
const preText = async (page: Page) => (await page.locator('pre').first().textContent()) ?? '';

/** naturalWidth of the first img matching selector once it has loaded (0 if it never does within 10 s). */
async function loadedWidth(page: Page, selector: string): Promise<number> {
  try {
    await page.waitForFunction((s) => {
      const img = document.querySelector(s) as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    }, selector, { timeout: 10_000 });
  } catch {
    // reported by the caller's assertion
  }
  return page.evaluate((s) => (document.querySelector(s) as HTMLImageElement | null)?.naturalWidth ?? 0, selector);
}

// Both hosts' tests run side by side (each test its own page): they mostly
// wait for pages to settle, and one after the other they took about 64 s.
// axe reads the same files on either host, so `npm test` runs it on
// http-server only; `npm run test:full` runs it on netlify dev over the full
// site (issue 21: Chromium's CPU is most of this file's time).
describe.concurrent.each([
  { server: 'netlify dev', start: startNetlifyDev, axe: full, journeys: !full },
  { server: 'http-server', start: startHttpServer, axe: !full, journeys: !full },
].filter((h) => h.axe || h.journeys))('in Chromium on $server', ({ server: serverName, start, axe, journeys }) => {
  let server: RunningServer;
  const url = (p: string) => `${server.origin}${p}`;

  beforeAll(async () => {
    server = await start(siteDir);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  /**
   * The page reached through the site's own link must be the HTML page of
   * the folder; if it is not (a bug), the test records it and goes on with
   * the folder's index.html so that the later checks still run. `expect` is
   * the test's own (a soft one needs it: the tests run concurrently).
   */
  async function expectHtmlAt(w: WatchedPage, folder: string, expect: ExpectStatic): Promise<void> {
    const type = await contentType(w.page);
    expect.soft(type, `${w.page.url()} (the pages' link to ${folder}) answers ${type} on ${serverName}, not the HTML page`).toBe('text/html');
    if (type !== 'text/html') {
      await w.page.goto(url(`${folder}index.html`));
      await settle(w.page);
    }
  }

  /** Opens the URL the site links to for a folder's HTML page. */
  async function openHtml(w: WatchedPage, folder: string, linked: string, expect: ExpectStatic): Promise<void> {
    await w.page.goto(url(linked));
    await settle(w.page);
    await expectHtmlAt(w, folder, expect);
  }

  function expectClean(w: WatchedPage): void {
    expect(w.blocked, `off-host requests (blocked): ${problems(w.blocked)}`).toEqual([]);
    expect(w.problems(), problems(w.problems())).toEqual([]);
  }

  if (journeys) {
    it('journey: list (query URL) → next page → a matrix and its logo → jaspar text → search CTCF → a result', async ({ expect }) => {
      const w = await openPage(browser);
      const { page } = w;
      try {
        // 1. The first list page through the query URL people know from the real API.
        const p1 = listJson(1);
        await page.goto(url('/api/v1/matrix?format=api'));
        await settle(page);
        const start = new URL(page.url());
        expect.soft(
          // Netlify answers the query URL itself; http-server first adds the slash (302) and serves the
          // folder's index.html, which is page 1 already.
          (/^\/api\/v1\/matrix\/?$/.test(start.pathname) && start.search === '?format=api') || isPage(start, '/api/v1/matrix/page/1/'),
          `/api/v1/matrix?format=api ended on ${page.url()}`,
        ).toBe(true);
        expect.soft(await tableIds(page).catch(() => []), `/api/v1/matrix?format=api on ${serverName} shows page 1 (ended on ${page.url()})`).toEqual(ids(p1.results));
        if ((await h1(page)) !== 'Matrix List') await openHtml(w, '/api/v1/matrix/page/1/', '/api/v1/matrix/page/1/', expect);
        expect(await h1(page)).toBe('Matrix List');
        await expect.poll(() => page.getByText(`Page 1 of ${LAST}`).count()).toBe(1);

        // 2. Next page: page 2's first matrix from its JSON file.
        const p2 = listJson(2);
        await page.getByRole('link', { name: 'Next ›', exact: true }).click();
        await page.waitForURL((u) => isPage(u, '/api/v1/matrix/page/2/'));
        await settle(page);
        expect(await tableIds(page)).toEqual(ids(p2.results));
        expect((await tableIds(page))[0]).toBe(p2.results[0].matrix_id);
        expect(await page.getByText(`Page 2 of ${LAST}`).count()).toBe(1);

        // 3. Open the first matrix of page 2; its logo is drawn.
        const m = p2.results[0];
        const dir = `/api/v1/matrix/${m.matrix_id}/`;
        await page.getByRole('link', { name: m.matrix_id, exact: true }).click();
        await page.waitForURL((u) => isPage(u, dir));
        await settle(page);
        await expectHtmlAt(w, dir, expect);
        expect(await h1(page)).toBe(`${m.matrix_id} ${m.name}`);
        expect(await loadedWidth(page, 'img.logo'), `logo of ${m.matrix_id} rendered`).toBeGreaterThan(0);
        expect(await page.locator('img.logo').getAttribute('src')).toBe(`/static/logos/svg/${m.matrix_id}.svg`);

        // 4. Switch to jaspar: the text equals the file.
        const jaspar = readFileSync(path.join(MATRIX, m.matrix_id, 'index.jaspar.txt'), 'utf8');
        const response = page.waitForResponse((r) => new URL(r.url()).pathname === `${dir}index.jaspar.txt`);
        await page.getByRole('navigation', { name: 'Formats' }).getByRole('link', { name: 'jaspar', exact: true }).click();
        await page.waitForURL((u) => u.pathname === `${dir}index.jaspar.txt`);
        expect(await (await response).text()).toBe(jaspar);
        expect(await preText(page)).toBe(jaspar);

        // 5. Back to the matrix, search with the keyboard.
        await page.goBack();
        await settle(page);
        const box = page.getByRole('searchbox', { name: 'Search matrices' });
        await box.focus();
        await page.keyboard.type('CTCF');
        await page.keyboard.press('Enter');
        await page.waitForURL((u) => u.pathname === '/search/' && u.searchParams.get('q') === 'CTCF');
        await page.locator('#search-results tbody tr').first().waitFor();
        expect(CTCF.length).toBeGreaterThan(0);
        expect(await tableIds(page, '#search-results table')).toEqual(ids(CTCF));
        const names = await page.locator('#search-results tbody tr td:nth-child(2)').allTextContents();
        expect(names).toEqual(CTCF.map((r) => r.name));
        await expect.poll(() => page.locator('#search-status').textContent()).toContain(`${CTCF.length} matri`);

        // 6. Follow the first result.
        const first = CTCF[0];
        await page.getByRole('link', { name: first.matrix_id, exact: true }).click();
        await page.waitForURL((u) => isPage(u, `/api/v1/matrix/${first.matrix_id}/`));
        await settle(page);
        await expectHtmlAt(w, `/api/v1/matrix/${first.matrix_id}/`, expect);
        expect(await h1(page)).toBe(`${first.matrix_id} ${first.name}`);

        expectClean(w);
      } finally {
        await w.close();
      }
    });

    it('query URLs in a browser end on what they ask for: ?format=api&page=3 and MA0004.1/?format=jaspar', async ({ expect }) => {
      const w = await openPage(browser);
      const { page } = w;
      try {
        const p3 = listJson(3);
        await page.goto(url('/api/v1/matrix?format=api&page=3'));
        await settle(page);
        const at = new URL(page.url());
        expect.soft(
          (/^\/api\/v1\/matrix\/?$/.test(at.pathname) && at.searchParams.get('page') === '3') || isPage(at, '/api/v1/matrix/page/3/'),
          `/api/v1/matrix?format=api&page=3 ended on ${page.url()}`,
        ).toBe(true);
        expect.soft(await tableIds(page).catch(() => []), `page 3's matrices (ended on ${page.url()})`).toEqual(ids(p3.results));
        expect.soft(await page.getByText(`Page 3 of ${LAST}`).count()).toBe(1);

        const jaspar = readFileSync(path.join(MATRIX, 'MA0004.1/index.jaspar.txt'), 'utf8');
        await page.goto(url('/api/v1/matrix/MA0004.1/?format=jaspar'));
        await settle(page);
        const end = new URL(page.url());
        expect.soft(
          end.pathname === '/api/v1/matrix/MA0004.1/index.jaspar.txt' || (end.pathname === '/api/v1/matrix/MA0004.1/' && end.search === '?format=jaspar'),
          `MA0004.1/?format=jaspar ended on ${page.url()}`,
        ).toBe(true);
        expect.soft(await contentType(page)).toBe('text/plain');
        expect.soft(await preText(page).catch(() => '')).toBe(jaspar);

        expectClean(w);
      } finally {
        await w.close();
      }
    });

    it('a filtered query URL with a page size ends on that view\'s page', async ({ expect }) => {
      const w = await openPage(browser);
      const { page } = w;
      try {
        // Page 2 where the view has one (JASPAR 2024's 4,279 CORE matrices), else page 1 (the fixture's 84); 100 a page is pre-rendered for people.
        const view = '/api/v1/matrix/collection/CORE/page_size/100/';
        const n = (JSON.parse(readFileSync(path.join(siteDir, view, 'page/1/index.json'), 'utf8')) as ListBody).count > 100 ? 2 : 1;
        const dir = `${view}page/${n}/`;
        const want = JSON.parse(readFileSync(path.join(siteDir, dir, 'index.json'), 'utf8')) as ListBody;
        await page.goto(url(`/api/v1/matrix/?collection=CORE&format=api&page=${n}&page_size=100`));
        await settle(page);
        const at = new URL(page.url());
        expect.soft(isPage(at, dir) || (at.pathname.startsWith('/api/v1/matrix') && at.searchParams.get('page_size') === '100'), `ended on ${page.url()}`).toBe(true);
        expect.soft(await tableIds(page).catch(() => []), `matrices (ended on ${page.url()})`).toEqual(ids(want.results));
        expectClean(w);
      } finally {
        await w.close();
      }
    });

    it('Tab reaches the search box and the pagination links, and every focused element shows an outline', async ({ expect }) => {
      const w = await openPage(browser);
      const { page } = w;
      try {
        await page.goto(url('/api/v1/matrix/page/2/'));
        await settle(page);
        const seen: { what: string; search: boolean; pages: boolean; focusVisible: boolean; outline: string }[] = [];
        for (let i = 0; i < 120; i++) {
          await page.keyboard.press('Tab');
          const f = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            const style = getComputedStyle(el);
            return {
              what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`,
              search: el.id === 'site-search',
              pages: !!el.closest('nav.pages') && el.tagName === 'A',
              focusVisible: el.matches(':focus-visible'),
              outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
            };
          });
          if (!f) continue;
          seen.push(f);
          if (f.pages && seen.filter((s) => s.pages).length >= 2) break;
        }
        expect(seen.some((s) => s.search), `focused: ${seen.map((s) => s.what).join(', ')}`).toBe(true);
        expect(seen.filter((s) => s.pages).length, `focused: ${seen.map((s) => s.what).join(', ')}`).toBeGreaterThanOrEqual(2);
        expect(seen.findIndex((s) => s.search)).toBeLessThan(seen.findIndex((s) => s.pages));
        const invisible = seen.filter((s) => !s.focusVisible || s.outline.startsWith('none') || / 0px /.test(s.outline)).map((s) => `${s.what}: :focus-visible ${s.focusVisible}, outline ${s.outline}`);
        expect(invisible, problems(invisible)).toEqual([]);
        expectClean(w);
      } finally {
        await w.close();
      }
    });
  }

  if (axe) {
    describe('axe-core: no serious or critical violations', () => {
      const pages: [string, string, () => string][] = [
        ['home page', '/', () => '/'],
        ['list page', '/api/v1/matrix/page/1/', LINKED.list1],
        ['detail page', `/api/v1/matrix/${DETAIL_ID}/`, LINKED.detail],
        ['versions page', `/api/v1/matrix/${VERSIONS_BASE}/versions/`, LINKED.versions],
        ['search page with results', '/search/', () => '/search/?q=CTCF'],
        ['filtered list page', '/api/v1/matrix/collection/CORE/tax_group/vertebrates/version/latest/page/2/', () => '/api/v1/matrix/collection/CORE/tax_group/vertebrates/version/latest/page/2/'],
        ['species index page', '/api/v1/species/page/1/', () => '/api/v1/species/page/1/'],
        ['API documentation', '/api/v1/live-api/', () => '/api/v1/live-api/'],
      ];
      it.for(pages)('%s (%s)', async ([label, folder, linked], { expect }) => {
        const w = await openPage(browser);
        try {
          await openHtml(w, folder, linked(), expect);
          if (folder === '/search/') await w.page.locator('#search-results tbody tr').first().waitFor();
          const report = await runAxe(w.page);
          console.log(`[${serverName}] ${formatAxe(label, report)}`);
          const severe = [...report.byImpact.critical, ...report.byImpact.serious].map((v) => `${v.impact} ${v.id} ×${v.count}: ${v.help} [${v.targets.join(' | ')}] ${v.helpUrl}`);
          expect(severe, `${label}: ${problems(severe)}`).toEqual([]);
          expectClean(w);
        } finally {
          await w.close();
        }
      });
    });
  }

  if (journeys) {
    it('without JavaScript: the list shows its table, pagination and JSON; a matrix its counts and logo', async ({ expect }) => {
      const w = await openPage(browser, { javaScriptEnabled: false });
      const { page } = w;
      try {
        // List page 2 (has both Previous and Next).
        const p2 = listJson(2);
        await openHtml(w, '/api/v1/matrix/page/2/', LINKED.list2(), expect);
        expect(await tableIds(page)).toEqual(ids(p2.results));
        const pager = page.getByRole('navigation', { name: 'Pages' });
        expect(await pager.getByRole('link', { name: 'Next ›', exact: true }).getAttribute('href')).toMatch(pageHref('/api/v1/matrix/page/3/'));
        expect(await pager.getByRole('link', { name: '‹ Previous', exact: true }).getAttribute('href')).toMatch(pageHref('/api/v1/matrix/page/1/'));
        expect(await pager.getByRole('link', { name: 'Last »', exact: true }).getAttribute('href')).toMatch(pageHref(`/api/v1/matrix/page/${LAST}/`));
        const body = (await page.locator('pre.response-body').textContent()) ?? '';
        // The page's own next/previous keep format=api, as Django REST Framework's browsable API does.
        const toApi = (u: string | null) => u?.replace('format=json', 'format=api') ?? null;
        expect(JSON.parse(body.slice(body.indexOf('{')))).toEqual({ ...p2, next: toApi(p2.next), previous: toApi(p2.previous) });
        // Every format of this page is a plain link.
        const formats = await page.getByRole('navigation', { name: 'Formats' }).getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        expect(formats).toContain('/api/v1/matrix/page/2/index.jaspar.txt');
        expect(formats).toHaveLength(8);

        // The next page through its link, still without JavaScript.
        await pager.getByRole('link', { name: 'Next ›', exact: true }).click();
        await page.waitForURL((u) => isPage(u, '/api/v1/matrix/page/3/'));
        expect(await tableIds(page)).toEqual(ids(listJson(3).results));

        // A matrix: counts table and logo.
        const detail = JSON.parse(readFileSync(path.join(MATRIX, DETAIL_ID, 'index.json'), 'utf8')) as { name: string; pfm: Record<'A' | 'C' | 'G' | 'T', number[]> };
        await openHtml(w, `/api/v1/matrix/${DETAIL_ID}/`, LINKED.detail(), expect);
        expect(await h1(page)).toBe(`${DETAIL_ID} ${detail.name}`);
        const rows = await page.locator('table.pfm tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, ...Array.from(tr.querySelectorAll('td'), (td) => Number(td.textContent))]));
        expect(rows).toEqual((['A', 'C', 'G', 'T'] as const).map((b) => [b, ...detail.pfm[b]]));
        expect(await loadedWidth(page, 'img.logo')).toBeGreaterThan(0);

        // The versions page lists its matrices; the search page points to the list.
        const versions = JSON.parse(readFileSync(path.join(MATRIX, VERSIONS_BASE, 'versions/index.json'), 'utf8')) as ListBody;
        await openHtml(w, `/api/v1/matrix/${VERSIONS_BASE}/versions/`, LINKED.versions(), expect);
        expect(await tableIds(page)).toEqual(ids(versions.results));
        await page.goto(url('/search/'));
        expect(await page.getByRole('link', { name: 'browse the matrix list' }).getAttribute('href')).toMatch(pageHref('/api/v1/matrix/page/1/'));
        expectClean(w);
      } finally {
        await w.close();
      }
    });
  }
});

it('the off-host guard blocks and records requests to other hosts', async () => {
  const w = await openPage(browser);
  try {
    await w.page.goto('about:blank');
    const outcome = await w.page.evaluate(() => fetch('https://example.org/font.woff2').then(() => 'loaded', () => 'blocked'));
    expect(outcome).toBe('blocked');
    expect(w.blocked).toEqual(['fetch https://example.org/font.woff2']);
  } finally {
    await w.close();
  }
});
