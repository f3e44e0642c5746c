// The query URLs of the real service, answered through Netlify's own routing
// engine: `netlify dev --offline` serving the built site with its generated
// _redirects and _headers. Every answer is compared byte for byte with the
// file the build wrote for it.
//
// Content-Type: `netlify dev` keeps the type of the file extension and writes
// it over the custom Content-Type of _headers, so here the text formats
// (index.jaspar.txt, …) come back as text/plain and YAML as the extension's
// type. Production Netlify applies the _headers types (text/jaspar, …,
// application/yaml); those are checked where the rules are generated, not here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FORMAT_FILES, FORMATS, type Fetched, type Format, fetchAll, get, problems, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
const MATRIX = path.join(siteDir, 'api/v1/matrix');
const LAST = readdirSync(path.join(MATRIX, 'page')).filter((n) => /^\d+$/.test(n)).length;
const CONCURRENCY = 8;
const NOT_FOUND = '{"detail":"Not found."}';

const GOLDEN_IDS = ['MA0004.1', 'MA0002.2', 'MA0074.1', 'MA1972.1', 'MA2191.1', 'UN0083.1', 'UN0498.1'];
const ALL_IDS = readdirSync(MATRIX).filter((n) => /^[A-Z]{2}\d{4}\.\d+$/.test(n)).sort();
/** An id's shape as the rules see it: its collection prefix and its version's digits (the rules are placeholders over ids). */
const shapeOf = (id: string) => `${id.slice(0, 2)}.${id.split('.')[1].length}`;
/** The first id of each shape, then 20 spread over the whole release: rules are sampled by shape, not by page (issue 21). */
const SAMPLE_IDS = [...new Set([
  ...[...new Map(ALL_IDS.filter((id) => !GOLDEN_IDS.includes(id)).map((id) => [shapeOf(id), id] as const).reverse()).values()],
  ...evenly(ALL_IDS.filter((id) => !GOLDEN_IDS.includes(id)), 20),
])];
const baseOf = (id: string) => id.split('.')[0];
const ALL_BASES = readdirSync(MATRIX).filter((n) => /^[A-Z]{2}\d{4}$/.test(n)).sort();
const CHECKED_BASES = [...new Set([...GOLDEN_IDS.map(baseOf), ...evenly(ALL_BASES, 20)])];

function evenly<T>(items: T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]);
}

/** The latest version of a base id in the release URLs without release= answer: the last of its versions list (a newer
 *  release's version of it, such as MA0088.3 of JASPAR 2026, has its folder here too but is not the default release's). */
function latestVersion(base: string): string {
  const versions = (JSON.parse(readFileSync(path.join(MATRIX, base, 'versions/index.json'), 'utf8')) as { results: { matrix_id: string }[] }).results;
  if (versions.length === 0) throw new Error(`no version of ${base}`);
  return versions[versions.length - 1].matrix_id;
}

const read = (rel: string) => readFileSync(path.join(siteDir, rel));
const pageFile = (page: number, format: Format) => `api/v1/matrix/page/${page}/${FORMAT_FILES[format]}`;

/** Content types netlify dev gives each format (the file extension's type). */
function typeOk(format: Format, type: string): boolean {
  switch (format) {
    case 'json': return type === 'application/json';
    case 'jsonp': return type === 'application/javascript';
    case 'yaml': return type === 'text/yaml' || type === 'application/yaml';
    case 'api': return type === 'text/html';
    default: return type === 'text/plain';
  }
}

let server: RunningServer;
const url = (pathAndQuery: string) => `${server.origin}${pathAndQuery}`;

