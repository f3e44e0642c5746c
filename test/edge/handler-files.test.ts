// What the handler renders is what the build pre-rendered: for the own
// query URL of pre-rendered list pages (every format, page sizes, filtered
// views), the handler with the list files hidden (as in a compact build)
// renders the file's bytes, page 2 included: its link to page 1 keeps
// page=1, as the file carries it (the spec; DRF drops it).
// With the files present it serves them (the same bytes, through next()).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createHandler, type EdgeSite } from '../../generator/edge/handler.ts';
import { FORMAT_IDS, type FormatId } from '../../generator/formats/registry.ts';
import { PAGE_SIZES, indexDir, indexQueryUrl, listDir, listQueryUrl, outputPath, type Filters } from '../../generator/routes/urls.ts';
import { SITE_BASE_URL } from '../support/paths.ts';
import { problems } from '../support/servers.ts';
import { folderSite } from './folder-site.ts';
import { sharedRelease } from '../support/release.ts';
import type { Matrix } from '../../generator/dataset/types.ts';

/** One handler for the file: the indexes are read once. */
const handle = createHandler();

interface Case { format: FormatId; pageSize: number; filters: Filters; pages: number[] }

const LAST = -1;
const CASES: Case[] = [
  ...FORMAT_IDS.map((format) => ({ format, pageSize: 10, filters: {}, pages: [1, 2, 3, 200, LAST] })),
  ...[25, 100, 1000].map((pageSize) => ({ format: 'json' as const, pageSize, filters: {}, pages: [1, 2, 3, LAST] })),
  ...(['json', 'yaml', 'jaspar', 'meme', 'transfac', 'pfm', 'jsonp', 'api'] as const).map((format) => ({ format, pageSize: 10, filters: { collection: 'CORE', tax_group: 'vertebrates', version: 'latest' }, pages: [1, 2, 3, LAST] })),
  { format: 'api', pageSize: 100, filters: { tax_group: 'plants' }, pages: [1, 2, LAST] },
  { format: 'jaspar', pageSize: 1000, filters: { collection: 'CORE' }, pages: [1, 2, LAST] },
  { format: 'json', pageSize: 50, filters: { collection: 'CORE', version: 'latest' }, pages: [1, 2, 3, LAST] },
  { format: 'json', pageSize: 10, filters: { collection: 'UNVALIDATED', tax_group: 'insects' }, pages: [1] },
];

/** The site without its list page files: next() answers 404 for them. */
function withoutListFiles(site: EdgeSite): EdgeSite {
  return {
    readFile: (p) => site.readFile(p),
    next: (request) => (/\/page\/[0-9]+\/index\./.test(new URL(request.url).pathname)
      ? Promise.resolve(new Response('{"detail":"Not found."}', { status: 404 }))
      : site.next(request)),
  };
}

