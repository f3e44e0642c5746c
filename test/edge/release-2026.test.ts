// rbioapi asks for release=2026 by default: the site the global setup
// builds holds JASPAR 2024 (the default release, at the root) and JASPAR
// 2026 CORE (from JASPAR's own 2026 files, older versions' counts from
// data/jaspar-2024) under /releases/2026/. Asked here through the edge
// handler in process, over that site's files: release=2026 and the
// /releases/2026/ paths answer 2026, what 2026 lacks is said, a matrix new in
// 2026 answers at its own URL, and a 2026 matrix in the jaspar format is its
// record in JASPAR's 2026 bundle, byte for byte.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createHandler } from '../../generator/edge/handler.ts';
import { PROJECT_ROOT, SITE_BASE_URL, dataDir, siteDataDir } from '../support/paths.ts';
import { folderSite } from './folder-site.ts';

/** One handler for the file: the indexes are read once. */
const handle = createHandler();

const siteDir = inject('siteDir');
const site = folderSite(siteDir);

interface Body { count?: number; next?: string | null; results?: { matrix_id: string; collection: string }[]; detail?: string }

async function get(url: string, accept?: string): Promise<{ status: number; text: string }> {
  const response = await handle(new Request(`${SITE_BASE_URL}${url}`, { headers: accept ? { accept } : {} }), site);
  return { status: response.status, text: await response.text() };
}
async function json(url: string): Promise<{ status: number; body: Body }> {
  const r = await get(url);
  return { status: r.status, body: JSON.parse(r.text) as Body };
}

/** The 2026 folder the site was built from (the fixture's under `npm test`). */
const DIR_2026 = siteDataDir(2026) ?? path.join(PROJECT_ROOT, 'data/jaspar-2026');
/** JASPAR's 2026 metadata table: a row a matrix (4,572 rows, 2,633 base ids in the full release). */
const TABLE = (() => {
  const [header, ...rows] = readFileSync(path.join(DIR_2026, 'ultimate_metadata_table_CORE.tsv'), 'utf8').trimEnd().split('\n');
  const columns = header.split('\t');
  return rows.map((row) => Object.fromEntries(row.split('\t').map((v, i) => [columns[i], v])) as Record<string, string>);
})();
const BASES_2026 = new Set(TABLE.map((r) => r.base_id)).size;
/** The default release's matrices.csv rows (JASPAR 2024: 5,278; 999 UNVALIDATED). */
const ROWS_2024 = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));

/** JASPAR's 2026 bundle records by id (the jaspar format: ">ID\tname" and four count rows). */
function bundleRecords(): Map<string, string> {
  const dir = DIR_2026;
  const records = new Map<string, string>();
  // The per-taxon bundles and the diatoms record cut from the all-taxa bundle (data/jaspar-2026/README.md).
  for (const name of readdirSync(dir).filter((n) => n.endsWith('_pfms_jaspar.txt') || n.endsWith('_records_extract.txt'))) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    for (const record of text.split(/(?=^>)/m)) records.set(record.slice(1, record.indexOf('\t')), record);
  }
  return records;
}