/** Problems with one answer: the headers every answer carries, never octet-stream. */
function commonProblems(r: Fetched): string[] {
  const out: string[] = [];
  const vary = (r.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
  if (!vary.includes('accept')) out.push(`${r.url}: Vary is "${r.headers.get('vary')}"`);
  if (r.headers.get('access-control-allow-origin') !== '*') out.push(`${r.url}: Access-Control-Allow-Origin is "${r.headers.get('access-control-allow-origin')}"`);
  if (r.type === 'application/octet-stream') out.push(`${r.url}: Content-Type application/octet-stream`);
  return out;
}

/** Answer must be 200, the bytes of `file`, with the type of `format`. */
async function expectFile(pathAndQuery: string, file: string, format: Format): Promise<string[]> {
  const r = await get(url(pathAndQuery));
  const out = commonProblems(r);
  if (r.status !== 200) out.push(`${pathAndQuery}: status ${r.status}, wanted 200 (${file})`);
  else if (!r.body.equals(read(file))) out.push(`${pathAndQuery}: body differs from ${file} (${r.body.length} bytes vs ${read(file).length}; starts ${JSON.stringify(r.body.subarray(0, 60).toString())})`);
  if (!typeOk(format, r.type)) out.push(`${pathAndQuery}: Content-Type "${r.headers.get('content-type')}" for ${format}`);
  return out;
}

/** Answer must be a 404 with exactly `body`. */
async function expectError(pathAndQuery: string, body: string): Promise<string[]> {
  const r = await get(url(pathAndQuery));
  const out = commonProblems(r);
  if (r.status !== 404) out.push(`${pathAndQuery}: status ${r.status}, wanted 404`);
  if (r.body.toString('utf8') !== body) out.push(`${pathAndQuery}: body ${JSON.stringify(r.body.toString('utf8').slice(0, 80))}, wanted ${body}`);
  return out;
}

type Check = [pathAndQuery: string, file: string, format: Format];

async function runChecks(checks: Check[]): Promise<string[]> {
  return (await fetchAll(checks, CONCURRENCY, ([p, file, format]) => expectFile(p, file, format))).flat();
}

beforeAll(async () => {
  server = await startNetlifyDev(siteDir);
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

describe('list: /api/v1/matrix?format=F&page=N', () => {
  it('sees at least two list pages', () => {
    expect(LAST).toBeGreaterThanOrEqual(2);
  });

  // Every page in JSON, and pages evenly spread (first and last included) in
  // the other formats: netlify dev needs 60-250 ms a request here.
  it('answers every page in json and a spread of pages in every other format with the page file', async () => {
    const checks: Check[] = [];
    const spread = [...new Set([1, ...evenly(Array.from({ length: LAST }, (_, i) => i + 1), 60), LAST])];
    for (const format of FORMATS) {
      for (const page of format === 'json' ? Array.from({ length: LAST }, (_, i) => i + 1) : spread) checks.push([`/api/v1/matrix?format=${format}&page=${page}`, pageFile(page, format), format]);
    }
    const started = performance.now();
    const found = await runChecks(checks);
    const seconds = (performance.now() - started) / 1000;
    console.log(`netlify dev: ${checks.length} list URLs (${LAST} pages in json, ${spread.length} in each other format) in ${seconds.toFixed(1)} s, ${(seconds * 1000 / checks.length).toFixed(1)} ms each at concurrency ${CONCURRENCY}`);
    expect(found, problems(found)).toEqual([]);
  }, 900_000);

  it('ignores parameter order, extra parameters and a slash after matrix', async () => {
    const checks: Check[] = [];
    for (const page of [...new Set([1, 2, LAST])]) {
      for (const format of FORMATS) {
        const file = pageFile(page, format);
        checks.push(
          [`/api/v1/matrix?page=${page}&format=${format}`, file, format],
          [`/api/v1/matrix?format=${format}&page=${page}&foo=bar`, file, format],
          [`/api/v1/matrix?foo=bar&format=${format}&page=${page}`, file, format],
          [`/api/v1/matrix/?format=${format}&page=${page}`, file, format],
          [`/api/v1/matrix/?page=${page}&foo=bar&format=${format}`, file, format],
        );
      }
      checks.push(
        // No format: JSON.
        [`/api/v1/matrix?page=${page}`, pageFile(page, 'json'), 'json'],
        [`/api/v1/matrix/?page=${page}`, pageFile(page, 'json'), 'json'],
        [`/api/v1/matrix?foo=bar&page=${page}`, pageFile(page, 'json'), 'json'],
      );
    }
    for (const format of FORMATS) {
      // No page: page 1 of that format.
      checks.push(
        [`/api/v1/matrix?format=${format}`, pageFile(1, format), format],
        [`/api/v1/matrix/?format=${format}`, pageFile(1, format), format],
        [`/api/v1/matrix?format=${format}&foo=bar`, pageFile(1, format), format],
      );
    }
    // No query at all: JSON page 1.
    checks.push(['/api/v1/matrix', pageFile(1, 'json'), 'json'], ['/api/v1/matrix/', pageFile(1, 'json'), 'json']);
    // page=last, as Django REST Framework's paginator accepts it.
    for (const format of FORMATS) checks.push([`/api/v1/matrix?format=${format}&page=last`, pageFile(LAST, format), format]);
    checks.push(['/api/v1/matrix?page=last', pageFile(LAST, 'json'), 'json']);
    const found = await runChecks(checks);
    expect(found, problems(found)).toEqual([]);
  }, 120_000);

  // Pages are placeholders in the rules (generator/hosting/rules.ts): an
  // invalid page rewrites to a file that does not exist, answered with
  // /404.html ({"detail":"Not found."}): 404 in production, the rule's 200
  // on netlify dev. The real service's {"detail":"Invalid page."} would need
  // a literal rule per (format, page), 5,300 rules for this release.
  it('answers an invalid page with the Not found body', async () => {
    const requests: string[] = [];
    for (const bad of ['0', '-1', String(LAST + 1), 'abc', '1.5', '']) {
      for (const format of ['json', 'jaspar'] as const) {
        requests.push(`/api/v1/matrix?format=${format}&page=${bad}`, `/api/v1/matrix/?page=${bad}&format=${format}`);
      }
      requests.push(`/api/v1/matrix?page=${bad}`);
    }
    const found = (await fetchAll(requests, CONCURRENCY, async (p) => {
      const r = await get(url(p));
      const out: string[] = [];
      if (r.status !== 404 && r.status !== 200) out.push(`${p}: status ${r.status}, wanted 404 (or netlify dev's 200)`);
      if (r.body.toString('utf8') !== NOT_FOUND) out.push(`${p}: body ${JSON.stringify(r.body.toString('utf8').slice(0, 80))}, wanted ${NOT_FOUND}`);
      return out;
    })).flat();
    expect(found, problems(found)).toEqual([]);
  }, 60_000);

  it('answers an unknown format with 404 {"detail":"Not found."}', async () => {
    const requests = ['/api/v1/matrix?format=xml', '/api/v1/matrix/?format=xml', '/api/v1/matrix?format=xml&page=1', '/api/v1/matrix?page=2&format=xml', '/api/v1/matrix?format=JSON&page=1'];
    const found = (await fetchAll(requests, CONCURRENCY, (p) => expectError(p, NOT_FOUND))).flat();
    expect(found, problems(found)).toEqual([]);
  }, 60_000);
});

describe('detail: /api/v1/matrix/<id>/', () => {
  it(`answers the golden ids and ${SAMPLE_IDS.length} sampled ids in every format`, async () => {
    const checks: Check[] = [];
    for (const id of [...GOLDEN_IDS, ...SAMPLE_IDS]) {
      const dir = `api/v1/matrix/${id}`;
      checks.push([`/api/v1/matrix/${id}/`, `${dir}/index.json`, 'json'], [`/api/v1/matrix/${id}`, `${dir}/index.json`, 'json']);
      for (const format of FORMATS) checks.push([`/api/v1/matrix/${id}/?format=${format}`, `${dir}/${FORMAT_FILES[format]}`, format]);
    }
    for (const id of GOLDEN_IDS) {
      for (const format of FORMATS) checks.push([`/api/v1/matrix/${id}?format=${format}`, `api/v1/matrix/${id}/${FORMAT_FILES[format]}`, format]);
    }
    const started = performance.now();
    const found = await runChecks(checks);
    console.log(`netlify dev: ${checks.length} detail URLs (${GOLDEN_IDS.length} golden + ${SAMPLE_IDS.length} sampled ids) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(found, problems(found)).toEqual([]);
  }, 600_000);

  it('answers a base id with the latest version', async () => {
    const checks: Check[] = [];
    for (const base of CHECKED_BASES) {
      const file = `api/v1/matrix/${latestVersion(base)}/index.json`;
      checks.push([`/api/v1/matrix/${base}/`, file, 'json'], [`/api/v1/matrix/${base}`, file, 'json']);
    }
    expect(CHECKED_BASES).toContain('MA0004');
    const found = await runChecks(checks);
    expect(found, problems(found)).toEqual([]);
  }, 120_000);

  it('answers the versions of a base id in every format', async () => {
    const checks: Check[] = [];
    for (const base of CHECKED_BASES) {
      const dir = `api/v1/matrix/${base}/versions`;
      checks.push([`/api/v1/matrix/${base}/versions/`, `${dir}/index.json`, 'json'], [`/api/v1/matrix/${base}/versions`, `${dir}/index.json`, 'json']);
      for (const format of FORMATS) checks.push([`/api/v1/matrix/${base}/versions/?format=${format}`, `${dir}/${FORMAT_FILES[format]}`, format]);
      checks.push([`/api/v1/matrix/${base}/versions?format=yaml`, `${dir}/index.yaml`, 'yaml']);
    }
    const found = await runChecks(checks);
    expect(found, problems(found)).toEqual([]);
  }, 300_000);

  it('answers unknown formats with 404 {"detail":"Not found."}', async () => {
    const requests = ['/api/v1/matrix/MA0004.1/?format=xml', '/api/v1/matrix/MA0004.1?format=xml', '/api/v1/matrix/MA0004/versions/?format=xml'];
    const found = (await fetchAll(requests, CONCURRENCY, (p) => expectError(p, NOT_FOUND))).flat();
    expect(found, problems(found)).toEqual([]);
  }, 60_000);

  it('answers an unknown id with the Not found body (status recorded)', async () => {
    const found: string[] = [];
    for (const p of [
      '/api/v1/matrix/MA9999.1/?format=jaspar', '/api/v1/matrix/MA9999.1/?format=json', '/api/v1/matrix/XX/versions/?format=jaspar',
      '/api/v1/matrix/MA9999.1/', '/api/v1/matrix/MA9999.1', '/api/v1/matrix/XX/', '/api/v1/matrix/XX', '/api/v1/matrix/MA9999/versions/',
    ]) {
      const r = await get(url(p));
      // Ids are placeholders in the rules (generator/hosting/rules.ts): netlify
      // dev answers a forced 200 rewrite to a missing file with the rule's
      // status (200) and /404.html as the body; production Netlify answers
      // 404. Only the body is asserted.
      console.log(`netlify dev: ${p} → ${r.status} ${r.headers.get('content-type')} ${r.body.toString('utf8')}`);
      if (r.body.toString('utf8') !== NOT_FOUND) found.push(`${p}: body ${JSON.stringify(r.body.toString('utf8').slice(0, 80))}`);
      if (r.status !== 200 && r.status !== 404) found.push(`${p}: status ${r.status}`);
    }
    expect(found, problems(found)).toEqual([]);
  }, 60_000);
});

describe('path URLs still work on Netlify', () => {
  it('serves the files themselves', async () => {
    const bed = readdirSync(path.join(siteDir, 'download/bed_files')).filter((n) => n.endsWith('.bed')).sort()[0];
    expect(bed, 'no sites file in download/bed_files').toBeDefined();
    const checks: [string, string, (type: string) => boolean][] = [
      ['/api/v1/matrix/page/3/index.json', 'api/v1/matrix/page/3/index.json', (t) => t === 'application/json'],
      ['/api/v1/matrix/page/3/', 'api/v1/matrix/page/3/index.html', (t) => t === 'text/html'],
      ['/api/v1/matrix/MA0004.1/index.jaspar.txt', 'api/v1/matrix/MA0004.1/index.jaspar.txt', (t) => t === 'text/plain'],
      ['/api/v1/matrix/MA0004/versions/index.yaml', 'api/v1/matrix/MA0004/versions/index.yaml', (t) => t === 'text/yaml' || t === 'application/yaml'],
      ['/static/logos/svg/MA0004.1.svg', 'static/logos/svg/MA0004.1.svg', (t) => t === 'image/svg+xml'],
      [`/download/bed_files/${bed}`, `download/bed_files/${bed}`, (t) => t !== 'application/octet-stream'],
    ];
    const found: string[] = [];
    for (const [p, file, typeOk] of checks) {
      const r = await get(url(p));
      if (r.status !== 200) found.push(`${p}: status ${r.status}`);
      else if (!r.body.equals(read(file))) found.push(`${p}: body differs from ${file}`);
      if (!typeOk(r.type)) found.push(`${p}: Content-Type "${r.headers.get('content-type')}"`);
      if (r.headers.get('access-control-allow-origin') !== '*') found.push(`${p}: no Access-Control-Allow-Origin: *`);
    }
    expect(found, problems(found)).toEqual([]);
  }, 60_000);
});
