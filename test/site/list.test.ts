// The list pages of the site the global setup built (the fixture site under
// `npm test`, the full one under `npm run test:full`), checked against the
// release folder it was built from and the specification.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { MEME_HEADER } from '../../generator/formats/meme.ts';
import { SITE_BASE_URL, dataDir } from '../support/paths.ts';
import { sharedRelease } from '../support/release.ts';

const siteDir = inject('siteDir');
const read = (rel: string) => readFileSync(path.join(siteDir, rel), 'utf8');
const pageFile = (n: number, file: string) => `api/v1/matrix/page/${n}/${file}`;
type Item = Record<string, string>;
type Page = { count: number; next: string | null; previous: string | null; results: Item[] };
/** The release's matrices, counted in its matrices.csv rather than by the loader the build uses (5,278 in JASPAR 2024). */
const ROWS = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').trimEnd().split('\n').length - 1;
/** Pages read beside the first and the last: one in the middle. */
const middle = () => Math.ceil(last / 2);

let last = 0;
let pages: Page[] = [];
beforeAll(() => {
  last = readdirSync(path.join(siteDir, 'api/v1/matrix/page')).length;
  pages = Array.from({ length: last }, (_, i) => JSON.parse(read(pageFile(i + 1, 'index.json'))) as Page);
});

