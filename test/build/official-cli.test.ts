// The CLI builds a mirror from a folder of JASPAR's own download files, as a
// mirror operator runs it: JASPAR 2026 (data/jaspar-2026: every CORE bundle,
// the plants MEME bundle, the CORE metadata table, the diatoms records
// extract) with no --release (the files' year picks data/release-2026.yaml,
// whose older_versions gives the older versions' counts from
// data/jaspar-2024). A folder with a conflict stops the build before
// anything is written.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';
import { buildOk, runCli, type Ran } from '../support/run.ts';

const DATA_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026');
const BUNDLE = 'JASPAR2026_CORE_plants_non-redundant_pfms_jaspar.txt';
const BASE = 'http://localhost:8080';

/** A short run (one that stops at the dataset). */
const cli = (args: string[]): Promise<Ran> => runCli(args, { timeout: 120_000 });
/** jaspar bundle → record text by id. */
const records = (text: string) => new Map(text.split(/(?=^>)/m).map((r) => [r.slice(1, r.indexOf('\t')), r]));

describe('a build from JASPAR 2026 download files', () => {
  let root: string;
  let out: string;
  let run: { stdout: string; stderr: string };
  const json = (rel: string) => JSON.parse(readFileSync(path.join(out, rel), 'utf8'));

  // A full build (1-4 minutes on 2 shared cores): asynchronous, so that the test worker stays responsive.
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-official-cli-'));
    out = path.join(root, 'public');
    run = await buildOk(['--data', DATA_2026, '--out', out, '--base-url', BASE]);
  }, 600_000);
  afterAll(() => rm(root, { recursive: true, force: true }), 120_000);

  it('builds the 4,572 CORE matrices and says where their counts came from', () => {
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^note: counts: 2,633 from the 2026 bundles \(93 of them with data\/jaspar-2024's full-precision counts, which round to the bundles' whole numbers\), 1,939 from data\/jaspar-2024$/m);
    expect(run.stdout).toMatch(/^note: .*ultimate_metadata_table_CORE\.tsv: 4572 of 4572 matrices described have counts in the files or data\/jaspar-2024; the other 0 are not mirrored$/m);
    expect(run.stdout).toMatch(/^note: not JASPAR download files, ignored: README\.md$/m);
    expect(run.stdout).toMatch(/^built 4572 matrices, 458 list pages/m);
  });

  it('serves the release as JASPAR 2026, with each matrix\'s counts and metadata', () => {
    expect(json('api/v1/matrix/page/1/index.json').count).toBe(4572);
    expect(json('api/v1/matrix/MA0021.1/index.json')).toMatchObject({
      matrix_id: 'MA0021.1', name: 'Dof3', collection: 'CORE', tax_group: 'plants', type: 'SELEX', uniprot_ids: ['Q41801'], pubmed_ids: ['10074718'],
      species: [{ tax_id: 4577, name: 'Zea mays' }], class: ['Other C4 zinc finger-type factors'], family: ['DOF'],
      pfm: { A: [21, 21, 21, 0, 0, 6], C: [0, 0, 0, 0, 10, 6], G: [0, 0, 0, 21, 3, 9], T: [0, 0, 0, 0, 8, 0] },
    });
    expect(readFileSync(path.join(out, 'api/v1/matrix/MA0021.1/index.meme.txt'), 'utf8')).toContain('URL http://jaspar.elixir.no/matrix/MA0021.1\n');
    expect(json('api/v1/taxon/index.json').results.map((t: { name: string }) => t.name)).toEqual(['diatoms', 'fungi', 'insects', 'nematodes', 'plants', 'urochordates', 'vertebrates']);
    // New in 2026, in every format; its jaspar file is the 2026 bundle's record.
    const vertebrates = records(readFileSync(path.join(DATA_2026, 'JASPAR2026_CORE_vertebrates_non-redundant_pfms_jaspar.txt'), 'utf8'));
    expect(readFileSync(path.join(out, 'api/v1/matrix/MA2593.1/index.jaspar.txt'), 'utf8')).toBe(vertebrates.get('MA2593.1'));
    const files = readdirSync(path.join(out, 'api/v1/matrix/MA2593.1'));
    for (const ext of ['json', 'jaspar.txt', 'meme.txt', 'transfac.txt', 'pfm.txt', 'yaml', 'html']) expect(files).toContain(`index.${ext}`);
    // An older version: 2024's counts, 2026's annotations (MA0089.1 is MAFG::NFE2L1 in 2024).
    expect(json('api/v1/matrix/MA0089.1/index.json')).toMatchObject({ name: 'MAFG::NRF1', collection: 'CORE' });
  });

  it('lists every JASPAR release, 1 to 11, and says what the 2026 mirror holds', () => {
    const list = json('api/v1/releases/page_size/1000/page/1/index.json');
    expect(list.results.map((r: { release_number: number; year: number }) => [r.release_number, r.year])).toEqual(
      [2004, 2006, 2008, 2010, 2014, 2016, 2018, 2020, 2022, 2024, 2026].map((year, i) => [i + 1, year]));
    const r2026 = json('api/v1/releases/2026/index.json');
    expect(r2026).toMatchObject({
      release_number: 11, year: 2026, name: 'JASPAR 2026', mirrored: true, matrices: 4572, doi: '10.1093/nar/gkaf1209', pubmed_id: '41325984',
      collections: { CORE: 'mirrored', UNVALIDATED: 'not published', DL: 'not published' }, matrix_url: `${BASE}/api/v1/matrix/`,
    });
    expect(r2026.citation).toMatch(/^Ovek Baydar D, et al\. JASPAR 2026: .*D184-D193\. doi:10\.1093\/nar\/gkaf1209$/);
    expect(json('api/v1/releases/11/index.json')).toEqual(r2026);
    // A release the site does not hold answers with its paper, and no matrices (rbioapi's rba_jaspar_releases(8)).
    expect(json('api/v1/releases/8/index.json')).toMatchObject({ release_number: 8, year: 2020, mirrored: false, matrices: null, matrix_url: null, doi: '10.1093/nar/gkz1001' });
  });

  it('writes JASPAR\'s bundles back record for record, byte for byte (the diatoms one whole)', () => {
    for (const taxon of ['fungi', 'insects', 'nematodes', 'plants', 'urochordates', 'vertebrates']) {
      const name = `JASPAR2026_CORE_${taxon}_non-redundant_pfms_jaspar.txt`;
      const ours = records(readFileSync(path.join(out, 'download/data/2026/CORE', name), 'utf8'));
      const theirs = records(readFileSync(path.join(DATA_2026, name), 'utf8'));
      expect(ours.size, taxon).toBe(theirs.size);
      expect(ours, taxon).toEqual(theirs);
    }
    expect(readFileSync(path.join(out, 'download/data/2026/CORE/JASPAR2026_CORE_diatoms_non-redundant_pfms_jaspar.txt'), 'utf8'))
      .toBe(readFileSync(path.join(DATA_2026, 'JASPAR2026_CORE_diatoms_records_extract.txt'), 'utf8'));
  });

  it('refuses to write the site inside the release folder the older versions come from', async () => {
    const inside = path.join(PROJECT_ROOT, 'data/jaspar-2024/site');
    const r = await cli(['--data', DATA_2026, '--out', inside, '--base-url', BASE]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--out .*data\/jaspar-2024\/site: is inside the release folder the older versions come from \(.*data\/jaspar-2024\) \(fix: /);
    expect(existsSync(inside)).toBe(false);
  });

  it('a conflict between two files stops the build with file:line, and nothing is written', async () => {
    const bad = path.join(root, 'bad');
    const bundle = readFileSync(path.join(DATA_2026, BUNDLE), 'utf8');
    const table = readFileSync(path.join(DATA_2026, 'ultimate_metadata_table_CORE.tsv'), 'utf8');
    // The metadata table names MA0021.1 otherwise than the bundle.
    const folder = path.join(root, 'bad-data');
    mkdirSync(folder);
    writeFileSync(path.join(folder, BUNDLE), bundle);
    writeFileSync(path.join(folder, 'ultimate_metadata_table_CORE.tsv'), table.replace('\tMA0021.1\tMA0021\t1\tDof3\t', '\tMA0021.1\tMA0021\t1\tDOF3\t'));
    const r = await cli(['--data', folder, '--out', bad, '--base-url', BASE]);
    expect(r.status).toBe(1);
    const line = table.split('\n').findIndex((l) => l.includes('\tMA0021.1\t')) + 1;
    expect(r.stderr).toContain(`ultimate_metadata_table_CORE.tsv:${line}: MA0021.1 is named "DOF3" here but "Dof3" in `);
    expect(r.stderr).toMatch(/\(fix: .+\)/);
    expect(existsSync(bad)).toBe(false);
  });
});
