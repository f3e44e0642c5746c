// Everything from the dataset is shown as text. A small release whose one
// matrix is named `<script>alert(1)</script>&"'` (in matrices.csv, quoted as
// CSV, and in its .jaspar header) is built with the CLI and opened in
// headless Chromium on http-server: the name appears as text on the list,
// matrix, versions and search pages, no dialog opens, the only scripts are the
// site's own, the raw HTML holds the escaped name, and the JSON, JSONP and
// YAML bodies still parse to the exact name.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { parse as parseCsv } from 'csv-parse/sync';
import yaml from 'js-yaml';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../support/browser.ts';
import { makeRelease } from '../support/fixtures.ts';
import { buildOk } from '../support/run.ts';
import { problems, startHttpServer, type RunningServer } from '../support/servers.ts';

const EVIL = `<script>alert(1)</script>&"'`;
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';
const ID = 'MA0004.1';
const BASE = 'MA0004';

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The fixture release with ID renamed to EVIL in matrices.csv and in its .jaspar header. */
function evilRelease(): string {
  const dir = makeRelease();
  const csvFile = path.join(dir, 'matrices.csv');
  const rows = parseCsv(readFileSync(csvFile, 'utf8'), { skip_empty_lines: true }) as string[][];
  const nameColumn = rows[0].indexOf('name');
  const row = rows.find((r) => r[0] === ID);
  if (!row || nameColumn < 0) throw new Error(`fixture: no ${ID} row or no name column in matrices.csv`);
  row[nameColumn] = EVIL;
  writeFileSync(csvFile, `${rows.map((r) => r.map(csvField).join(',')).join('\n')}\n`);
  const jasparFile = path.join(dir, 'matrices', `${ID}.jaspar`);
  const lines = readFileSync(jasparFile, 'utf8').split('\n');
  lines[0] = `>${ID}\t${EVIL}`;
  writeFileSync(jasparFile, lines.join('\n'));
  return dir;
}

function htmlFiles(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? htmlFiles(dir, r) : e.name.endsWith('.html') ? [r] : [];
  });
}

let data: string;
let root: string;
let site: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  data = evilRelease();
  root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-escaping-'));
  site = path.join(root, 'public');
  mkdirSync(site);
  // The server first (its port goes into the base URL), then the build into the folder it serves.
  server = await startHttpServer(site);
  await buildOk(['--data', data, '--out', site, '--base-url', server.origin], { timeout: 120_000 });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (data) rmSync(data, { recursive: true, force: true });
}, 30_000);

describe('a matrix named <script>alert(1)</script>&"\'', () => {
  let w: WatchedPage;
  const dialogs: string[] = [];

  beforeAll(async () => {
    w = await openPage(browser);
    w.page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await w?.close();
  });

  /** Only the site's own scripts (/static/api/*.js) are in the page, none inline. */
  async function expectOwnScriptsOnly(): Promise<void> {
    const scripts = await w.page.evaluate(() => Array.from(document.scripts, (s) => s.getAttribute('src') ?? `inline: ${s.textContent?.slice(0, 60)}`));
    const foreign = scripts.filter((s) => !/^\/static\/api\/[a-z-]+\.js$/.test(s));
    expect(foreign, `scripts: ${scripts.join(', ')}`).toEqual([]);
  }

  it('is text on the list page', async () => {
    await w.page.goto(`${server.origin}/api/v1/matrix/page/1/`);
    const row = w.page.locator('table.matrices tbody tr').filter({ has: w.page.getByRole('link', { name: ID, exact: true }) });
    expect(await row.locator('td:nth-child(2)').textContent()).toBe(EVIL);
    expect(await w.page.locator('body').textContent()).toContain(EVIL);
    await expectOwnScriptsOnly();
  });

  it('is text on the matrix page (heading, title, annotations, logo text)', async () => {
    await w.page.goto(`${server.origin}/api/v1/matrix/${ID}/`);
    expect(await w.page.locator('h1').textContent()).toBe(`${ID} ${EVIL}`);
    expect(await w.page.title()).toContain(EVIL);
    expect(await w.page.locator('dl.annotations dd').first().textContent()).toBe(EVIL);
    expect(await w.page.locator('img.logo').getAttribute('alt')).toBe(`Sequence logo of ${ID} ${EVIL}`);
    await expectOwnScriptsOnly();
  });

  it('is text on the versions page', async () => {
    await w.page.goto(`${server.origin}/api/v1/matrix/${BASE}/versions/`);
    expect(await w.page.locator('table.matrices tbody tr td:nth-child(2)').allTextContents()).toContain(EVIL);
    await expectOwnScriptsOnly();
  });

  it('is text in the search results for "script", and the query is echoed as text', async () => {
    await w.page.goto(`${server.origin}/search/?q=script`);
    await w.page.locator('#search-results tbody tr').first().waitFor();
    expect(await w.page.locator('#search-results tbody tr td:first-child').allTextContents()).toEqual([ID]);
    expect(await w.page.locator('#search-results tbody tr td:nth-child(2)').textContent()).toBe(EVIL);
    await expectOwnScriptsOnly();

    const query = '<img src=x onerror=alert(2)>';
    await w.page.goto(`${server.origin}/search/?q=${encodeURIComponent(query)}`);
    await expect.poll(() => w.page.locator('#search-status').textContent()).toContain(query);
    expect(await w.page.locator('main img').count()).toBe(0);
    expect(await w.page.locator('#site-search').inputValue()).toBe(query);
    await expectOwnScriptsOnly();
  });

  it('opened no dialog, logged no error and asked no other host', () => {
    expect(dialogs).toEqual([]);
    expect(w.problems(), problems(w.problems())).toEqual([]);
  });
});