describe('edge handler and the pre-rendered files', () => {
  it('renders the bytes of the pre-rendered list pages for their own query URLs', { timeout: 300_000 }, async () => {
    const siteDir = inject('siteDir');
    const full = folderSite(siteDir);
    const compact = withoutListFiles(full);
    const wrong: string[] = [];
    let compared = 0;
    for (const c of CASES) {
      const first = JSON.parse(readFileSync(path.join(siteDir, outputPath(listDir(1, c.pageSize, c.filters), 'json')), 'utf8')) as { count: number };
      const last = Math.max(1, Math.ceil(first.count / c.pageSize));
      for (const n of c.pages.map((p) => (p === LAST ? last : p)).filter((p) => p <= last)) {
        const file = readFileSync(path.join(siteDir, outputPath(listDir(n, c.pageSize, c.filters), c.format)), 'utf8');
        const target = listQueryUrl(SITE_BASE_URL, c.format, n, c.pageSize, c.filters);
        // Page 2 too: its link to page 1 keeps page=1, as the file (DRF drops it; the handler writes what the files have).
        const expected = file;
        for (const [label, site] of [['rendered', compact], ['served', full]] as const) {
          const response = await handle(new Request(target), site);
          const body = await response.text();
          compared++;
          if (response.status !== 200) wrong.push(`${label} ${target}: status ${response.status}`);
          else if (body !== expected) wrong.push(`${label} ${target}: differs from ${outputPath(listDir(n, c.pageSize, c.filters), c.format)}`);
        }
      }
    }
    process.stdout.write(`edge handler: ${compared} answers compared with the pre-rendered files\n`);
    expect(wrong, problems(wrong)).toEqual([]);
  });

  it('answers the index lists\' own query URLs with their files (page 2 too: the link to page 1 keeps page=1, as the file)', { timeout: 120_000 }, async () => {
    // Cloudflare has no query rules: the handler answers these itself (api-routes.ts).
    const siteDir = inject('siteDir');
    const site = folderSite(siteDir);
    const wrong: string[] = [];
    let compared = 0;
    for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
      for (const pageSize of PAGE_SIZES) {
        const { count } = JSON.parse(readFileSync(path.join(siteDir, outputPath(indexDir(endpoint, 1, pageSize), 'json')), 'utf8')) as { count: number };
        for (let n = 1; n <= Math.max(1, Math.ceil(count / pageSize)); n++) {
          for (const format of ['json', 'jsonp', 'yaml', 'api'] as const) {
            const file = readFileSync(path.join(siteDir, outputPath(indexDir(endpoint, n, pageSize), format)), 'utf8');
            const target = indexQueryUrl(SITE_BASE_URL, endpoint, format, n, pageSize);
            const response = await handle(new Request(target), site);
            const body = await response.text();
            compared++;
            if (response.status !== 200) wrong.push(`${target}: status ${response.status}`);
            else if (body !== file) wrong.push(`${target}: differs from its file`);
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(wrong, problems(wrong)).toEqual([]);
  });

  it('filtered latest-version views hold what the service answers, in the files and through the handler', async () => {
    // The service filters, then keeps the latest version of each base id
    // among what is left (issue 14: tax_group=plants, 875 matrices, not the
    // 820 that the latest over the whole release, then filtered, would give).
    const site = folderSite(inject('siteDir'));
    const release = sharedRelease();
    for (const [filters, keep] of [
      [{ tax_group: 'plants', version: 'latest' }, (m: Matrix) => m.taxGroup === 'plants'],
      [{ tax_id: '9606', version: 'latest' }, (m: Matrix) => m.species.some((s) => s.taxId === 9606)],
    ] as const) {
      const kept = release.matrices.filter(keep);
      const newest = new Map<string, number>();
      for (const m of kept) newest.set(m.baseId, Math.max(newest.get(m.baseId) ?? 0, m.version));
      const service = kept.filter((m) => newest.get(m.baseId) === m.version).length;
      const file = JSON.parse(readFileSync(path.join(inject('siteDir'), outputPath(listDir(1, 10, filters), 'json')), 'utf8')) as { count: number };
      const response = await handle(new Request(listQueryUrl(SITE_BASE_URL, 'json', 1, 10, filters)), site);
      const body = (await response.json()) as { count: number };
      expect(file.count, `${JSON.stringify(filters)}: the file holds what the service answers`).toBe(service);
      expect(body.count, JSON.stringify(filters)).toBe(service);
    }
  });

  it('answers a base id without a version with the file the build writes there (its latest version), as every host serves it', async () => {
    // Apache passes such a path (a folder, no file) to the Node server: the handler's answer must be the file's (issue 19, stop 23).
    const siteDir = inject('siteDir');
    const site = folderSite(siteDir);
    const wrong: string[] = [];
    // MA0139 (2024), MA2593 (only JASPAR 2026 has it: its files lie at the root).
    for (const baseId of ['MA0139', 'MA2593']) {
      for (const format of FORMAT_IDS) {
        const dir = `api/v1/matrix/${baseId}/`;
        // BED only where the latest version has binding sites.
        if (!existsSync(path.join(siteDir, outputPath(dir, format)))) continue;
        const file = readFileSync(path.join(siteDir, outputPath(dir, format)), 'utf8');
        for (const target of [`${SITE_BASE_URL}/${dir}?format=${format}`, ...(format === 'api' || format === 'bed' ? [] : [`${SITE_BASE_URL}/api/v1/matrix/${baseId}.${format}`])]) {
          const response = await handle(new Request(target), site);
          const body = await response.text();
          if (response.status !== 200 || body !== file) wrong.push(`${target}: status ${response.status}, ${body === file ? 'the file' : 'not the file'}`);
        }
      }
    }
    expect(wrong, problems(wrong)).toEqual([]);
    // A base id the site has no version of: the service's "Not found.".
    const unknown = await handle(new Request(`${SITE_BASE_URL}/api/v1/matrix/MA9999/?format=json`), site);
    expect([unknown.status, await unknown.text()]).toEqual([404, '{"detail":"Not found."}']);
  });
});