describe('JASPAR 2026 beside 2024 in one site', () => {
  it('release=2026&collection=CORE counts every row of the 2026 table (4,572) and pages through them all; version=latest one a base id (2,633)', async () => {
    const seen = new Set<string>();
    let url: string | null = '/api/v1/matrix/?collection=CORE&format=json&page_size=1000&release=2026';
    let count = 0;
    while (url !== null) {
      const page: { status: number; body: Body } = await json(url.replace(SITE_BASE_URL, ''));
      expect(page.status, url).toBe(200);
      count = page.body.count!;
      for (const r of page.body.results!) {
        expect(r.collection).toBe('CORE');
        seen.add(r.matrix_id);
      }
      url = page.body.next ?? null;
    }
    expect(count).toBe(TABLE.length);
    expect(seen.size).toBe(TABLE.length);
    expect((await json('/api/v1/matrix/?version=latest&release=2026&page_size=5')).body.count).toBe(BASES_2026);
    // The unfiltered 2026 list is CORE: the collection the release mirrors.
    expect((await json('/api/v1/matrix/?release=2026&format=json')).body.count).toBe(TABLE.length);
    const diatoms = await json('/api/v1/matrix/?tax_group=diatoms&release=2026');
    expect(diatoms.body.results!.map((r) => r.matrix_id)).toEqual(['MA1407.1', 'MA1407.2']);
  });

  it('answers 2026 by its path too, with the same bytes as the files', async () => {
    const byPath = await get('/releases/2026/api/v1/matrix?format=json&page=3');
    expect(byPath.status).toBe(200);
    expect(byPath.text).toBe(readFileSync(path.join(siteDir, 'releases/2026/api/v1/matrix/page/3/index.json'), 'utf8'));
    // A matrix of both releases: release=2026 gives its 2026 annotations, none its 2024 ones.
    expect((await get('/api/v1/matrix/MA0139.1/?format=json&release=2026')).text).toBe(readFileSync(path.join(siteDir, 'releases/2026/api/v1/matrix/MA0139.1/index.json'), 'utf8'));
    expect((await get('/api/v1/matrix/MA0139.1/?format=json')).text).toBe(readFileSync(path.join(siteDir, 'api/v1/matrix/MA0139.1/index.json'), 'utf8'));
  });

  it('MA2593.1, new in 2026, answers in every format without release=, its jaspar format the 2026 bundle\'s record', async () => {
    const records = bundleRecords();
    for (const format of ['json', 'jsonp', 'yaml', 'jaspar', 'meme', 'transfac', 'pfm', 'api']) {
      const r = await get(`/api/v1/matrix/MA2593.1/?format=${format}`);
      expect(r.status, format).toBe(200);
    }
    expect((await get('/api/v1/matrix/MA2593.1/?format=jaspar')).text).toBe(records.get('MA2593.1'));
    expect((await get('/api/v1/matrix/MA2593.1/?format=jaspar&release=2026')).text).toBe(records.get('MA2593.1'));
    // Every latest version of 2026, in the jaspar format, is its bundle record.
    const wrong: string[] = [];
    for (const [id, record] of records) {
      const file = readFileSync(path.join(siteDir, `releases/2026/api/v1/matrix/${id}/index.jaspar.txt`), 'utf8');
      if (file !== record) wrong.push(id);
    }
    expect(wrong).toEqual([]);
    expect(records.size).toBe(BASES_2026);
  });

  it('says what 2026 lacks, and which releases the site holds', async () => {
    for (const url of ['/api/v1/matrix/?collection=UNVALIDATED&release=2026', '/api/v1/collections/UNVALIDATED/?release=2026', '/api/v1/matrix/UN0001.1/?release=2026', '/releases/2026/api/v1/matrix/UN0001/versions/']) {
      const r = await json(url);
      expect(r.status, url).toBe(404);
      expect(r.body.detail, url).toBe('JASPAR 2026\'s UNVALIDATED collection is not mirrored: its files are not published by JASPAR. JASPAR 2024 has one here (release=2024).');
    }
    // 2024's UNVALIDATED collection is there.
    expect((await json('/api/v1/matrix/?collection=UNVALIDATED&release=2024')).body.count).toBe(ROWS_2024.filter((r) => r[3] === 'UNVALIDATED').length);
    const other = await json('/api/v1/matrix/?release=2022');
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe('Release "2022" is not available: this mirror serves JASPAR 2024 (release=2024) and JASPAR 2026 (release=2026).');
    const releases = JSON.parse((await get('/api/v1/releases/?format=json&page_size=25')).text) as { count: number; results: { year: number; release_number: number; mirrored: boolean; collections: Record<string, string> | null; matrix_url: string | null }[] };
    expect(releases.count).toBe(11);
    const r2026 = releases.results.find((r) => r.year === 2026)!;
    expect(r2026.release_number).toBe(11);
    expect(r2026.mirrored).toBe(true);
    expect(r2026.collections).toEqual({ CORE: 'mirrored', UNVALIDATED: 'not published', DL: 'not published' });
    expect(r2026.matrix_url).toBe(`${SITE_BASE_URL}/releases/2026/api/v1/matrix/`);
    expect(releases.results.find((r) => r.year === 2018)!.mirrored).toBe(false);
  });

  it('shows people which release a page is, with a switch to the other', async () => {
    const home2026 = (await get('/releases/2026/')).text;
    expect(home2026).toContain('<strong>JASPAR 2026</strong>');
    expect(home2026).toContain('href=\'/\'>JASPAR 2024</a>');
    // "JASPAR 2026 adds 320 profiles not in JASPAR 2024: vertebrates 147, plants 146, fungi 15, insects 11, nematodes 1." on the full release.
    const held = new Set(ROWS_2024.map((r) => r[0]));
    const added = TABLE.filter((r) => !held.has(r.matrix_id));
    const byGroup = new Map<string, number>();
    for (const r of added) byGroup.set(r.tax_group, (byGroup.get(r.tax_group) ?? 0) + 1);
    const groups = [...byGroup].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([g, n]) => `${g} ${n}`).join(', ');
    expect(home2026).toContain(`JASPAR 2026 adds ${added.length} profiles not in JASPAR 2024: ${groups}.`);
    expect(home2026).toContain('Not mirrored here: JASPAR 2026&#39;s UNVALIDATED and DL collections');
    const page = (await get('/api/v1/matrix/MA0139.1/?format=api')).text;
    expect(page).toContain('<strong>JASPAR 2024</strong>');
    expect(page).toContain('href=\'/releases/2026/\'>JASPAR 2026</a>');
  });
});
