// Every `url`, `sequence_logo` and `versions_url` reachable from the list
// resolves on Netlify's own engine: the list pages' `url` and
// `sequence_logo` of every matrix (5,278 in JASPAR 2024), and the `versions_url` of every
// matrix's detail body, as the bodies carry them (base URL → server origin).
// Every one of them is checked on http-server by links.test.ts; netlify dev
// (60-250 ms a request here, single-threaded) checks an evenly spread sample
// of SAMPLE of them, and that none answers the Not found body.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { SITE_BASE_URL } from '../support/paths.ts';
import { sharedRelease } from '../support/release.ts';
import { fetchAll, get, problems, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
const SAMPLE = 2_000;
const NOT_FOUND = '{"detail":"Not found."}';
let netlify: RunningServer;

beforeAll(async () => {
  netlify = await startNetlifyDev(siteDir);
}, 180_000);

afterAll(async () => {
  await netlify?.stop();
}, 30_000);

it('resolves a spread sample of every url, sequence_logo and versions_url', async () => {
  const pagesDir = path.join(siteDir, 'api/v1/matrix/page');
  const urls = new Set<string>();
  const fields = { url: 0, sequence_logo: 0, versions_url: 0 };
  for (const page of readdirSync(pagesDir)) {
    const body = JSON.parse(readFileSync(path.join(pagesDir, page, 'index.json'), 'utf8')) as { results: { url: string; sequence_logo: string; matrix_id: string }[] };
    for (const r of body.results) {
      urls.add(r.url);
      urls.add(r.sequence_logo);
      fields.url++;
      fields.sequence_logo++;
      const detail = JSON.parse(readFileSync(path.join(siteDir, `api/v1/matrix/${r.matrix_id}/index.json`), 'utf8')) as { versions_url: string };
      urls.add(detail.versions_url);
      fields.versions_url++;
    }
  }
  const all = [...urls].sort();
  for (const u of all) expect(u.startsWith(SITE_BASE_URL)).toBe(true);
  const list = all.length <= SAMPLE ? all : Array.from({ length: SAMPLE }, (_, i) => all[Math.floor((i * all.length) / SAMPLE)]);
  const started = performance.now();
  const broken = (await fetchAll(list, 8, async (u) => {
    const r = await get(`${netlify.origin}${u.slice(SITE_BASE_URL.length)}`, 'manual');
    return r.status === 200 && r.body.length > 0 && r.body.toString('utf8') !== NOT_FOUND ? null : `${u} → ${r.status} ${r.body.toString('utf8').slice(0, 40)}`;
  })).filter((b): b is string => b !== null);
  console.log(`list links on netlify dev: ${fields.url} url, ${fields.sequence_logo} sequence_logo, ${fields.versions_url} versions_url fields; ${all.length} unique URLs, ${list.length} of them checked, ${broken.length} broken, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // A url and a logo a matrix, a versions_url a base id (13,545 in JASPAR 2024).
  const matrices = sharedRelease().matrices;
  expect(all.length).toBe(2 * matrices.length + new Set(matrices.map((m) => m.baseId)).size);
  expect(broken, problems(broken)).toEqual([]);
}, 2_400_000);
