// Hostile requests to the edge handler (fast-check; EDGE_FUZZ_RUNS,
// FUZZ_SEED): random paths under the API, query strings built from keys the
// service reads and random bytes (percent-escapes, invalid UTF-8, "+", "=",
// "&", astral characters, very long values), random Accept headers and
// methods. Whatever comes in: the handler answers (never throws), with a
// status the service uses, an error is JSON with a "detail" (or JSONP wrapping
// it with a checked callback), a JSONP callback is always an identifier path,
// and every file it asks the site for is a clean path inside the site (no
// "..", no user text in it but ids the release holds).
import { readFileSync } from 'node:fs';
import nodePath from 'node:path';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { createHandler, type EdgeSite } from '../../generator/edge/handler.ts';
import { EMPTY_LIST_DIR, outputPath } from '../../generator/routes/urls.ts';
import { SITE_BASE_URL } from '../support/paths.ts';
import { folderSite } from './folder-site.ts';

/** One handler for the file: the indexes are read once. */
const handle = createHandler();

const RUNS = Number(process.env.EDGE_FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const KEYS = ['search', 'name', 'collection', 'tax_group', 'tax_id', 'class', 'family', 'type', 'tf_class', 'version', 'order', 'page', 'page_size', 'format', 'callback', 'release', 'x'];
const PATHS = ['/api/v1/matrix', '/api/v1/matrix/', '/api/v1/matrix.json', '/api/v1/matrix/MA0139.1/', '/api/v1/matrix/MA0139/versions/', '/api/v1/collections/CORE/', '/api/v1/taxon/plants/', '/api/v1/species/9606/'];
const STATUSES = [200, 400, 404, 405, 406, 501];

const piece = fc.oneof(
  fc.constantFrom('', 'sox', 'CORE', 'latest', '-name,version', '1000', '0', 'last', 'json', 'jsonp', 'meme', 'api', 'cb', 'alert(1)//', '9606,10090', '2026'),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('%', '%2', '%FF', '%C3', '%00', '+', '&', '=', '%26', '%3D', '\u{1F9EC}', '\u202E', '..%2F..%2F', '<script>', '"'),
  fc.integer({ min: 0, max: 3000 }).map((n) => 'a'.repeat(n)),
);
const value = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
const query = fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURI(v).replace(/%25/g, '%')}`).join('&'));
const path = fc.oneof(fc.constantFrom(...PATHS), fc.tuple(fc.constantFrom('/api/v1/matrix/', '/api/v1/collections/', '/api/v1/species/'), value).map(([p, v]) => `${p}${encodeURI(v).replace(/%25/g, '%')}/`));
const accept = fc.option(fc.oneof(fc.constantFrom('text/meme', 'text/*', '*/*', 'image/png', 'application/json; indent=4', 'text/html,*/*;q=0.8', ''), fc.string({ maxLength: 40 })), { nil: undefined });
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST');

/** The site, recording every path the handler asks for. */
function watched(site: EdgeSite, asked: string[]): EdgeSite {
  return {
    next: (request) => {
      asked.push(new URL(request.url).pathname);
      return site.next(request);
    },
    readFile: (p) => {
      asked.push(p);
      return site.readFile(p);
    },
  };
}

describe('edge handler under hostile requests', () => {
  it(`answers every request with a status and body the service would use (${RUNS} cases)`, { timeout: 600_000 }, async () => {
    const site = folderSite(inject('siteDir'));
    await fc.assert(
      fc.asyncProperty(path, query, accept, method, async (p, q, a, m) => {
        let request: Request;
        try {
          request = new Request(`${SITE_BASE_URL}${p}${q ? `?${q}` : ''}`, { method: m, headers: a === undefined ? {} : { Accept: a } });
        } catch {
          return; // not a URL or header a client could send
        }
        const asked: string[] = [];
        const response = await handle(request, watched(site, asked));
        const body = await response.text();
        const label = `${m} ${request.url} [Accept: ${a}] → ${response.status} ${body.slice(0, 120)}`;
        expect(STATUSES, label).toContain(response.status);
        // The request itself, passed through as it is, is the host's to serve; what the handler asks for itself must be clean.
        for (const file of asked.filter((f) => f !== new URL(request.url).pathname)) {
          expect(file.startsWith('/') && !file.split('/').includes('..') && !file.includes('%2') && !file.includes('\\'), `${label}: asked for ${file}`).toBe(true);
        }
        const type = response.headers.get('content-type') ?? '';
        if (type.startsWith('application/javascript') && m !== 'HEAD') expect(body, label).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*\(/);
        const fromSite = asked.length > 0 && asked[asked.length - 1] === new URL(request.url).pathname; // passed through as it is
        // A browser's "Not found." is the 404 page for people (the page asked for, as on nginx, Caddy and Apache).
        const forPeople = response.status === 404 && type.startsWith('text/html') && asked.includes('/404/index.html');
        if (response.status !== 200 && !fromSite && !forPeople && m !== 'HEAD') {
          const json = type.startsWith('application/javascript') ? body.replace(/^[^(]*\(/, '').replace(/\);$/, '') : body;
          expect((JSON.parse(json) as { detail?: unknown }).detail, label).toEqual(expect.any(String));
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});

describe('edge handler: methods, page links, the 404 for people', () => {
  // The Fetch API refuses TRACE, CONNECT and TRACK in new Request(); a host's
  // runtime (Deno.serve, workerd) hands them over all the same. A GET request
  // that says it is one stands for it: copying it throws as the real one did.
  const saying = (method: string, url: string): Request => {
    const real = new Request(url);
    return new Proxy(real, {
      get: (target, key) => {
        if (key === 'method') return method;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  const site = () => folderSite(inject('siteDir'));

  it.each([
    ['TRACE', '/api/v1/matrix/MA0139.1/index.json'],
    ['TRACE', '/api/v1/matrix/MA0139.1/'],
    ['TRACK', '/api/v1/collections/CORE/'],
    ['CONNECT', '/api/v1/'],
    ['PUT', '/api/v1/matrix/?page=2'],
    ['PROPFIND', '/'],
    ['BREW', '/api/v1/matrix/MA0139.1/'],
  ])('%s %s: 405 with Allow and DRF\'s body, no stack trace', async (method, p) => {
    const response = await handle(saying(method, `${SITE_BASE_URL}${p}`), site());
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.text()).toBe(`{"detail":"Method \\"${method}\\" not allowed."}`);
  });

  it('writes previous for page 2 as the file has it (…&page=1)', async () => {
    const response = await handle(new Request(`${SITE_BASE_URL}/api/v1/matrix?format=json&page=2`), site());
    expect((JSON.parse(await response.text()) as { previous: string }).previous).toBe(`${SITE_BASE_URL}/api/v1/matrix?format=json&page=1`);
  });

  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it.each([
    ['/api/v1/matrix/MA9999.9/', BROWSER, 'page'],
    ['/api/v1/nope/', BROWSER, 'page'],
    ['/api/v1/matrix/MA9999.9/', 'application/json', 'json'],
    ['/api/v1/matrix/MA9999.9/?format=json', BROWSER, 'json'],
    ['/api/v1/matrix/?page=99999', BROWSER, 'invalid'],
  ])('%s, Accept %s: %s', async (p, accept, what) => {
    const siteDir = inject('siteDir');
    const response = await handle(new Request(`${SITE_BASE_URL}${p}`, { headers: { Accept: accept } }), site());
    const body = await response.text();
    expect(response.status).toBe(404);
    if (what === 'page') expect(body).toBe(readFileSync(nodePath.join(siteDir, '404/index.html'), 'utf8'));
    else expect(JSON.parse(body)).toEqual({ detail: what === 'json' ? 'Not found.' : 'Invalid page.' });
  });

  it.each(['json', 'yaml', 'jsonp', 'jaspar'] as const)('answers a filter value the release does not hold with the empty list the servers serve (%s)', async (format) => {
    // nginx, Caddy and Apache answer collection=DL with /api/v1/empty-list/ (test/hosts/): the same bytes.
    const file = readFileSync(nodePath.join(inject('siteDir'), outputPath(EMPTY_LIST_DIR, format)), 'utf8');
    const response = await handle(new Request(`${SITE_BASE_URL}/api/v1/matrix/?collection=DL&format=${format}`), site());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(file);
  });
});