describe('the files', () => {
  it('hold the escaped name in the HTML and never the raw tag', () => {
    const files = htmlFiles(site);
    expect(files).toContain(`api/v1/matrix/${ID}/index.html`);
    const raw = files.filter((f) => /<script>alert/i.test(readFileSync(path.join(site, f), 'utf8')));
    expect(raw, problems(raw)).toEqual([]);
    for (const f of ['api/v1/matrix/page/1/index.html', `api/v1/matrix/${ID}/index.html`, `api/v1/matrix/${BASE}/versions/index.html`]) {
      expect(readFileSync(path.join(site, f), 'utf8'), f).toContain(ESCAPED);
    }
  });

  it('JSON, JSONP and YAML bodies parse to the exact name', () => {
    for (const dir of [`api/v1/matrix/${ID}`, `api/v1/matrix/${BASE}`]) {
      const json = JSON.parse(readFileSync(path.join(site, dir, 'index.json'), 'utf8')) as { name: string };
      expect(json.name, `${dir}/index.json`).toBe(EVIL);
      const doc = yaml.load(readFileSync(path.join(site, dir, 'index.yaml'), 'utf8')) as { name: string };
      expect(doc.name, `${dir}/index.yaml`).toBe(EVIL);
      let called: { name: string } | undefined;
      vm.runInNewContext(readFileSync(path.join(site, dir, 'index.js'), 'utf8'), { callback: (body: { name: string }) => { called = body; } }, { timeout: 1_000 });
      expect(called?.name, `${dir}/index.js`).toBe(EVIL);
    }
    for (const dir of ['api/v1/matrix/page/1', `api/v1/matrix/${BASE}/versions`]) {
      const names = (b: { results: { name: string }[] }) => b.results.map((r) => r.name);
      expect(names(JSON.parse(readFileSync(path.join(site, dir, 'index.json'), 'utf8'))), `${dir}/index.json`).toContain(EVIL);
      expect(names(yaml.load(readFileSync(path.join(site, dir, 'index.yaml'), 'utf8')) as { results: { name: string }[] }), `${dir}/index.yaml`).toContain(EVIL);
      let called: { results: { name: string }[] } | undefined;
      vm.runInNewContext(readFileSync(path.join(site, dir, 'index.js'), 'utf8'), { callback: (body: typeof called) => { called = body; } }, { timeout: 1_000 });
      expect(called && names(called), `${dir}/index.js`).toContain(EVIL);
    }
    const index = JSON.parse(readFileSync(path.join(site, 'static/search/index.json'), 'utf8')) as { matrices: string[][] };
    expect(index.matrices.find((r) => r[0] === ID)?.[1]).toBe(EVIL);
  });
});
