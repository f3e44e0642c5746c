// The CLI builds a mirror from a folder of JASPAR's own download files, as a
// mirror operator runs it: the JASPAR 2026 partial files (plants bundles in
// jaspar and MEME format, the CORE metadata table) with no --release (the
// files' year picks data/release-2026.yaml). A folder with a conflict stops
// the build before anything is written.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';
import { buildOk, runCli, type Ran } from '../support/run.ts';

const PARTIAL_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026-partial');
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

  // A full build (about a minute on 2 cores): asynchronous, so that the test worker stays responsive.
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-official-cli-'));
    out = path.join(root, 'public');
    run = await buildOk(['--data', PARTIAL_2026, '--out', out, '--base-url', BASE]);
  }, 300_000);
  afterAll(() => rm(root, { recursive: true, force: true }), 120_000);

  it('builds 927 matrices and says which files it used in part or ignored', () => {
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^note: .*ultimate_metadata_table_CORE\.tsv: 927 of 4572 matrices described have counts in the files; the other 3645 are not mirrored$/m);
    expect(run.stdout).toMatch(/^note: not JASPAR download files, ignored: README\.md$/m);
    expect(run.stdout).toMatch(/^built 927 matrices, 93 list pages/m);
  });

  it('serves the release as JASPAR 2026, with each matrix\'s counts and metadata', () => {
    expect(json('api/v1/releases/index.json').results).toEqual([expect.objectContaining({ year: 2026, name: 'JASPAR 2026', matrices: 927 })]);
    expect(json('api/v1/matrix/page/1/index.json').count).toBe(927);
    expect(json('api/v1/matrix/MA0021.1/index.json')).toMatchObject({
      matrix_id: 'MA0021.1', name: 'Dof3', collection: 'CORE', tax_group: 'plants', type: 'SELEX', uniprot_ids: ['Q41801'], pubmed_ids: ['10074718'],
      species: [{ tax_id: 4577, name: 'Zea mays' }], class: ['Other C4 zinc finger-type factors'], family: ['DOF'],
      pfm: { A: [21, 21, 21, 0, 0, 6], C: [0, 0, 0, 0, 10, 6], G: [0, 0, 0, 21, 3, 9], T: [0, 0, 0, 0, 8, 0] },
    });
    expect(readFileSync(path.join(out, 'api/v1/matrix/MA0021.1/index.meme.txt'), 'utf8')).toContain('URL http://jaspar.elixir.no/matrix/MA0021.1\n');
    expect(json('api/v1/taxon/index.json').results.map((t: { name: string }) => t.name)).toEqual(['plants']);
  });

  it('writes JASPAR\'s plants bundle back record for record, byte for byte', () => {
    const ours = records(readFileSync(path.join(out, 'download/data/2026/CORE', BUNDLE), 'utf8'));
    const theirs = records(readFileSync(path.join(PARTIAL_2026, BUNDLE), 'utf8'));
    expect(ours.size).toBe(927);
    expect(ours).toEqual(theirs);
  });

  it('a conflict between two files stops the build with file:line, and nothing is written', async () => {
    const bad = path.join(root, 'bad');
    const bundle = readFileSync(path.join(PARTIAL_2026, BUNDLE), 'utf8');
    const table = readFileSync(path.join(PARTIAL_2026, 'ultimate_metadata_table_CORE.tsv'), 'utf8');
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
