// Reading a folder of JASPAR's own download files (generator/dataset/official/):
// detection by name and content, the merge of bundles, TRANSFAC exports, MEME
// files and the metadata table, and every diagnostic, on small folders cut at
// run time from the real files in data/ (records unchanged).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError, type Problem } from '../../generator/dataset/diagnostics.ts';
import { detect } from '../../generator/dataset/official/detect.ts';
import { readRelease, releaseFileFor } from '../../generator/dataset/read.ts';
import { loadRelease } from '../../generator/dataset/curated.ts';
import type { Release, ReleaseInfo } from '../../generator/dataset/types.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const SOURCES_2024 = path.join(PROJECT_ROOT, 'data/jaspar-2024/sources');
const DATA_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026');
const DATA_2024 = path.join(PROJECT_ROOT, 'data/jaspar-2024');
const INFO_2024: ReleaseInfo = { name: 'JASPAR 2024', year: 2024, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.genereg.net/matrix/{matrix_id}', number: 10, citation: '', license: '', collections: [], olderVersions: null };
const INFO_2026: ReleaseInfo = { name: 'JASPAR 2026', year: 2026, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.elixir.no/matrix/{matrix_id}', number: 11, citation: '', license: '', collections: [], olderVersions: null };

const REDUNDANT = 'JASPAR2024_CORE_redundant_pfms_jaspar.txt';
const INSECTS = 'JASPAR2024_CORE_insects_non-redundant_pfms_transfac.txt';
const VERTEBRATES = 'JASPAR2024_CORE_vertebrates_non-redundant_pfms_transfac.txt';
const PLANTS_JASPAR = 'JASPAR2026_CORE_plants_non-redundant_pfms_jaspar.txt';
const PLANTS_MEME = 'JASPAR2026_CORE_plants_non-redundant_pfms_meme.txt';
const TABLE = 'ultimate_metadata_table_CORE.tsv';
const VERTEBRATES_2026 = 'JASPAR2026_CORE_vertebrates_non-redundant_pfms_jaspar.txt';
const DIATOMS = 'JASPAR2026_CORE_diatoms_records_extract.txt';

// ---------------------------------------------------------------- fixtures

const read = (file: string) => readFileSync(file, 'utf8');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-official-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** The records of the given ids, unchanged, from a jaspar bundle (5 lines each). */
function cutJaspar(file: string, ids: string[]): string {
  const lines = read(file).split('\n');
  return ids.map((id) => {
    const i = lines.findIndex((l) => l.startsWith(`>${id}\t`));
    if (i < 0) throw new Error(`${id} not in ${file}`);
    return `${lines.slice(i, i + 5).join('\n')}\n`;
  }).join('');
}
/** The records of the given ids, unchanged, from a TRANSFAC export (AC … //). */
function cutTransfac(file: string, ids: string[]): string {
  const records = read(file).split(/(?<=^\/\/\n)/m);
  return ids.map((id) => {
    const r = records.find((x) => x.startsWith(`AC ${id}\n`));
    if (!r) throw new Error(`${id} not in ${file}`);
    return r;
  }).join('');
}
/** The MEME header and the motifs of the given ids, unchanged. */
function cutMeme(file: string, ids: string[]): string {
  const text = read(file);
  const [header, ...motifs] = text.split(/(?=^MOTIF )/m);
  return header + ids.map((id) => {
    const m = motifs.find((x) => x.startsWith(`MOTIF ${id} `));
    if (!m) throw new Error(`${id} not in ${file}`);
    return m;
  }).join('');
}
/** The header and the rows of the given ids from the metadata table. */
function cutTable(file: string, ids: string[]): string {
  const lines = read(file).split('\n');
  return `${[lines[0], ...ids.map((id) => lines.find((l) => l.split('\t')[2] === id)!)].join('\n')}\n`;
}
/** 1-based line of the first line starting with `start` in a text. */
function lineOf(text: string, start: string): number {
  const i = text.split('\n').findIndex((l) => l.startsWith(start));
  if (i < 0) throw new Error(`no line starting with ${start}`);
  return i + 1;
}

interface Found extends Problem {
  rel: string;
}
function problemsOf(dir: string, info = INFO_2024): Found[] {
  let release: Release | undefined;
  try {
    release = readRelease(dir, info).release;
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as DatasetError).problems.map((p) => ({ ...p, rel: path.relative(dir, path.resolve(p.file)).split(path.sep).join('/') }));
  }
  throw new Error(`readRelease accepted the folder (${release.matrices.length} matrices)`);
}
const problem = (file: string, line: number, message: RegExp) =>
  expect.objectContaining({ rel: file, line, message: expect.stringMatching(message), fix: expect.stringMatching(/\S/) });

// A small 2024 folder: MA0004.1 (vertebrates, whole counts) and MA2188.1
// (insects, full-precision TRANSFAC counts that the jaspar bundle rounds).
function small2024(extra: Record<string, string> = {}): string {
  return folder({
    [REDUNDANT]: cutJaspar(path.join(SOURCES_2024, REDUNDANT), ['MA0004.1', 'MA2188.1']),
    [VERTEBRATES]: cutTransfac(path.join(SOURCES_2024, VERTEBRATES), ['MA0004.1']),
    [INSECTS]: cutTransfac(path.join(SOURCES_2024, INSECTS), ['MA2188.1']),
    ...extra,
  });
}
// A small 2026 folder: MA0021.1 (whole counts) and MA1732.1 (its MEME record
// printed from full-precision counts that the jaspar bundle rounds).
function small2026(extra: Record<string, string> = {}): string {
  return folder({
    [PLANTS_JASPAR]: cutJaspar(path.join(DATA_2026, PLANTS_JASPAR), ['MA0021.1', 'MA1732.1']),
    [PLANTS_MEME]: cutMeme(path.join(DATA_2026, PLANTS_MEME), ['MA0021.1', 'MA1732.1']),
    [TABLE]: cutTable(path.join(DATA_2026, TABLE), ['MA0021.1', 'MA1732.1', 'MA0001.1']),
    ...extra,
  });
}

// ---------------------------------------------------------------- detection

describe('detect: JASPAR download files by name and content', () => {
  it('sorts the official 2024 sources into bundles and files that are not JASPAR\'s', () => {
    const found = detect(SOURCES_2024);
    expect(found.bundles.map((b) => [b.name, b.kind, b.year, b.collection, b.taxGroup, b.redundant])).toEqual([
      ['JASPAR2022_UNVALIDATED_non-redundant_pfms_jaspar.txt', 'jaspar', 2022, 'UNVALIDATED', null, false],
      ['JASPAR2024_CORE_fungi_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'fungi', false],
      ['JASPAR2024_CORE_insects_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'insects', false],
      ['JASPAR2024_CORE_nematodes_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'nematodes', false],
      ['JASPAR2024_CORE_plants_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'plants', false],
      ['JASPAR2024_CORE_redundant_pfms_jaspar.txt', 'jaspar', 2024, 'CORE', null, true],
      ['JASPAR2024_CORE_urochordates_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'urochordates', false],
      ['JASPAR2024_CORE_vertebrates_non-redundant_pfms_transfac.txt', 'transfac', 2024, 'CORE', 'vertebrates', false],
      ['JASPAR2024_UNVALIDATED_non-redundant_pfms_jaspar.txt', 'jaspar', 2024, 'UNVALIDATED', null, false],
    ]);
    expect(found.ignored).toEqual(['motifdb_jaspar2018_api_metadata.csv', 'motifdb_jaspar2022_api_metadata.csv', 'species_taxid_map.csv']);
    expect(found.metadata).toEqual([]);
    expect(found.refused).toEqual([]);
  });

  it('knows the metadata table by its header, the 2026 bundles by name, and the diatoms records extract by its name', () => {
    const found = detect(DATA_2026);
    expect(found.bundles.map((b) => [b.kind, b.year, b.collection, b.taxGroup, b.extract])).toEqual([
      ['jaspar', 2026, 'CORE', 'diatoms', true],
      ...['fungi', 'insects', 'nematodes'].map((t) => ['jaspar', 2026, 'CORE', t, false]),
      ['jaspar', 2026, 'CORE', 'plants', false], ['meme', 2026, 'CORE', 'plants', false],
      ...['urochordates', 'vertebrates'].map((t) => ['jaspar', 2026, 'CORE', t, false]),
    ]);
    expect(found.metadata.map((m) => m.name)).toEqual([TABLE]);
    expect(found.ignored).toEqual(['README.md']);
    // JASPAR also publishes the table as JASPAR2026_CORE_metadata.tsv.
    const dir = small2026({ 'JASPAR2026_CORE_metadata.tsv': read(path.join(DATA_2026, TABLE)).split('\n').slice(0, 3).join('\n') });
    expect(detect(dir).metadata.map((m) => m.name)).toEqual(['JASPAR2026_CORE_metadata.tsv', TABLE]);
  });

  it('a folder with matrices.csv stays a curated release; otherwise the release file follows the files\' year', () => {
    const fallback = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
    expect(releaseFileFor(path.join(PROJECT_ROOT, 'data/jaspar-2024'), undefined, fallback)).toBe(fallback);
    expect(releaseFileFor(SOURCES_2024, undefined, fallback)).toBe(fallback);
    expect(releaseFileFor(DATA_2026, undefined, fallback)).toBe(path.join(PROJECT_ROOT, 'data/release-2026.yaml'));
    expect(releaseFileFor(DATA_2026, '/x/given.yaml', fallback)).toBe('/x/given.yaml');
    const dir = folder({ 'JASPAR2030_CORE_redundant_pfms_jaspar.txt': cutJaspar(path.join(SOURCES_2024, REDUNDANT), ['MA0004.1']) });
    expect(() => releaseFileFor(dir, undefined, fallback)).toThrow(/JASPAR 2030, and .*release-2030\.yaml does not exist/);
  });

  it('a folder laid out as data/ (release folders beside their descriptions) uses its own release-<year>.yaml', () => {
    const fallback = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
    const root = folder({
      [`jaspar-2026/${PLANTS_JASPAR}`]: cutJaspar(path.join(DATA_2026, PLANTS_JASPAR), ['MA0021.1']),
      [`jaspar-2026/${TABLE}`]: cutTable(path.join(DATA_2026, TABLE), ['MA0021.1']),
    });
    const data = path.join(root, 'jaspar-2026');
    // Without one beside it, the project's.
    expect(releaseFileFor(data, undefined, fallback)).toBe(path.join(PROJECT_ROOT, 'data/release-2026.yaml'));
    writeFileSync(path.join(root, 'release-2026.yaml'), read(path.join(PROJECT_ROOT, 'data/release-2026.yaml')));
    expect(releaseFileFor(data, undefined, fallback)).toBe(path.join(root, 'release-2026.yaml'));
    expect(releaseFileFor(data, '/x/given.yaml', fallback)).toBe('/x/given.yaml');
  });
});

// ---------------------------------------------------------------- merging

describe('readRelease merges JASPAR\'s files into one release', () => {
  it('takes full-precision TRANSFAC counts over the rounded jaspar ones, and the CC annotations', () => {
    const { release, notes } = readRelease(small2024(), INFO_2024);
    expect(notes).toEqual([]);
    expect(release.matrices.map((m) => m.matrixId)).toEqual(['MA0004.1', 'MA2188.1']);
    const [arnt, acj6] = release.matrices;
    expect(arnt).toMatchObject({
      name: 'Arnt', collection: 'CORE', taxGroup: 'vertebrates', tfClass: ['Basic helix-loop-helix factors (bHLH)'], tfFamily: ['PAS domain factors'],
      dataType: 'SELEX', uniprotIds: ['P53762'], pubmedIds: ['7592839'], species: [], sites: null, row: 0,
    });
    expect(arnt.pfm.A).toEqual([4, 19, 0, 0, 0, 0]);
    expect(acj6.pfm.A[0]).toBe(155.639431616341);
    expect(acj6.taxGroup).toBe('insects');
  });

  it('fills species, source and comment from the metadata table, and accepts MEME probabilities of the unrounded counts', () => {
    const { release, notes } = readRelease(small2026(), INFO_2026);
    expect(release.matrices.map((m) => m.matrixId)).toEqual(['MA0021.1', 'MA1732.1']);
    expect(release.matrices[0]).toMatchObject({
      name: 'Dof3', collection: 'CORE', taxGroup: 'plants', species: [{ taxId: 4577, name: 'Zea mays' }], uniprotIds: ['Q41801'], pubmedIds: ['10074718'], dataType: 'SELEX',
    });
    expect(notes).toEqual([`${path.relative(process.cwd(), path.join(made[0], TABLE))}: 2 of 3 matrices described have counts in the files; the other 1 are not mirrored`]);
  });

  it('older releases\' bundles give older versions only', () => {
    const unvalidated = 'JASPAR2024_UNVALIDATED_non-redundant_pfms_jaspar.txt';
    const old = 'JASPAR2022_UNVALIDATED_non-redundant_pfms_jaspar.txt';
    // UN0083: v2 in 2024, v1 in 2022. UN0001 is gone in 2024.
    const dir = folder({
      [unvalidated]: cutJaspar(path.join(SOURCES_2024, unvalidated), ['UN0083.2']),
      [old]: cutJaspar(path.join(SOURCES_2024, old), ['UN0001.1', 'UN0083.1']),
    });
    const { release, notes } = readRelease(dir, INFO_2024);
    expect(release.matrices.map((m) => [m.matrixId, m.collection])).toEqual([['UN0083.1', 'UNVALIDATED'], ['UN0083.2', 'UNVALIDATED']]);
    expect(notes[0]).toMatch(/^JASPAR2022_UNVALIDATED.*: 1 older versions used, 0 ids left to the 2024 files, 1 left out \(base ids the 2024 files do not hold/);
  });

  it('reads JASPAR 2018\'s six official CORE bundles (jaspar, MEME, TRANSFAC; redundant and not), which agree record for record', () => {
    const dir = path.join(PROJECT_ROOT, 'test/golden/jaspar-2018/CORE');
    const { release, notes } = readRelease(dir, { ...INFO_2024, name: 'JASPAR 2018', year: 2018 });
    expect(notes).toEqual([]);
    // As many as the redundant jaspar bundle has records.
    expect(release.matrices).toHaveLength(read(path.join(dir, 'JASPAR2018_CORE_redundant_pfms_jaspar.txt')).split('\n').filter((l) => l.startsWith('>')).length);
    expect(release.matrices.every((m) => m.collection === 'CORE' && m.taxGroup === '')).toBe(true);
  });
});

// ---------------------------------------------------------------- diagnostics

describe('readRelease reports every problem of the files, as file:line with a fix', () => {
  it('counts that differ between two files, beyond rounding, are a conflict', () => {
    const transfac = cutTransfac(path.join(SOURCES_2024, VERTEBRATES), ['MA0004.1']).replace('01\t4.0\t16.0', '01\t5.0\t16.0');
    const dir = small2024({ [VERTEBRATES]: transfac });
    expect(problemsOf(dir)).toEqual([problem(VERTEBRATES, 1, /MA0004\.1: A column 1 is 5, which rounds to 5, where the jaspar record says 4 \(.*JASPAR2024_CORE_redundant_pfms_jaspar\.txt:1\)/)]);
  });

  it('two jaspar bundles with other counts for one matrix are a conflict', () => {
    const taxon = 'JASPAR2024_CORE_vertebrates_non-redundant_pfms_jaspar.txt';
    const record = cutJaspar(path.join(SOURCES_2024, REDUNDANT), ['MA0004.1']).replace('A  [     4', 'A  [     3');
    expect(problemsOf(small2024({ [taxon]: record }))).toEqual([problem(taxon, 1, /MA0004\.1 has other counts here than in .*redundant_pfms_jaspar\.txt:1/)]);
  });

  it('names that differ between files are a conflict', () => {
    const transfac = cutTransfac(path.join(SOURCES_2024, INSECTS), ['MA2188.1']).replace('ID acj6', 'ID Acj6').replace('DE MA2188.1 acj6', 'DE MA2188.1 Acj6');
    expect(problemsOf(small2024({ [INSECTS]: transfac }))).toEqual([problem(INSECTS, 1, /MA2188\.1 is named "Acj6" here but "acj6" in/)]);
  });

  it('a metadata table that disagrees with the files is a conflict; so is a MEME record of other counts', () => {
    const table = cutTable(path.join(DATA_2026, TABLE), ['MA0021.1', 'MA1732.1']).replace('CORE\tplants\tMA0021.1', 'CORE\tfungi\tMA0021.1');
    const meme = cutMeme(path.join(DATA_2026, PLANTS_MEME), ['MA0021.1', 'MA1732.1']);
    const changed = meme.replace(' 0.207650  0.009107  0.245902  0.537341', ' 0.217650  0.009107  0.235902  0.537341');
    expect(changed).not.toBe(meme);
    expect(problemsOf(small2026({ [TABLE]: table, [PLANTS_MEME]: changed }), INFO_2026)).toEqual([
      problem(TABLE, 2, /tax_group of MA0021\.1 is "fungi" here but "plants" in .*plants_non-redundant_pfms_jaspar\.txt:1/),
      problem(PLANTS_MEME, lineOf(changed, ' 0.217650'), /MA1732\.1: column 1 is 0\.217650 .* where the counts give 0\.208000/),
    ]);
  });

  it('malformed records in each format are reported on their line, all at once', () => {
    const jaspar = cutJaspar(path.join(SOURCES_2024, REDUNDANT), ['MA0004.1', 'MA2188.1']).replace('A  [     4', 'A  [     4x');
    const transfac = cutTransfac(path.join(SOURCES_2024, INSECTS), ['MA2188.1']).replace(/\/\/\n$/, '');
    const table = `${cutTable(path.join(DATA_2026, TABLE), ['MA0021.1'])}CORE\tplants\tMA0053.1\n`;
    const dir = small2024({ [REDUNDANT]: jaspar, [INSECTS]: transfac });
    expect(problemsOf(dir)).toEqual([
      problem(INSECTS, transfac.split('\n').length - 1, /the last record MA2188\.1 is not ended by "\/\/"/),
      problem(REDUNDANT, 2, /column 1 of A in MA0004\.1: "4x" is not a number/),
    ]);
    const dir2026 = small2026({ [TABLE]: table });
    expect(problemsOf(dir2026, INFO_2026)).toEqual([problem(TABLE, 3, /3 fields where the header has 15/)]);
  });

  it('the curated loader\'s rules hold: ids, control characters, identifiers', () => {
    const jaspar = cutJaspar(path.join(DATA_2026, PLANTS_JASPAR), ['MA0021.1', 'MA1732.1']);
    const table = cutTable(path.join(DATA_2026, TABLE), ['MA0021.1', 'MA1732.1']).replace('SELEX\t4577', 'SEL\u202eEX\t4577');
    const bad = jaspar.replace('>MA1732.1\t', '>ma1732.1\t');
    const dir = small2026({ [PLANTS_JASPAR]: bad, [PLANTS_MEME]: cutMeme(path.join(DATA_2026, PLANTS_MEME), ['MA0021.1']), [TABLE]: table });
    expect(problemsOf(dir, INFO_2026)).toEqual([
      problem(TABLE, 2, /data_type of MA0021\.1 contains a control character, U\+202E/),
      problem(PLANTS_JASPAR, 6, /matrix_id "ma1732\.1" is not <base_id>\.<version>/),
    ]);
  });

  it('files that are not what their name says, matrices under another name, MEME without counts', () => {
    const record = cutJaspar(path.join(SOURCES_2024, REDUNDANT), ['MA0004.1']);
    const dir = small2024({
      'JASPAR2024_CORE_fungi_non-redundant_pfms_transfac.txt': record,
      'my_matrices.txt': record,
      'JASPAR2024_CORE_vertebrates_non-redundant_pfms_meme.txt': cutMeme(path.join(DATA_2026, PLANTS_MEME), ['MA0021.1']),
      'notes.md': 'not a JASPAR file\n',
      'sites/MA0005.1.bed': 'chr1\t1\t2\n',
    });
    expect(problemsOf(dir)).toEqual([
      problem('JASPAR2024_CORE_fungi_non-redundant_pfms_transfac.txt', 1, /named like a JASPAR TRANSFAC export but it holds a jaspar bundle/),
      problem('my_matrices.txt', 1, /holds a jaspar bundle but its name is not JASPAR's/),
      problem('JASPAR2024_CORE_vertebrates_non-redundant_pfms_meme.txt', 10, /MA0021\.1 is only in a MEME file, which gives probabilities, not counts/),
      problem('sites/MA0005.1.bed', 1, /sites file MA0005\.1\.bed is for a matrix the files do not hold/),
    ]);
  });

  it('BED files of the matrices are read with the curated rules; other files are named in the notes', () => {
    const dir = small2024({ 'bed/MA0004.1.bed': 'chr1\t10\t20\tsite\t.\t+\n', 'README.md': '# notes\n' });
    const { release, notes } = readRelease(dir, INFO_2024);
    expect(release.matrices[0].sites).toBe('chr1\t10\t20\tsite\t.\t+\n');
    expect(notes).toEqual(['not JASPAR download files, ignored: README.md']);
    const bad = small2024({ 'MA0004.1.bed': 'chr1\t20\t10\n' });
    expect(problemsOf(bad)).toEqual([problem('MA0004.1.bed', 1, /start 20 is after end 10/)]);
  });

  it('older versions come from the older release; a version both hold with other counts is a problem naming both files; names are the newer files\'', () => {
    const dir2024 = makeRelease(['MA0004.1', 'MA0002.2', 'MA1972.1']);
    made.push(dir2024);
    const info = { ...INFO_2026, olderVersions: dir2024 };
    const bundle = cutJaspar(path.join(DATA_2026, VERTEBRATES_2026), ['MA0004.1', 'MA1972.1']);
    const table = cutTable(path.join(DATA_2026, TABLE), ['MA0004.1', 'MA1972.1', 'MA0002.2']);
    // A 2026 curation change of a name: the 2026 files decide (2024 says Arnt).
    const renamed = (t: string) => t.replace('>MA0004.1\tArnt', '>MA0004.1\tARNT').replace('\tMA0004.1\tMA0004\t1\tArnt\t', '\tMA0004.1\tMA0004\t1\tARNT\t');
    const { release, notes } = readRelease(folder({ [VERTEBRATES_2026]: renamed(bundle), [TABLE]: renamed(table) }), info);
    const curated = new Map(loadRelease(dir2024, INFO_2024).matrices.map((m) => [m.matrixId, m]));
    expect(release.matrices.map((m) => [m.matrixId, m.name])).toEqual([['MA0002.2', 'Runx1'], ['MA0004.1', 'ARNT'], ['MA1972.1', 'ZFP14']]);
    expect(release.matrices.map((m) => m.pfm)).toEqual(['MA0002.2', 'MA0004.1', 'MA1972.1'].map((id) => curated.get(id)!.pfm));
    expect(release.matrices[2].pfm.A[0]).toBe(137.739);
    const shown = path.relative(process.cwd(), dir2024);
    expect(notes.slice(0, 2)).toEqual([
      `${shown}: counts of 1 older versions the 2026 table lists and no 2026 bundle holds; 2 versions both hold checked (the same counts); 0 of its matrices are not in the 2026 table and are left out`,
      `counts: 2 from the 2026 bundles (1 of them with ${shown}'s full-precision counts, which round to the bundles' whole numbers), 1 from ${shown}`,
    ]);

    // Other counts: at the 2026 record, naming the 2024 file (matrices/<id>.jaspar, or pfm_noninteger.json at the id's line).
    const changed = bundle.replace('A  [     4     19', 'A  [     5     19').replace('A  [   138    119', 'A  [   139    119');
    const jsonLine = read(path.join(dir2024, 'pfm_noninteger.json')).split('\n').findIndex((l) => l.includes('"MA1972.1"')) + 1;
    const found = problemsOf(folder({ [VERTEBRATES_2026]: changed, [TABLE]: table }), info);
    expect(found).toEqual([
      problem(VERTEBRATES_2026, 1, new RegExp(`^MA0004\\.1 has other counts here than in ${shown}/matrices/MA0004\\.1\\.jaspar:1 \\(there: A column 1 is 4, which rounds to 4, where the jaspar record says 5\\)$`)),
      problem(VERTEBRATES_2026, 6, new RegExp(`^MA1972\\.1 has other counts here than in ${shown}/pfm_noninteger\\.json:${jsonLine} \\(there: A column 1 is 137\\.739, which rounds to 138`)),
    ]);
  });

  it('older_versions is for JASPAR\'s download files: a curated release holds every version itself', () => {
    expect(() => readRelease(DATA_2024, { ...INFO_2024, olderVersions: DATA_2024 })).toThrow(/names older_versions .*but this folder is a curated release \(matrices\.csv\)/);
  });

  it('a records extract must hold jaspar records', () => {
    const dir = small2026({ 'JASPAR2026_CORE_diatoms_records_extract.txt': cutMeme(path.join(DATA_2026, PLANTS_MEME), ['MA0021.1']) });
    expect(problemsOf(dir, INFO_2026)).toEqual([problem('JASPAR2026_CORE_diatoms_records_extract.txt', 1, /named like records cut from a JASPAR jaspar bundle but it holds a MEME bundle/)]);
    const ok = small2026({ [DIATOMS]: read(path.join(DATA_2026, DIATOMS)), [TABLE]: cutTable(path.join(DATA_2026, TABLE), ['MA0021.1', 'MA1732.1', 'MA1407.2']) });
    expect(readRelease(ok, INFO_2026).release.matrices.find((m) => m.matrixId === 'MA1407.2')).toMatchObject({ name: 'bZIP14', taxGroup: 'diatoms', collection: 'CORE' });
  });

  it('a release description of another year is refused', () => {
    expect(problemsOf(small2026(), INFO_2024)).toEqual([problem(PLANTS_JASPAR, 1, /the files are JASPAR 2026 but the release description says 2024/)]);
  });
});
