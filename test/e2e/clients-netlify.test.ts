// What real clients send (rbioapi, RSAT, ToolUniverse, JASPAR's own
// examples), answered through Netlify's own engine (`netlify dev`), and a
// grid of parameter combinations in which no answer may be a 200 with data
// that ignores a parameter. Expectations come from the release itself (an
// independent filter written here), not from the generator's views.
//
// netlify dev answers a rewrite to a file that does not exist with status 200
// and /404.html ({"detail":"Not found."}) as the body; production Netlify
// answers 404. So an error is either a 404/501 with a JSON detail, or that
// exact body.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Matrix } from '../../generator/dataset/types.ts';
import { sharedRelease } from '../support/release.ts';
import { FORMAT_FILES, type Fetched, type Format, fetchAll, get, problems, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
// `npm test` (the fixture site) asks every request below and the grid's
// single parameters and pairs; `npm run test:full` (the full site) asks the
// grid's triples, the slowest part (about 400 netlify dev requests).
const full = inject('siteKind') === 'full';
const BASE = 'http://jaspar.test';
const NOT_FOUND = '{"detail":"Not found."}';
const SIZES = [10, 25, 50, 100, 250, 500, 1000];
const FILTER_KEYS = ['collection', 'tax_group', 'tax_id', 'version'] as const;
type Params = Record<string, string>;

const release = sharedRelease();
const ordered = [...release.matrices].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)) || a.row - b.row);
/** The newest version of each base id among the given matrices. */
function newest(matrices: Matrix[]): Set<Matrix> {
  const byBase = new Map<string, Matrix>();
  for (const m of matrices) if (!byBase.has(m.baseId) || byBase.get(m.baseId)!.version < m.version) byBase.set(m.baseId, m);
  return new Set(byBase.values());
}

/** The matrices a filter set selects, in list order (the real service's semantics). */
function select(filters: Params): Matrix[] {
  const kept = ordered.filter((m) =>
    (filters.collection === undefined || m.collection === filters.collection) &&
    (filters.tax_group === undefined || m.taxGroup === filters.tax_group) &&
    (filters.tax_id === undefined || m.species.some((s) => String(s.taxId) === filters.tax_id)));
  if (filters.version === undefined) return kept;
  // version=latest: the newest version of each base id among what the other filters kept.
  const latest = filters.version === 'latest' ? newest(kept) : new Set<Matrix>();
  return kept.filter((m) => latest.has(m));
}

const query = (params: Params) => Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
const sortedQuery = (params: Params) => query(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))));

/** Where the build writes a list view page (generator/routes/urls.ts), for byte comparison. */
function viewFile(filters: Params, size: number, page: number, format: Format): string {
  let dir = 'api/v1/matrix/';
  for (const key of FILTER_KEYS) if (filters[key] !== undefined) dir += `${key}/${filters[key]}/`;
  if (size !== 10) dir += `page_size/${size}/`;
  return `${dir}page/${page}/${FORMAT_FILES[format]}`;
}

let server: RunningServer;
const url = (p: string) => `${server.origin}${p}`;