describe('matrix list', () => {
  it('has a page of 10 records for every 10 matrices (528 in JASPAR 2024), the last holding the rest, every page in 9 formats', () => {
    const n = sharedRelease().matrices.length;
    expect(n).toBe(ROWS);
    expect(last).toBe(Math.ceil(n / 10));
    pages.forEach((p, i) => expect(p.results.length).toBe(i === last - 1 ? n - 10 * (last - 1) : 10));
    for (let i = 1; i <= last; i++) {
      expect(readdirSync(path.join(siteDir, `api/v1/matrix/page/${i}`)).sort()).toEqual(
        ['index.bed.txt', 'index.html', 'index.jaspar.txt', 'index.js', 'index.json', 'index.meme.txt', 'index.pfm.txt', 'index.transfac.txt', 'index.yaml'],
      );
    }
  });

  it('writes JSON compactly with the keys in the specified order', () => {
    const text = read(pageFile(2, 'index.json'));
    expect(text.startsWith(`{"count":${ROWS},"next":"${SITE_BASE_URL}/api/v1/matrix?format=json&page=3","previous":"${SITE_BASE_URL}/api/v1/matrix?format=json&page=1","results":[{"matrix_id":`)).toBe(true);
    expect(text).not.toMatch(/": |, "/);
    for (const p of pages) {
      expect(Object.keys(p)).toEqual(['count', 'next', 'previous', 'results']);
      expect(p.count).toBe(ROWS);
      for (const r of p.results) {
        expect(Object.keys(r)).toEqual(['matrix_id', 'name', 'collection', 'base_id', 'version', 'sequence_logo', 'url']);
        expect(r.matrix_id).toBe(`${r.base_id}.${r.version}`);
        expect(r.base_id).toMatch(/^[A-Z]{2}[0-9]{4}$/);
        expect(typeof r.version).toBe('string');
        expect(r.sequence_logo).toBe(`${SITE_BASE_URL}/static/logos/svg/${r.matrix_id}.svg`);
        expect(r.url).toBe(`${SITE_BASE_URL}/api/v1/matrix/${r.matrix_id}/`);
      }
    }
  });

  it('lists every matrix once, by name in code-point order, ties in the dataset row order', () => {
    const rows = new Map(sharedRelease().matrices.map((m, i) => [m.matrixId, i]));
    const all = pages.flatMap((p) => p.results);
    expect(new Set(all.map((r) => r.matrix_id)).size).toBe(ROWS);
    for (let i = 1; i < all.length; i++) {
      const order = Buffer.compare(Buffer.from(all[i - 1].name), Buffer.from(all[i].name));
      expect(order <= 0).toBe(true);
      if (order === 0) expect(rows.get(all[i - 1].matrix_id)! < rows.get(all[i].matrix_id)!).toBe(true);
    }
    // Code points, not a locale: upper case before lower case.
    const names = all.map((r) => r.name);
    const upper = names.indexOf('AHR');
    const lower = names.indexOf('Ahr');
    if (upper >= 0 && lower >= 0) expect(upper).toBeLessThan(lower);
  });

  it.each(['json', 'jsonp', 'yaml', 'api'])('next/previous keep the format %s; null on the first and last page', (format) => {
    const ext = { json: 'index.json', jsonp: 'index.js', yaml: 'index.yaml', api: 'index.html' }[format]!;
    const first = read(pageFile(1, ext));
    const final = read(pageFile(last, ext));
    expect(first).toContain(`${SITE_BASE_URL}/api/v1/matrix?format=${format}&amp;page=2`.replace('&amp;', format === 'api' ? '&amp;' : '&'));
    expect(final).toContain(`${SITE_BASE_URL}/api/v1/matrix?format=${format}&amp;page=${last - 1}`.replace('&amp;', format === 'api' ? '&amp;' : '&'));
  });

  it('jsonp is callback(<the json>); and yaml is the same data with sorted keys', () => {
    for (const n of [1, middle(), last]) {
      const json = read(pageFile(n, 'index.json')).replaceAll('format=json', 'format=jsonp');
      expect(read(pageFile(n, 'index.js'))).toBe(`callback(${json});`);
      const text = read(pageFile(n, 'index.yaml'));
      const data = yaml.load(text) as Page;
      const expected = JSON.parse(read(pageFile(n, 'index.json')).replaceAll('format=json', 'format=yaml')) as Page;
      expect(data).toEqual(expected);
      expect(text.split('\n').filter((l) => /^[a-z]/.test(l)).map((l) => l.split(':')[0])).toEqual(['count', 'next', 'previous', 'results']);
      expect(text).toMatch(/^- base_id: /m);
      expect(text).toMatch(/^  version: '\d+'$/m);
    }
  });

  it('text formats of a page are the records of its matrices, MEME header once', () => {
    for (const n of [1, middle(), last]) {
      const ids = pages[n - 1].results.map((r) => r.matrix_id);
      const detail = (id: string, file: string) => read(`api/v1/matrix/${id}/${file}`);
      for (const file of ['index.jaspar.txt', 'index.transfac.txt', 'index.pfm.txt']) {
        expect(read(pageFile(n, file))).toBe(ids.map((id) => detail(id, file)).join(''));
      }
      expect(read(pageFile(n, 'index.meme.txt'))).toBe(MEME_HEADER + ids.map((id) => detail(id, 'index.meme.txt').slice(MEME_HEADER.length)).join(''));
    }
  });

  it('bed of a page holds the sites of its matrices, each block named; pages without sites are empty', () => {
    let withSites = 0;
    for (let n = 1; n <= last; n++) {
      const ids = pages[n - 1].results.map((r) => r.matrix_id).filter((id) => existsSync(path.join(siteDir, `download/bed_files/${id}.bed`)));
      const text = read(pageFile(n, 'index.bed.txt'));
      if (ids.length === 0) {
        expect(text).toBe('');
        continue;
      }
      withSites++;
      for (const line of text.split('\n').filter(Boolean)) {
        if (line.startsWith('#')) continue;
        const fields = line.split('\t');
        expect(fields.length).toBe(6);
        expect(Number(fields[1])).toBeLessThanOrEqual(Number(fields[2]));
      }
      let expectedLines = 0;
      for (const id of ids) {
        const sites = read(`download/bed_files/${id}.bed`).split('\n').filter(Boolean);
        expectedLines += sites.length;
        if (sites.length > 0) expect(text).toContain(`# ${id} `);
        // BED4 files are padded to six columns; the first columns are kept as they are.
        for (const site of sites.slice(0, 5)) expect(text).toContain(site);
      }
      expect(text.split('\n').filter((l) => l && !l.startsWith('#')).length).toBe(expectedLines);
    }
    // Every matrix with sites is on one page: at least one page, at most one a matrix.
    const beds = readdirSync(path.join(dataDir(), 'sites')).length;
    expect(withSites).toBeGreaterThan(0);
    expect(withSites).toBeLessThanOrEqual(beds);
  });

  it('api page shows the request, status, headers, linked JSON, formats and pagination', () => {
    const html = read(pageFile(3, 'index.html'));
    expect(html).toContain('<b>GET</b> /api/v1/matrix/?format=api&amp;page=3');
    expect(html).toContain('HTTP 200 OK');
    expect(html).toContain('<b>Content-Type:</b> application/json');
    expect(html).toContain('<b>Vary:</b> Accept');
    expect(html).toContain(`"<a href="${SITE_BASE_URL}/api/v1/matrix?format=api&amp;page=4">`);
    for (const f of ['json', 'jsonp', 'yaml', 'jaspar', 'meme', 'transfac', 'pfm', 'bed']) expect(html).toContain(`>${f}</a>`);
    expect(html).toContain('href="/api/v1/matrix/page/2/" rel="prev"');
    expect(html).toContain('href="/api/v1/matrix/page/4/" rel="next"');
    for (const r of pages[2].results) expect(html).toContain(`src="/static/logos/svg/${r.matrix_id}.svg"`);
  });
});
