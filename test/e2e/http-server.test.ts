// The built site on a plain static server (http-server 14.1.1, no options):
// no rules, no custom headers, query strings ignored. Every resource must
// still be reachable through its path URL with a sensible Content-Type; the
// file names were chosen for that (index.jaspar.txt, not index.jaspar).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FORMAT_FILES, FORMATS, type Format, fetchAll, get, problems, startHttpServer, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
const MATRIX = path.join(siteDir, 'api/v1/matrix');
const LAST = readdirSync(path.join(MATRIX, 'page')).filter((n) => /^\d+$/.test(n)).length;

const DETAIL_ID = 'MA0004.1';
const BASE_ID = 'MA0004';
const VERSIONS_BASE = 'MA0014'; // a base id with several versions, if the release has it
const versionsBase = existsSync(path.join(MATRIX, VERSIONS_BASE, 'versions/index.json')) ? VERSIONS_BASE : BASE_ID;

const FOLDERS = [
  `/api/v1/matrix/page/1/`,
  `/api/v1/matrix/page/${LAST}/`,
  `/api/v1/matrix/${DETAIL_ID}/`,
  `/api/v1/matrix/${BASE_ID}/`,
  `/api/v1/matrix/${versionsBase}/versions/`,
];

/** What a static server should say for each file name. */
function typeOk(format: Format, type: string): boolean {
  switch (format) {
    case 'json': return type === 'application/json';
    case 'jsonp': return type === 'application/javascript' || type === 'text/javascript';
    case 'yaml': return type === 'text/yaml' || type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/x-yaml';
    case 'api': return type === 'text/html';
    default: return type === 'text/plain';
  }
}

let server: RunningServer;

beforeAll(async () => {
  server = await startHttpServer(siteDir);
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

describe('path URLs on http-server', () => {
  it('serves every format of list pages, a detail, a base id and versions with the file bytes and a sensible type', async () => {
    const checks: [string, string, Format][] = [];
    for (const dir of FOLDERS) {
      for (const format of FORMATS) {
        // The api format is addressed by its folder; the server answers index.html.
        const url = format === 'api' ? dir : `${dir}${FORMAT_FILES[format]}`;
        checks.push([url, `${dir}${FORMAT_FILES[format]}`.slice(1), format]);
      }
    }
    const found = (await fetchAll(checks, 8, async ([url, file, format]) => {
      const r = await get(`${server.origin}${url}`);
      const out: string[] = [];
      if (r.status !== 200) out.push(`${url}: status ${r.status}`);
      else if (!r.body.equals(readFileSync(path.join(siteDir, file)))) out.push(`${url}: body differs from ${file}`);
      if (r.type === 'application/octet-stream' || r.type.startsWith('font/') || !typeOk(format, r.type)) out.push(`${url}: Content-Type "${r.headers.get('content-type')}" for ${format}`);
      return out;
    })).flat();
    expect(checks).toHaveLength(FOLDERS.length * FORMATS.length);
    expect(found, problems(found)).toEqual([]);
  });

  it('serves logos as image/svg+xml', async () => {
    for (const id of [DETAIL_ID, 'UN0083.1']) {
      const file = path.join(siteDir, `static/logos/svg/${id}.svg`);
      const r = await get(`${server.origin}/static/logos/svg/${id}.svg`);
      expect(r.status, id).toBe(200);
      expect(r.type, id).toBe('image/svg+xml');
      expect(r.body.equals(readFileSync(file)), id).toBe(true);
    }
  });

  it('answers / and /api/v1/matrix/ with HTML', async () => {
    for (const [url, file] of [['/', 'index.html'], ['/api/v1/matrix/', 'api/v1/matrix/index.html']]) {
      const r = await get(`${server.origin}${url}`);
      expect(r.status, url).toBe(200);
      expect(r.type, url).toBe('text/html');
      expect(r.body.equals(readFileSync(path.join(siteDir, file))), url).toBe(true);
    }
  });

  it('answers a missing path with 404', async () => {
    for (const url of ['/api/v1/matrix/MA9999.1/index.json', '/no/such/file.txt', '/api/v1/matrix/page/0/']) {
      const r = await get(`${server.origin}${url}`);
      expect(r.status, url).toBe(404);
    }
  });
});