beforeAll(async () => {
  server = await startNetlifyDev(siteDir);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

interface ListBody {
  count: number;
  next: string | null;
  previous: string | null;
  results: { matrix_id: string }[];
}

/** Problems of a JSON list answer against the expected page of `matrices`. */
function listProblems(label: string, r: Fetched, matrices: Matrix[], size: number, page: number, nextParams?: Params): string[] {
  // Past the last page (a small release has few): what Netlify's rules answer, as test/hosts/cases.ts LACKS.netlify says:
  // the page is a placeholder, so no file, the site's "Not found." ("Invalid page." needs a rule per page), status 200 from netlify dev.
  if (page > Math.max(1, Math.ceil(matrices.length / size))) {
    const text = r.body.toString('utf8');
    return text === '{"detail":"Not found."}' && r.status === 200 ? [] : [`${label}: past the last page: ${r.status} ${text.slice(0, 120)}, wanted 200 {"detail":"Not found."} (netlify dev, no edge function)`];
  }
  if (r.status !== 200) return [`${label}: status ${r.status}: ${r.body.toString('utf8').slice(0, 120)}`];
  let body: ListBody;
  try {
    body = JSON.parse(r.body.toString('utf8')) as ListBody;
  } catch {
    return [`${label}: not JSON: ${r.body.toString('utf8').slice(0, 120)}`];
  }
  const out: string[] = [];
  const want = matrices.slice((page - 1) * size, page * size).map((m) => m.matrixId);
  if (body.count !== matrices.length) out.push(`${label}: count ${body.count}, wanted ${matrices.length}`);
  const got = body.results?.map((x) => x.matrix_id) ?? [];
  if (got.join() !== want.join()) out.push(`${label}: ${got.length} results [${got.slice(0, 3)}…], wanted ${want.length} [${want.slice(0, 3)}…]`);
  if (nextParams) {
    const last = Math.max(1, Math.ceil(matrices.length / size));
    const link = (n: number) => `${BASE}/api/v1/matrix?${sortedQuery({ ...nextParams, page: String(n) })}`;
    const next = page < last ? link(page + 1) : null;
    const previous = page > 1 ? link(page - 1) : null;
    if (body.next !== next) out.push(`${label}: next ${body.next}, wanted ${next}`);
    if (body.previous !== previous) out.push(`${label}: previous ${body.previous}, wanted ${previous}`);
  }
  return out;
}

const CORE_GROUPS = [...new Set(release.matrices.filter((m) => m.collection === 'CORE' && m.taxGroup).map((m) => m.taxGroup))].sort();

if (!full) {
  describe('requests real clients send, through Netlify\'s engine', () => {
    it('pages through the whole list with release=2024&page_size=1000, as rbioapi does', async () => {
      const pages = Math.ceil(release.matrices.length / 1000);
      const found: string[] = [];
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const r = await get(url(`/api/v1/matrix/?release=2024&page_size=1000&page=${page}`));
        found.push(...listProblems(`page ${page}`, r, ordered, 1000, page, { format: 'json', page_size: '1000' }));
        if (r.status === 200) seen.push(...(JSON.parse(r.body.toString('utf8')) as ListBody).results.map((x) => x.matrix_id));
      }
      expect(found, problems(found)).toEqual([]);
      expect(seen).toEqual(ordered.map((m) => m.matrixId));
    }, 120_000);

    it('answers each single filter and every collection × tax_group × version=latest bundle', async () => {
      const cases: Params[] = [
        { collection: 'CORE' }, { collection: 'UNVALIDATED' }, { tax_group: 'vertebrates' }, { tax_group: 'plants' }, { tax_id: '9606' }, { tax_id: '10090' }, { version: 'latest' },
        { tax_id: '9606', version: 'latest' }, { collection: 'CORE', version: 'latest' },
      ];
      for (const group of CORE_GROUPS) cases.push({ collection: 'CORE', tax_group: group }, { collection: 'CORE', tax_group: group, version: 'latest' });
      const found = (await fetchAll(cases, 6, async (filters) => {
        const matrices = select(filters);
        const out: string[] = [];
        if (matrices.length === 0) out.push(`${query(filters)}: selects nothing in the release (bad test case)`);
        for (let page = 1; page <= Math.max(1, Math.ceil(matrices.length / 1000)); page++) {
          const p = `/api/v1/matrix/?release=2024&${query(filters)}&page_size=1000&page=${page}`;
          out.push(...listProblems(p, await get(url(p)), matrices, 1000, page, { ...filters, format: 'json', page_size: '1000' }));
        }
        return out;
      })).flat();
      expect(found, problems(found)).toEqual([]);
    }, 180_000);

    // The redirect names the parameters its rule names (filters, page, format):
    // release=2024, which the rules ignore, is not carried over (the same data;
    // generator/hosting/rules.ts, header).
    it('answers every pre-rendered page size, and sizes above 1000 as 1000 (a redirect keeping filters, page and format)', async () => {
      const found: string[] = [];
      for (const size of SIZES) {
        for (const page of [1, 2, Math.ceil(ordered.length / size)]) {
          const p = `/api/v1/matrix/?page_size=${size}&page=${page}`;
          found.push(...listProblems(p, await get(url(p)), ordered, size, page, { format: 'json', ...(size === 10 ? {} : { page_size: String(size) }) }));
        }
      }
      const vertebrates = select({ tax_group: 'vertebrates' });
      for (const size of ['2000', '5000', '10000']) {
        const p = `/api/v1/matrix/?tax_group=vertebrates&page_size=${size}&format=json&page=2&release=2024`;
        const r = await get(url(p));
        const location = r.headers.get('location') ?? '';
        if (r.status !== 301) found.push(`${p}: status ${r.status}, wanted 301`);
        if (location !== '/api/v1/matrix/?format=json&page=2&page_size=1000&tax_group=vertebrates') found.push(`${p}: Location ${location}`);
        found.push(...listProblems(`${p} (followed)`, await get(url(p), 'follow'), vertebrates, 1000, 2));
      }
      expect(found, problems(found)).toEqual([]);
    }, 180_000);

    it('answers versions, an id without a slash and a double slash', async () => {
      const found: string[] = [];
      const versions = JSON.parse((await get(url('/api/v1/matrix/MA0600/versions/?page_size=1000'))).body.toString('utf8')) as { count: number; results: { matrix_id: string }[] };
      const want = release.matrices.filter((m) => m.baseId === 'MA0600').sort((a, b) => a.version - b.version).map((m) => m.matrixId);
      expect(versions.results.map((x) => x.matrix_id)).toEqual(want);
      const detail = readFileSync(path.join(siteDir, 'api/v1/matrix/MA0600.2/index.json'));
      for (const p of ['/api/v1/matrix/MA0600.2', '/api/v1/matrix/MA0600.2/', '/api/v1//matrix/MA0600.2/', '/api/v1//matrix/MA0600.2']) {
        const r = await get(url(p));
        if (r.status !== 200 || !r.body.equals(detail)) found.push(`${p}: status ${r.status}, body ${r.body.toString('utf8').slice(0, 80)}`);
      }
      expect(found, problems(found)).toEqual([]);
    }, 60_000);

    it('answers the collections, taxa, species and releases, and the matrices of each', async () => {
      const found: string[] = [];
      const json = async (p: string) => {
        const r = await get(url(p));
        if (r.status !== 200) found.push(`${p}: status ${r.status}`);
        return JSON.parse(r.body.toString('utf8')) as { count: number; next: string | null; results: Record<string, unknown>[] };
      };
      const collections = await json('/api/v1/collections/');
      expect(collections.results).toEqual([...new Set(release.matrices.map((m) => m.collection))].sort().map((name) => ({ name, url: `${BASE}/api/v1/collections/${name}/` })));
      const taxa = await json('/api/v1/taxon/');
      expect(taxa.results.map((t) => t.name)).toEqual([...new Set(release.matrices.map((m) => m.taxGroup).filter(Boolean))].sort());
      const species = await json('/api/v1/species/?page_size=1000');
      const taxIds = [...new Set(release.matrices.flatMap((m) => m.species.map((s) => s.taxId)).filter((t) => t !== null))].sort((a, b) => a! - b!);
      expect(species.results.map((s) => s.tax_id)).toEqual(taxIds);
      expect(species.results[0]).toEqual(expect.objectContaining({ species: expect.any(String), url: `${BASE}/api/v1/species/${taxIds[0]}/`, matrix_url: `${BASE}/api/v1/matrix/?tax_id=${taxIds[0]}` }));
      const firstPage = await json('/api/v1/species/');
      if (taxIds.length > 10) expect(firstPage.next).toBe(`${BASE}/api/v1/species/?format=json&page=2`);
      // Every JASPAR release, 1 to 11; the one the site holds with its matrices.
      const releases = await json('/api/v1/releases/?page_size=1000');
      expect(releases.results.map((r) => r.release_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      const held = releases.results.find((r) => r.year === 2024);
      expect(held).toEqual(expect.objectContaining({ year: 2024, release_number: 10, mirrored: true, matrices: release.matrices.length }));
      for (const p of ['/api/v1/releases/2024/', '/api/v1/releases/10/']) expect(await json(p)).toEqual(held);

      for (const [p, filters] of [
        ['/api/v1/collections/CORE/?page_size=1000&page=1', { collection: 'CORE' }],
        ['/api/v1/collections/UNVALIDATED/?page_size=1000&page=1&release=2024', { collection: 'UNVALIDATED' }],
        ['/api/v1/taxon/plants/?page=1&page_size=1000', { tax_group: 'plants' }],
        ['/api/v1/taxon/vertebrates/?page=1&page_size=500&version=latest', { tax_group: 'vertebrates', version: 'latest' }],
        ['/api/v1/taxon/vertebrates/?page=2&page_size=500&version=latest', { tax_group: 'vertebrates', version: 'latest' }],
        ['/api/v1/species/9606/?page=1&page_size=1000', { tax_id: '9606' }],
        ['/api/v1/species/9606/?page=1&page_size=1000&version=latest', { tax_id: '9606', version: 'latest' }],
      ] as [string, Params][]) {
        const search = new URL(p, BASE).searchParams;
        found.push(...listProblems(p, await get(url(p)), select(filters), Number(search.get('page_size')), Number(search.get('page'))));
      }
      expect(found, problems(found)).toEqual([]);
    }, 120_000);

    it('answers the API root, the health check, the OpenAPI description and its documentation page', async () => {
      const root = JSON.parse((await get(url('/api/v1/'))).body.toString('utf8')) as Record<string, string>;
      expect(Object.keys(root)).toEqual(expect.arrayContaining(['matrix', 'collections', 'taxon', 'species', 'releases', 'openapi']));
      const head = await fetch(url('/api/v1/live-api/'), { method: 'HEAD' });
      expect(head.status).toBe(200);
      const openapi = JSON.parse((await get(url('/api/v1/openapi.json'))).body.toString('utf8')) as { openapi: string; paths: Record<string, unknown> };
      expect(openapi.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/v1/matrix/', '/api/v1/collections/{collection}/', '/api/v1/species/{tax_id}/', '/api/v1/sites/{matrix_id}/']));
      const docs = (await get(url('/api/v1/live-api/'))).body.toString('utf8');
      for (const p of Object.keys(openapi.paths)) expect(docs).toContain(`GET ${p}`);
    }, 60_000);

    it('answers the binding sites of every matrix that has them, as JSON and BED', async () => {
      const withSites = release.matrices.filter((m) => m.sites !== null);
      expect(withSites.length).toBeGreaterThan(0);
      const found = (await fetchAll(withSites, 8, async (m) => {
        const out: string[] = [];
        const r = await get(url(`/api/v1/sites/${m.matrixId}/`));
        const lines = m.sites!.split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('track') && !l.startsWith('browser'));
        const body = JSON.parse(r.body.toString('utf8')) as { matrix_id: string; count: number; results: { chrom: string; start: number; end: number }[] };
        if (r.status !== 200 || body.matrix_id !== m.matrixId || body.count !== lines.length) out.push(`${m.matrixId}: status ${r.status}, count ${body.count}/${lines.length}`);
        if (lines.length === 0) return out;
        const [chrom, start, end] = lines[0].split('\t');
        if (body.results[0]?.chrom !== chrom || body.results[0]?.start !== Number(start) || body.results[0]?.end !== Number(end)) out.push(`${m.matrixId}: first site ${JSON.stringify(body.results[0])}`);
        const bed = await get(url(`/api/v1/sites/${m.matrixId}/?format=bed`));
        if (!bed.body.toString('utf8').includes(lines[lines.length - 1])) out.push(`${m.matrixId}: BED lacks the last site`);
        return out;
      })).flat();
      expect(found, problems(found)).toEqual([]);
    }, 180_000);
  });
}

// ---------------------------------------------------------------------------
// Everything else: an honest error, never data that ignores a parameter.

const SUPPORTED = new Set(['format', 'page', 'page_size', 'release', ...FILTER_KEYS]);
const UNSUPPORTED = ['search', 'order', 'name', 'tf_class', 'tf_family', 'data_type'];
const VIEW_FORMAT_SIZES: Record<string, number[]> = {
  api: [10, 100], json: SIZES, jsonp: [10, 1000], yaml: [10, 1000], jaspar: [10, 1000], meme: [10, 1000], transfac: [10, 1000], pfm: [10, 1000], bed: [],
};

/** JASPAR's release years (generator/routes/table.ts JASPAR_RELEASE_YEARS, spelled here as the service has them). */
const JASPAR_YEARS = new Set(['2004', '2006', '2008', '2010', '2014', '2016', '2018', '2020', '2022', '2024', '2026']);

const KNOWN: Record<string, Set<string>> = {
  collection: new Set(release.matrices.map((m) => m.collection)),
  tax_group: new Set(release.matrices.map((m) => m.taxGroup).filter(Boolean)),
  tax_id: new Set(release.matrices.flatMap((m) => m.species.map((s) => String(s.taxId)))),
  version: new Set(['latest']),
};

type Expected =
  | { kind: 'data'; filters: Params; size: number; page: number; format: Format }
  | { kind: 'redirect'; location: string }
  | { kind: 'error'; status: number[] };

/** What the real service would answer, restricted to what the mirror can: data, a redirect, or an error. */
function expected(params: Params): Expected {
  if (Object.keys(params).some((k) => UNSUPPORTED.includes(k))) return { kind: 'error', status: [501] };
  const filters = Object.fromEntries(Object.entries(params).filter(([k]) => (FILTER_KEYS as readonly string[]).includes(k)));
  const keys = Object.keys(filters);
  if (keys.includes('tax_id') && (keys.includes('collection') || keys.includes('tax_group'))) return { kind: 'error', status: [501] };
  // Another JASPAR release: 501. Any other release= value is ignored, as the
  // rules ignore parameters they do not name (generator/hosting/rules.ts).
  if (params.release !== undefined && params.release !== '2024' && JASPAR_YEARS.has(params.release)) return { kind: 'error', status: [501] };
  const rawSize = params.page_size ?? '10';
  if (['2000', '5000', '10000'].includes(rawSize)) {
    const { release: _ignored, ...kept } = params;
    return { kind: 'redirect', location: `/api/v1/matrix/?${sortedQuery({ ...kept, page_size: '1000' })}` };
  }
  // Without the edge function, what has no file is "Not found." (a 404; netlify dev: 200 with that body): a page size
  // not pre-rendered, a format not pre-rendered at a page size or for a filtered list (the rules' placeholders; see rules.ts).
  const size = Number(rawSize);
  if (!SIZES.includes(size) || !/^\d+$/.test(rawSize)) return { kind: 'error', status: [404] };
  const format = (params.format ?? 'json') as Format;
  if (!(format in FORMAT_FILES)) return { kind: 'error', status: [404] };
  const isDefault = keys.length === 0 && size === 10;
  if (!isDefault && !VIEW_FORMAT_SIZES[format].includes(size)) return { kind: 'error', status: [404] };
  // page_size=10 named on a filtered list: the rules answer it on the unfiltered list only (its page_size/10/ has no folder).
  if (keys.length > 0 && params.page_size === '10') return { kind: 'error', status: [404] };
  // A value the release does not hold has no file: Not found (the real service would answer an empty list).
  if (Object.entries(filters).some(([k, v]) => !KNOWN[k].has(v))) return { kind: 'error', status: [404] };
  const matrices = select(filters);
  const last = Math.max(1, Math.ceil(matrices.length / size));
  const page = params.page === undefined ? 1 : /^\d+$/.test(params.page) ? Number(params.page) : NaN;
  if (!(page >= 1 && page <= last)) return { kind: 'error', status: [404] };
  return { kind: 'data', filters, size, page, format };
}

/** One value per parameter, with valid and invalid choices; the grid takes every pair and many triples. */
const CHOICES: [string, string][] = [
  ['collection', 'CORE'], ['collection', 'UNVALIDATED'], ['collection', 'NOPE'], ['tax_group', 'plants'], ['tax_group', 'insects'], ['tax_id', '9606'],
  ['tax_id', '9606,10090'], ['version', 'latest'], ['version', '2'], ['page_size', '10'], ['page_size', '25'], ['page_size', '1000'], ['page_size', '37'], ['page_size', '5000'],
  ['page', '2'], ['page', '999'], ['page', 'abc'], ['release', '2024'], ['release', '2022'], ['release', '1999'], ['format', 'meme'], ['format', 'api'], ['format', 'bed'],
  ['format', 'yaml'], ['format', 'xml'], ['search', 'CTCF'], ['order', 'name'], ['name', 'CTCF'], ['tf_class', 'x'], ['tf_family', 'x'], ['data_type', 'ChIP-seq'],
];

/** The choices a list page can answer with data (given the others fit). */
const DATA_CHOICES = new Set(['collection=CORE', 'tax_group=plants', 'tax_id=9606', 'version=latest', 'page_size=25', 'page_size=1000', 'page=2', 'release=2024', 'format=meme', 'format=api', 'format=yaml']);

function grid(size: 'pairs' | 'triples'): Params[] {
  const out: Params[] = [];
  const add = (pairs: [string, string][]) => {
    const keys = pairs.map(([k]) => k);
    if (new Set(keys).size === keys.length) out.push(Object.fromEntries(pairs));
  };
  if (size === 'pairs') {
    for (let i = 0; i < CHOICES.length; i++) {
      add([CHOICES[i]]);
      for (let j = i + 1; j < CHOICES.length; j++) add([CHOICES[i], CHOICES[j]]);
    }
    return out;
  }
  // Triples: every triple of choices that can answer with data (the spread below, alone, had none), then a
  // deterministic spread over the whole space.
  const valid = CHOICES.filter((c) => DATA_CHOICES.has(c.join('=')));
  for (let i = 0; i < valid.length; i++) {
    for (let j = i + 1; j < valid.length; j++) for (let k = j + 1; k < valid.length; k++) add([valid[i], valid[j], valid[k]]);
  }
  for (let n = 0; n < 400; n++) {
    const a = (n * 7) % CHOICES.length, b = (n * 11 + 3) % CHOICES.length, c = (n * 13 + 5) % CHOICES.length;
    if (a !== b && b !== c && a !== c) add([CHOICES[a], CHOICES[b], CHOICES[c]]);
  }
  return out;
}

describe('no answer ignores a parameter (through Netlify\'s engine)', () => {
  const size = full ? 'triples' : 'pairs';
  it(`answers every parameter combination of the grid (${size === 'pairs' ? 'single parameters and pairs' : 'triples'}) with its data, a redirect or an explicit error`, async () => {
    const requests = grid(size);
    const tally = { data: 0, redirect: 0, error: 0, devNotFound200: 0 };
    const found = (await fetchAll(requests, 8, async (params) => {
      const p = `/api/v1/matrix/?${query(params)}`;
      const r = await get(url(p));
      const text = r.body.toString('utf8');
      const want = expected(params);
      if (want.kind === 'redirect') {
        tally.redirect++;
        return r.status === 301 && r.headers.get('location') === want.location ? [] : [`${p}: ${r.status} ${r.headers.get('location')}, wanted 301 ${want.location}`];
      }
      if (want.kind === 'error') {
        tally.error++;
        if (r.status === 200 && text === NOT_FOUND && want.status.includes(404)) {
          tally.devNotFound200++;
          return [];
        }
        if (!want.status.includes(r.status)) return [`${p}: status ${r.status} (${text.slice(0, 80)}), wanted ${want.status.join('/')}`];
        try {
          const detail = (JSON.parse(text) as { detail?: unknown }).detail;
          return typeof detail === 'string' && detail.length > 0 ? [] : [`${p}: error without a detail: ${text.slice(0, 80)}`];
        } catch {
          return [`${p}: error body is not JSON: ${text.slice(0, 80)}`];
        }
      }
      tally.data++;
      const file = readFileSync(path.join(siteDir, viewFile(want.filters, want.size, want.page, want.format)));
      const out = r.status === 200 && r.body.equals(file) ? [] : [`${p}: status ${r.status}, body is not ${viewFile(want.filters, want.size, want.page, want.format)} (${text.slice(0, 80)})`];
      if (want.format === 'json') {
        const matrices = select(want.filters);
        const nextParams: Params = { ...want.filters, format: 'json', ...(want.size === 10 ? {} : { page_size: String(want.size) }) };
        out.push(...listProblems(p, r, matrices, want.size, want.page, nextParams));
      }
      return out;
    })).flat();
    console.log(`parameter grid (${size}): ${requests.length} requests; ${tally.data} data, ${tally.redirect} redirects, ${tally.error} errors (${tally.devNotFound200} of them netlify dev's 200 + Not found body)`);
    expect(found, problems(found)).toEqual([]);
    expect(tally.data).toBeGreaterThan(size === 'pairs' ? 50 : 20);
  }, 600_000);

  if (!full) {
    it('answers unsupported parameters on every list endpoint with 501 and a detail naming them', async () => {
      const endpoints = ['/api/v1/matrix/', '/api/v1/collections/CORE/', '/api/v1/taxon/plants/', '/api/v1/species/9606/', '/api/v1/collections/', '/api/v1/taxon/', '/api/v1/species/', '/api/v1/releases/'];
      const requests = endpoints.flatMap((e) => UNSUPPORTED.map((param) => [e, param] as const));
      const found = (await fetchAll(requests, 8, async ([endpoint, param]) => {
        const p = `${endpoint}?${param}=x&page_size=1000&release=2024`;
        const r = await get(url(p));
        const detail = r.status === 501 ? ((JSON.parse(r.body.toString('utf8')) as { detail: string }).detail) : '';
        return r.status === 501 && detail.includes(`"${param}"`) && detail.includes('Supported') ? [] : [`${p}: ${r.status} ${r.body.toString('utf8').slice(0, 100)}`];
      })).flat();
      expect(found, problems(found)).toEqual([]);
      for (const [p, status] of [
        ['/api/v1/collections/CORE/?tax_id=9606', 501],
        ['/api/v1/species/9606/?collection=CORE', 501],
        ['/api/v1/collections/CORE/?release=2022', 501],
        ['/api/v1/species/?release=2018', 501],
        ['/api/v1/sites/MA0014.2/?format=api', 501],
      ] as const) {
        const r = await get(url(p));
        expect(r.status, p).toBe(status);
        expect(typeof (JSON.parse(r.body.toString('utf8')) as { detail: unknown }).detail, p).toBe('string');
      }
    }, 120_000);

    it('keeps parameters that are not the real service\'s out of the way (DRF ignores them too)', async () => {
      const r = await get(url('/api/v1/matrix/?collection=CORE&page_size=25&utm_source=x'));
      expect(r.body.equals(readFileSync(path.join(siteDir, viewFile({ collection: 'CORE' }, 25, 1, 'json'))))).toBe(true);
      expect(SUPPORTED.has('utm_source')).toBe(false);
    }, 60_000);
  }
});
