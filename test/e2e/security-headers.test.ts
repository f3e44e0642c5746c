// The safe headers through Netlify's own engine (`netlify dev --offline`
// serving the global setup's site with its generated _headers: the fixture
// site under `npm test`, and the netlify dev the suites share), and the pages
// under that policy in headless Chromium: every page for people carries the
// Content-Security-Policy, nosniff and Referrer-Policy; the API bodies, logos
// and BED files stay fetchable from any origin; and the pages (list, matrix,
// versions, home, search with results, the query script moving to a file)
// work with no CSP violation and no console error, while an inline script
// really is refused (so the policy is enforced, not just sent).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../generator/hosting/headers.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { fetchAll, get, problems, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const site = inject('siteDir');
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startNetlifyDev(site);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 30_000);

const PAGES = [
  '/',
  '/search/',
  '/search/?q=arnt',
  '/api/v1/matrix/page/1/',
  '/api/v1/matrix?format=api&page=1',
  '/api/v1/matrix/MA0004.1/?format=api',
  '/api/v1/matrix/MA0014/versions/?format=api',
];
const API = [
  '/api/v1/matrix/', // JSON on Netlify, as the real service answers it
  '/api/v1/matrix?format=json&page=1',
  '/api/v1/matrix?format=jsonp',
  '/api/v1/matrix/MA0004.1/',
  '/api/v1/matrix/MA0004.1/?format=jaspar',
  '/api/v1/matrix/MA0004.1/index.yaml',
  '/api/v1/matrix/MA9999.1/', // the real service's 404 body
  '/api/v1/matrix?format=json&page=99', // invalid page
];
const FILES = ['/static/logos/svg/MA0004.1.svg', '/static/search/index.json', '/static/api/site.js', '/static/api/site.css', '/download/bed_files/MA0014.2.bed'];

describe('headers through netlify dev', () => {
  it('every page for people carries the policy, nosniff, Referrer-Policy and X-Frame-Options', async () => {
    const found: string[] = [];
    await fetchAll(PAGES, 4, async (p) => {
      const r = await get(`${server.origin}${p}`);
      if (r.status !== 200 || r.type !== 'text/html') found.push(`${p}: ${r.status} ${r.type}`);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        if (r.headers.get(name) !== value) found.push(`${p}: ${name} is ${JSON.stringify(r.headers.get(name))}`);
      }
    });
    expect(found, problems(found)).toEqual([]);
  });

  it('API bodies (errors too), logos, scripts, the search index and BED files: fetchable from any origin, nosniff', async () => {
    const found: string[] = [];
    await fetchAll([...API, ...FILES], 4, async (p) => {
      const r = await get(`${server.origin}${p}`);
      if (r.headers.get('access-control-allow-origin') !== '*') found.push(`${p}: Access-Control-Allow-Origin is ${JSON.stringify(r.headers.get('access-control-allow-origin'))}`);
      if (r.headers.get('x-content-type-options') !== 'nosniff') found.push(`${p}: no nosniff`);
      if (r.headers.get('content-security-policy') !== CONTENT_SECURITY_POLICY) found.push(`${p}: CSP is ${JSON.stringify(r.headers.get('content-security-policy'))}`);
    });
    expect(found, problems(found)).toEqual([]);
  });

  it('send each header once (no value joined from two rules)', async () => {
    const r = await get(`${server.origin}/api/v1/matrix/MA0004.1/?format=api`);
    for (const name of Object.keys(SECURITY_HEADERS)) expect(r.headers.get(name), name).not.toMatch(/,/);
  });
});

describe('the pages under the policy in Chromium', () => {
  it.each(PAGES)('%s shows no CSP violation, console error or failed request', async (p) => {
    const w = await openPage(browser);
    try {
      const violations: string[] = [];
      w.page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      await w.page.goto(`${server.origin}${p}`, { waitUntil: 'load' });
      if (p.startsWith('/search/?q=')) {
        // The script ran and the index was fetched: script-src and connect-src allow the site's own.
        await w.page.locator('#search-results tbody tr').first().waitFor();
      }
      const styled = await w.page.evaluate(() => getComputedStyle(document.body).fontFamily);
      expect(styled, 'the stylesheet applied').not.toBe('');
      const images = await w.page.evaluate(() => Array.from(document.images, (i) => (i.loading === 'lazy' || i.complete && i.naturalWidth > 0 ? '' : i.src)).filter(Boolean));
      expect(images, 'images that did not load').toEqual([]);
      await w.page.waitForTimeout(200);
      expect(violations).toEqual([]);
      expect(w.problems(), problems(w.problems())).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('a query URL for a text format still moves to its file (site.js runs)', async () => {
    const w = await openPage(browser);
    try {
      // A page folder with ?format=json: the script moves to the JSON file (on hosts that ignore queries).
      await w.page.goto(`${server.origin}/api/v1/matrix/page/1/?format=json`);
      await w.page.waitForURL(/index\.json$/);
      expect(w.problems(), problems(w.problems())).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('an inline script and an inline style are refused: the policy is enforced', async () => {
    const w = await openPage(browser);
    try {
      const violations: string[] = [];
      await w.page.exposeFunction('reportViolation', (v: string) => violations.push(v));
      await w.page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
      });
      await w.page.goto(`${server.origin}/api/v1/matrix/MA0004.1/?format=api`);
      const ran = await w.page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.inlineRan = true;';
        document.head.appendChild(s);
        const p = document.createElement('p');
        p.setAttribute('style', 'color: rgb(255, 0, 0)');
        document.body.appendChild(p);
        return { script: (window as unknown as { inlineRan?: boolean }).inlineRan === true, style: getComputedStyle(p).color === 'rgb(255, 0, 0)' };
      });
      expect(ran).toEqual({ script: false, style: false });
      await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
      expect(violations.join('\n')).toMatch(/script-src/);
      expect(violations.join('\n')).toMatch(/style-src/);
    } finally {
      await w.close();
    }
  });
});
