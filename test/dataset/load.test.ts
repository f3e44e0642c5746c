// The loader against a small real release (test/support/fixtures.ts) that
// each case corrupts in one way: every problem must come back in one
// DatasetError, as file:line, what is wrong, and a fix.
import { appendFileSync, copyFileSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError, type Problem } from '../../generator/dataset/diagnostics.ts';
import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, loadRelease, plainCsv } from '../../generator/dataset/curated.ts';
import type { Release, ReleaseInfo } from '../../generator/dataset/types.ts';
import { FIXTURE_IDS, makeRelease } from '../support/fixtures.ts';

const INFO: ReleaseInfo = { name: 'JASPAR 2024', year: 2024, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.genereg.net/matrix/{matrix_id}', number: 10, citation: '', license: '', collections: [], olderVersions: null };

// ---------------------------------------------------------------- helpers

const made: string[] = [];
function fixture(ids?: string[]): string {
  const dir = makeRelease(ids);
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A problem with its file relative to the release folder. */
interface Found extends Problem {
  rel: string;
}

function problemsOf(dir: string): Found[] {
  let release: Release | undefined;
  try {
    release = loadRelease(dir, INFO);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    const problems = (error as DatasetError).problems;
    expect(problems.length).toBeGreaterThan(0);
    return problems.map((p) => ({ ...p, rel: path.relative(dir, path.resolve(p.file)).split(path.sep).join('/') }));
  }
  throw new Error(`loadRelease accepted the dataset (${release.matrices.length} matrices)`);
}

const csvPath = (dir: string) => path.join(dir, 'matrices.csv');
const jasparPath = (dir: string, id: string) => path.join(dir, 'matrices', `${id}.jaspar`);
const bedPath = (dir: string, id: string) => path.join(dir, 'sites', `${id}.bed`);
const jsonPath = (dir: string) => path.join(dir, 'pfm_noninteger.json');

const read = (file: string) => readFileSync(file, 'utf8');
const csvLines = (dir: string) => read(csvPath(dir)).split('\n');
const writeCsvLines = (dir: string, lines: string[]) => writeFileSync(csvPath(dir), lines.join('\n'));
/** 1-based line of the row of a matrix in matrices.csv (the fixture has no multi-line rows). */
function lineOf(dir: string, id: string): number {
  const i = csvLines(dir).findIndex((l) => l.startsWith(`${id},`));
  if (i < 0) throw new Error(`no row for ${id}`);
  return i + 1;
}
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** Rewrites one row's fields (the fixture rows are unquoted, so a plain split is exact). */
function editRow(dir: string, id: string, edit: (fields: string[]) => string[]): number {
  const lines = csvLines(dir);
  const i = lineOf(dir, id) - 1;
  lines[i] = edit(lines[i].split(',')).map(quote).join(',');
  writeCsvLines(dir, lines);
  return i + 1;
}
function setField(dir: string, id: string, column: (typeof CSV_COLUMNS)[number], value: string): number {
  const col = CSV_COLUMNS.indexOf(column);
  return editRow(dir, id, (f) => f.map((v, i) => (i === col ? value : v)));
}
/** Rewrites one line (1-based) of a .jaspar file. */
function editJaspar(dir: string, id: string, lineNo: number, edit: (line: string) => string): void {
  const lines = read(jasparPath(dir, id)).split('\n');
  lines[lineNo - 1] = edit(lines[lineNo - 1]);
  writeFileSync(jasparPath(dir, id), lines.join('\n'));
}
/** Replaces the column-th (1-based) count of a base row. */
function setCount(dir: string, id: string, base: 'A' | 'C' | 'G' | 'T', column: number, token: string): number {
  const lineNo = 'ACGT'.indexOf(base) + 2;
  editJaspar(dir, id, lineNo, (line) => {
    const m = /^([ACGT])\s*\[(.*)\]$/.exec(line)!;
    const counts = m[2].trim().split(/\s+/);
    counts[column - 1] = token;
    return `${base}  [ ${counts.join(' ')} ]`;
  });
  return lineNo;
}
/** 1-based line of the first occurrence of a string in a file. */
function lineIn(file: string, needle: string): number {
  const text = read(file);
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in ${file}`);
  return text.slice(0, at).split('\n').length;
}
function editJson(dir: string, edit: (data: Record<string, { pfm: Record<string, unknown[]> }>) => void): void {
  const data = JSON.parse(read(jsonPath(dir)));
  edit(data);
  writeFileSync(jsonPath(dir), JSON.stringify(data, null, 1));
}

interface Expected {
  file: string;
  line: number;
  message: RegExp;
}
const problem = (e: Expected) =>
  expect.objectContaining({ rel: e.file, line: e.line, message: expect.stringMatching(e.message), fix: expect.stringMatching(/\S/) });

type Case = [name: string, corrupt: (dir: string) => Expected[]];

// ---------------------------------------------------------------- matrices.csv

const csvCases: Case[] = [
  ['missing column', (dir) => {
    const col = CSV_COLUMNS.indexOf('comment');
    writeCsvLines(dir, csvLines(dir).map((l) => (l === '' ? l : l.split(',').filter((_, i) => i !== col).join(','))));
    return [{ file: 'matrices.csv', line: 1, message: /missing column.*\bcomment\b/ }];
  }],
  ['extra column', (dir) => {
    writeCsvLines(dir, csvLines(dir).map((l, i) => (l === '' ? l : `${l},${i === 0 ? 'extra' : 'x'}`)));
    return [{ file: 'matrices.csv', line: 1, message: /unknown column.*\bextra\b/ }];
  }],
  ['a column named twice', (dir) => {
    const lines = csvLines(dir);
    lines[0] = lines[0].replace(',comment,', ',source,');
    writeCsvLines(dir, lines);
    return [
      { file: 'matrices.csv', line: 1, message: /named twice.*\bsource\b/ },
      { file: 'matrices.csv', line: 1, message: /missing column.*\bcomment\b/ },
    ];
  }],
  ['a row with too few fields', (dir) => {
    const line = editRow(dir, 'MA0004.1', (f) => f.slice(0, -1));
    return [{ file: 'matrices.csv', line, message: /15 fields where the header has 16/ }];
  }],
  ['a row with too many fields', (dir) => {
    const line = editRow(dir, 'MA0004.1', (f) => [...f, 'surplus']);
    return [{ file: 'matrices.csv', line, message: /17 fields where the header has 16/ }];
  }],
  ['an empty line between rows', (dir) => {
    const lines = csvLines(dir);
    lines.splice(3, 0, '');
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line: 4, message: /empty line/ }];
  }],
  ['a stray quote inside a field', (dir) => {
    const line = lineOf(dir, 'MA0014.3');
    const lines = csvLines(dir);
    lines[line - 1] = lines[line - 1].replace(',PAX5,', ',PA"X5,');
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line, message: /cannot be read/ }];
  }],
  ['a matrix file missing for a row', (dir) => {
    unlinkSync(jasparPath(dir, 'MA0004.1'));
    return [{ file: 'matrices.csv', line: lineOf(dir, 'MA0004.1'), message: /no matrix file for MA0004\.1/ }];
  }],
  ['duplicate matrix_id (both lines named)', (dir) => {
    const first = lineOf(dir, 'MA0074.1');
    const lines = csvLines(dir);
    lines.splice(lines.length - 1, 0, lines[first - 1]);
    writeCsvLines(dir, lines);
    const second = lines.length - 1;
    return [{ file: 'matrices.csv', line: second, message: new RegExp(`duplicate matrix_id MA0074\\.1 .*line ${first}\\b`) }];
  }],
  ...['MA04.1', 'MA0004', 'MA0004.x', 'MA0004.0', 'ma0004.1', 'MA0004.1 ', '../MA0004.1', 'MA0004.1/..', 'MA0004.1/../../x', '/MA0004.1', 'MA0004.1\\..', ''].map(
    (id): Case => [`id not matching <base_id>.<version>: ${JSON.stringify(id)}`, (dir) => {
      const line = setField(dir, 'MA0004.1', 'matrix_id', id);
      return [{ file: 'matrices.csv', line, message: /is not <base_id>\.<version>/ }];
    }],
  ),
  ['base_id disagreeing with the id', (dir) => {
    const line = setField(dir, 'MA0004.1', 'base_id', 'MA0005');
    return [{ file: 'matrices.csv', line, message: /base_id "MA0005" does not match matrix_id MA0004\.1/ }];
  }],
  ['version disagreeing with the id', (dir) => {
    const line = setField(dir, 'MA0004.1', 'version', '2');
    return [{ file: 'matrices.csv', line, message: /version "2" does not match matrix_id MA0004\.1/ }];
  }],
  ['an empty name', (dir) => {
    const line = setField(dir, 'MA0004.1', 'name', ' ');
    return [{ file: 'matrices.csv', line, message: /empty name/ }];
  }],
  ['species/tax_ids count mismatch', (dir) => {
    const line = setField(dir, 'MA0004.1', 'tax_ids', '10090;9606');
    return [{ file: 'matrices.csv', line, message: /MA0004\.1: 1 species but 2 tax_ids/ }];
  }],
  ['a tax id that is not a number', (dir) => {
    const line = setField(dir, 'MA0004.1', 'tax_ids', 'mouse');
    return [{ file: 'matrices.csv', line, message: /tax id "mouse" is not a number/ }];
  }],
  ['a tab inside a quoted name', (dir) => {
    const line = setField(dir, 'MA0004.1', 'name', 'Ar\tnt');
    return [{ file: 'matrices.csv', line, message: /name of MA0004\.1 contains a control character/ }];
  }],
  ['a control character in another column', (dir) => {
    const line = setField(dir, 'MA0004.1', 'comment', 'bell\u0007');
    return [{ file: 'matrices.csv', line, message: /comment of MA0004\.1 contains a control character/ }];
  }],
  ['mixed line ends in matrices.csv (CRLF on line 1, then LF)', (dir) => {
    const lines = csvLines(dir);
    lines[0] += '\r';
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line: 2, message: /ends with LF where line 1 ends with CRLF/ }];
  }],
  ['mixed line ends in matrices.csv (LF on line 1, then CRLF)', (dir) => {
    const line = lineOf(dir, 'MA0074.1');
    const lines = csvLines(dir);
    lines[line - 1] += '\r';
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line, message: /ends with CRLF where line 1 ends with LF/ }];
  }],
  ['a lone CR (old Mac line end) in matrices.csv', (dir) => {
    const line = lineOf(dir, 'MA0074.1');
    const lines = csvLines(dir);
    lines[line - 1] = `${lines[line - 1]}\r${lines[line]}`;
    lines.splice(line, 1);
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line, message: /a carriage return \(CR\) that does not end a line/ }];
  }],
  ['a single CR line end in matrices.csv (line of the first CR)', (dir) => {
    const line = lineOf(dir, 'MA0014.3');
    const lines = csvLines(dir);
    lines[line - 1] += '\r';
    writeCsvLines(dir, lines);
    return [{ file: 'matrices.csv', line, message: /CRLF|CR\)/ }];
  }],
  ['Latin-1 bytes in matrices.csv (line of the bad line)', (dir) => {
    const line = lineOf(dir, 'MA0074.1');
    const lines = csvLines(dir).map((l) => Buffer.from(l, 'utf8'));
    lines[line - 1] = Buffer.concat([lines[line - 1], Buffer.from([0x20, 0x63, 0x61, 0x66, 0xe9])]); // " café" in Latin-1
    writeFileSync(csvPath(dir), Buffer.concat(lines.flatMap((b, i) => (i === 0 ? [b] : [Buffer.from('\n'), b]))));
    return [{ file: 'matrices.csv', line, message: /not valid UTF-8/ }];
  }],
  ['an empty matrices.csv', (dir) => {
    writeFileSync(csvPath(dir), '');
    return [{ file: 'matrices.csv', line: 1, message: /empty/ }];
  }],
  ['matrices.csv missing', (dir) => {
    unlinkSync(csvPath(dir));
    return [{ file: 'matrices.csv', line: 1, message: /matrices\.csv is missing/ }];
  }],
  ['the matrices/ folder missing', (dir) => {
    rmSync(path.join(dir, 'matrices'), { recursive: true });
    return [{ file: 'matrices', line: 1, message: /matrices\/ folder is missing/ }];
  }],
];

// ---------------------------------------------------------------- matrices/<id>.jaspar

const jasparCases: Case[] = [
  ['a matrix file without a row', (dir) => {
    writeFileSync(jasparPath(dir, 'MA9999.1'), read(jasparPath(dir, 'MA0004.1')).replace('MA0004.1', 'MA9999.1'));
    return [{ file: 'matrices/MA9999.1.jaspar', line: 1, message: /MA9999\.1\.jaspar has no row in matrices\.csv/ }];
  }],
  ['ragged counts (one row shorter)', (dir) => {
    editJaspar(dir, 'MA0004.1', 3, (l) => l.replace(/\s+0 \]$/, ' ]'));
    return [{ file: 'matrices/MA0004.1.jaspar', line: 3, message: /the C row has 5 columns where A has 6/ }];
  }],
  ['a non-numeric count', (dir) => {
    const line = setCount(dir, 'MA0004.1', 'G', 2, 'x1');
    return [{ file: 'matrices/MA0004.1.jaspar', line, message: /column 2 of G: "x1" is not a number/ }];
  }],
  ...['1,5', '0x10', '+3', '1.', '.5', '1e'].map((token): Case => [`a count written as ${token}`, (dir) => {
    const line = setCount(dir, 'MA0004.1', 'A', 1, token);
    return [{ file: 'matrices/MA0004.1.jaspar', line, message: /column 1 of A: .* is not a number/ }];
  }]),
  ['a negative count', (dir) => {
    const line = setCount(dir, 'MA0004.1', 'T', 3, '-4');
    return [{ file: 'matrices/MA0004.1.jaspar', line, message: /column 3 of T: "-4" is negative/ }];
  }],
  ...[['NaN', /is not a finite number/], ['Infinity', /is not a finite number/], ['inf', /is not a finite number/], ['1e999', /is too large/]].map(
    ([token, message]): Case => [`a count of ${token}`, (dir) => {
      const line = setCount(dir, 'MA0004.1', 'C', 4, token as string);
      return [{ file: 'matrices/MA0004.1.jaspar', line, message: message as RegExp }];
    }],
  ),
  ['a row with no counts', (dir) => {
    editJaspar(dir, 'MA0004.1', 5, () => 'T  [ ]');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 5, message: /the T row has no counts/ }];
  }],
  ['a header id different from the file name', (dir) => {
    editJaspar(dir, 'MA0004.1', 1, (l) => l.replace('MA0004.1', 'MA0005.1'));
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /header names MA0005\.1 but the file is MA0004\.1\.jaspar/ }];
  }],
  ['names disagreeing between CSV and .jaspar', (dir) => {
    editJaspar(dir, 'MA0004.1', 1, () => '>MA0004.1\tARNT');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /"ARNT" but matrices\.csv says "Arnt"/ }];
  }],
  ['a header without a tab', (dir) => {
    editJaspar(dir, 'MA0004.1', 1, () => '>MA0004.1 Arnt');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /first line is not a header/ }];
  }],
  ['rows out of order (C before A)', (dir) => {
    const lines = read(jasparPath(dir, 'MA0004.1')).split('\n');
    [lines[1], lines[2]] = [lines[2], lines[1]];
    writeFileSync(jasparPath(dir, 'MA0004.1'), lines.join('\n'));
    return [{ file: 'matrices/MA0004.1.jaspar', line: 2, message: /row 1 is C where A belongs/ }];
  }],
  ['a fifth count row', (dir) => {
    appendFileSync(jasparPath(dir, 'MA0004.1'), 'A  [ 1 1 1 1 1 1 ]\n');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 6, message: /5 count rows where a matrix has 4/ }];
  }],
  ['only three count rows', (dir) => {
    const lines = read(jasparPath(dir, 'MA0004.1')).split('\n');
    writeFileSync(jasparPath(dir, 'MA0004.1'), `${lines.slice(0, 4).join('\n')}\n`);
    return [{ file: 'matrices/MA0004.1.jaspar', line: 5, message: /3 count rows where a matrix has 4/ }];
  }],
  ['a row that is not "B  [ … ]"', (dir) => {
    editJaspar(dir, 'MA0004.1', 4, () => 'G  0 1 0 20 0 20');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 4, message: /row 3 is not "G  \[ counts \]"/ }];
  }],
  ['an empty .jaspar file', (dir) => {
    writeFileSync(jasparPath(dir, 'MA0004.1'), '');
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /the matrix file is empty/ }];
  }],
  ['CRLF line endings in a .jaspar file', (dir) => {
    writeFileSync(jasparPath(dir, 'MA0004.1'), read(jasparPath(dir, 'MA0004.1')).replace(/\n/g, '\r\n'));
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /CRLF/ }];
  }],
  ['a CRLF on line 4 only of a .jaspar file', (dir) => {
    editJaspar(dir, 'MA0004.1', 4, (l) => `${l}\r`);
    return [{ file: 'matrices/MA0004.1.jaspar', line: 4, message: /CRLF/ }];
  }],
  ['a BOM in a .jaspar file', (dir) => {
    writeFileSync(jasparPath(dir, 'MA0004.1'), `\uFEFF${read(jasparPath(dir, 'MA0004.1'))}`);
    return [{ file: 'matrices/MA0004.1.jaspar', line: 1, message: /byte order mark/ }];
  }],
];

// ---------------------------------------------------------------- pfm_noninteger.json

const jsonCases: Case[] = [
  ['pfm_noninteger.json counts that do not round to the .jaspar counts', (dir) => {
    editJson(dir, (d) => {
      d['MA1972.1'].pfm.A[0] = '139.2';
    });
    return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA1972.1"'), message: /MA1972\.1: A column 1 is 139\.2, which rounds to 139, but the \.jaspar file says 138/ }];
  }],
  ['pfm_noninteger.json counts of the wrong length', (dir) => {
    editJson(dir, (d) => {
      d['MA1972.1'].pfm.C.pop();
    });
    return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA1972.1"'), message: /MA1972\.1: C must be a list of 15 numbers/ }];
  }],
  ['pfm_noninteger.json missing a base', (dir) => {
    editJson(dir, (d) => {
      delete d['MA1972.1'].pfm.T;
    });
    return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA1972.1"'), message: /MA1972\.1: T must be a list/ }];
  }],
  ...[['-0.5', /is negative/], ['abc', /is not a number/], [null, /is not a number/]].map(
    ([value, message]): Case => [`a pfm_noninteger.json count of ${JSON.stringify(value)}`, (dir) => {
      editJson(dir, (d) => {
        d['MA2191.1'].pfm.G[1] = value;
      });
      return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA2191.1"'), message: message as RegExp }];
    }],
  ),
  ['pfm_noninteger.json entry for an unknown id', (dir) => {
    editJson(dir, (d) => {
      d['MA9999.1'] = structuredClone(d['MA1972.1']);
    });
    return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA9999.1"'), message: /counts for MA9999\.1, which matrices\.csv does not list/ }];
  }],
  ['pfm_noninteger.json entry without a pfm object', (dir) => {
    editJson(dir, (d) => {
      (d as Record<string, unknown>)['MA1972.1'] = { source: 'x' };
    });
    return [{ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA1972.1"'), message: /MA1972\.1 has no "pfm" object/ }];
  }],
  ['invalid JSON in pfm_noninteger.json', (dir) => {
    writeFileSync(jsonPath(dir), 'not json\n');
    return [{ file: 'pfm_noninteger.json', line: 1, message: /not valid JSON/ }];
  }],
  ['pfm_noninteger.json that is not an object', (dir) => {
    writeFileSync(jsonPath(dir), '[]\n');
    return [{ file: 'pfm_noninteger.json', line: 1, message: /expected an object/ }];
  }],
  ['a BOM in pfm_noninteger.json', (dir) => {
    writeFileSync(jsonPath(dir), `\uFEFF${read(jsonPath(dir))}`);
    return [{ file: 'pfm_noninteger.json', line: 1, message: /byte order mark/ }];
  }],
];

// ---------------------------------------------------------------- sites/<id>.bed

const bedCases: Case[] = [
  ['a BED line with too few fields', (dir) => {
    const lines = read(bedPath(dir, 'MA0014.2')).split('\n');
    lines[4] = 'chr7\t130583074';
    writeFileSync(bedPath(dir, 'MA0014.2'), lines.join('\n'));
    return [{ file: 'sites/MA0014.2.bed', line: 5, message: /at least 3 tab-separated fields, this one has 2/ }];
  }],
  ['a BED line with start > end', (dir) => {
    const lines = read(bedPath(dir, 'MA0014.2')).split('\n');
    lines[9] = 'chr7\t200\t100\tx\t.\t+';
    writeFileSync(bedPath(dir, 'MA0014.2'), lines.join('\n'));
    return [{ file: 'sites/MA0014.2.bed', line: 10, message: /start 200 is after end 100/ }];
  }],
  ['a BED line with a non-numeric start', (dir) => {
    appendFileSync(bedPath(dir, 'MA0014.2'), 'chr7\t-5\t10\n');
    const line = read(bedPath(dir, 'MA0014.2')).split('\n').length - 1;
    return [{ file: 'sites/MA0014.2.bed', line, message: /start "-5" and end "10"/ }];
  }],
  ['a BED file for an unknown id', (dir) => {
    copyFileSync(bedPath(dir, 'MA0014.2'), bedPath(dir, 'MA9999.1'));
    return [{ file: 'sites/MA9999.1.bed', line: 1, message: /MA9999\.1\.bed has no row in matrices\.csv/ }];
  }],
  ['CRLF in a BED file', (dir) => {
    writeFileSync(bedPath(dir, 'MA0014.3'), read(bedPath(dir, 'MA0014.3')).replace(/\n/g, '\r\n'));
    return [{ file: 'sites/MA0014.3.bed', line: 1, message: /CRLF/ }];
  }],
];

describe('loadRelease rejects a bad dataset with file:line, the problem and a fix', () => {
  describe.each([
    ['matrices.csv', csvCases],
    ['matrices/<id>.jaspar', jasparCases],
    ['pfm_noninteger.json', jsonCases],
    ['sites/<id>.bed', bedCases],
  ] as const)('%s', (_, cases) => {
    it.each(cases)('%s', (_name, corrupt) => {
      const dir = fixture();
      const expected = corrupt(dir);
      const problems = problemsOf(dir);
      for (const e of expected) expect(problems).toContainEqual(problem(e));
    });
  });

  it('reports several problems in several files all in one error', () => {
    const dir = fixture();
    const pick = (cases: Case[], name: string) => cases.find(([n]) => n === name)![1](dir);
    const expected = [
      ...pick(csvCases, 'species/tax_ids count mismatch'), // MA0004.1's row
      ...pick(csvCases, 'duplicate matrix_id (both lines named)'), // MA0074.1
      ...pick(jasparCases, 'a matrix file without a row'), // MA9999.1
      ...pick(jsonCases, 'pfm_noninteger.json counts that do not round to the .jaspar counts'), // MA1972.1
      ...pick(bedCases, 'a BED line with start > end'), // MA0014.2
    ];
    expected.push({ file: 'matrices/MA0002.2.jaspar', line: setCount(dir, 'MA0002.2', 'G', 2, '-1'), message: /"-1" is negative/ });
    expected.push({ file: 'matrices/UN0083.1.jaspar', line: setCount(dir, 'UN0083.1', 'A', 1, 'NaN'), message: /"NaN" is not a finite number/ });
    const problems = problemsOf(dir);
    for (const e of expected) expect(problems).toContainEqual(problem(e));
    expect(problems).toHaveLength(expected.length);
  });

  it('reports every bad count of a file, not only the first', () => {
    const dir = fixture();
    setCount(dir, 'MA0002.2', 'A', 1, '-1');
    setCount(dir, 'MA0002.2', 'A', 2, 'x');
    setCount(dir, 'MA0002.2', 'T', 3, 'NaN');
    const problems = problemsOf(dir).filter((p) => p.rel === 'matrices/MA0002.2.jaspar');
    expect(problems.map((p) => p.line)).toEqual([2, 2, 5]);
  });

  it('prints each problem as "file:line: message (fix: …)" in the error message', () => {
    const dir = fixture();
    setCount(dir, 'MA0004.1', 'T', 3, '-4');
    unlinkSync(jasparPath(dir, 'MA0002.2'));
    let message = '';
    try {
      loadRelease(dir, INFO);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^the dataset has \d+ problems:\n/);
    expect(message).toMatch(new RegExp(`  \\S*matrices/MA0004\\.1\\.jaspar:5: column 3 of T: "-4" is negative \\(fix: .+\\)`));
    expect(message).toMatch(new RegExp(`  \\S*matrices\\.csv:${lineOf(dir, 'MA0002.2')}: no matrix file for MA0002\\.2 \\(fix: .+\\)`));
  });
});

// Problems that are only consequences of another one should not be listed:
// their fixes ("delete the file") would be wrong and destructive. And the
// line given is the one to open in an editor.
describe('loadRelease reports each problem once, where it is, and strictly', () => {
  it('a newline inside a quoted name is reported on the row\'s first line', () => {
    const dir = fixture();
    const line = setField(dir, 'MA0004.1', 'name', 'Ar\nnt');
    expect(problemsOf(dir)).toContainEqual(problem({ file: 'matrices.csv', line, message: /name of MA0004\.1 contains a control character/ }));
  });

  it('an unclosed quote is reported on the line where the quote opens', () => {
    const dir = fixture();
    const line = lineOf(dir, 'MA0014.3');
    const lines = csvLines(dir);
    lines[line - 1] = lines[line - 1].replace(',PAX5,', ',"PAX5,');
    writeCsvLines(dir, lines);
    expect(problemsOf(dir)).toContainEqual(problem({ file: 'matrices.csv', line, message: /cannot be read/ }));
  });

  it('problem messages quote values, so a control character cannot start a new output line', () => {
    const dir = fixture();
    setField(dir, 'MA0004.1', 'name', 'Ar\nnt');
    for (const p of problemsOf(dir)) expect(p.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a matrices.csv that cannot be read does not make every matrix file "have no row"', () => {
    const dir = fixture();
    writeFileSync(csvPath(dir), `${read(csvPath(dir))}\r`);
    const problems = problemsOf(dir);
    expect(problems.filter((p) => /has no row|does not list/.test(p.message))).toEqual([]);
  });

  it('a bad .jaspar file does not make its pfm_noninteger.json entry "unknown"', () => {
    const dir = fixture();
    setCount(dir, 'MA1972.1', 'A', 1, '-138');
    const problems = problemsOf(dir);
    expect(problems).toContainEqual(problem({ file: 'matrices/MA1972.1.jaspar', line: 2, message: /is negative/ }));
    expect(problems.filter((p) => p.rel === 'pfm_noninteger.json')).toEqual([]);
  });

  it('a missing .jaspar file does not make its BED file "have no row"', () => {
    const dir = fixture();
    unlinkSync(jasparPath(dir, 'MA0014.2'));
    const problems = problemsOf(dir);
    expect(problems).toContainEqual(problem({ file: 'matrices.csv', line: lineOf(dir, 'MA0014.2'), message: /no matrix file for MA0014\.2/ }));
    expect(problems.filter((p) => p.rel === 'sites/MA0014.2.bed')).toEqual([]);
  });

  it('invalid JSON is reported on the line of the error', () => {
    const dir = fixture();
    const lines = read(jsonPath(dir)).split('\n');
    const line = lineIn(jsonPath(dir), '"MA2191.1"') + 2;
    lines[line - 1] = lines[line - 1].replace(/,$/, ''); // a missing comma: the next line is unexpected
    writeFileSync(jsonPath(dir), lines.join('\n'));
    expect(problemsOf(dir)).toContainEqual(problem({ file: 'pfm_noninteger.json', line: line + 1, message: /not valid JSON/ }));
  });

  it('a nested list is not accepted as a pfm_noninteger.json count', () => {
    const dir = fixture();
    editJson(dir, (d) => {
      d['MA1972.1'].pfm.A[0] = [138];
    });
    expect(problemsOf(dir)).toContainEqual(problem({ file: 'pfm_noninteger.json', line: lineIn(jsonPath(dir), '"MA1972.1"'), message: /A column 1/ }));
  });
});

describe('loadRelease reads a clean release', () => {
  it('loads every matrix in matrices.csv order with its metadata', () => {
    const dir = fixture();
    const release = loadRelease(dir, INFO);
    expect(release.info).toBe(INFO);
    expect(release.matrices).toHaveLength(FIXTURE_IDS.length);
    expect(release.matrices.map((m) => m.matrixId)).toEqual([...FIXTURE_IDS].sort());
    expect(release.matrices.map((m) => m.row)).toEqual(FIXTURE_IDS.map((_, i) => i));
    const byId = new Map(release.matrices.map((m) => [m.matrixId, m]));

    const arnt = byId.get('MA0004.1')!;
    expect(arnt).toMatchObject({ baseId: 'MA0004', version: 1, collection: 'CORE', name: 'Arnt', taxGroup: 'vertebrates', dataType: 'SELEX', source: '', comment: '' });
    expect(arnt.species).toEqual([{ taxId: 10090, name: 'Mus musculus' }]);
    expect(arnt.pfm).toEqual({ A: [4, 19, 0, 0, 0, 0], C: [16, 0, 20, 0, 0, 0], G: [0, 1, 0, 20, 0, 20], T: [0, 0, 0, 0, 20, 0] });
    expect(arnt.sites).toBeNull();

    // Multi-valued cells split on ";", duplicates kept, order kept.
    const rxr = byId.get('MA0074.1')!;
    expect(rxr.tfClass).toEqual(['Nuclear receptors with C4 zinc fingers', 'Nuclear receptors with C4 zinc fingers']);
    expect(rxr.tfFamily).toEqual(['RXR-related receptors (NR2)', 'Thyroid hormone receptor-related factors (NR1)']);
    expect(rxr.uniprotIds).toEqual(['P11473', 'P19793']);
    expect(rxr.pubmedIds).toEqual(['8674817']);

    // Empty cells: empty lists and empty strings.
    // UN0831.1 is the one matrix whose every annotation is empty (PROVENANCE.md, §3: the 2024 database export has no species for it).
    const un = loadRelease(fixture(['UN0831.1']), INFO).matrices[0];
    expect(un).toMatchObject({ taxGroup: '', tfClass: [], tfFamily: [], species: [], uniprotIds: [], pubmedIds: [], dataType: '', comment: '', source: '' });
    // UN0498.1 had none before the 2024 database export filled its species, tax id and UniProt ids (J24_db_export, species_lookup).
    expect(byId.get('UN0498.1')!).toMatchObject({ taxGroup: 'vertebrates', species: [{ taxId: 9606, name: 'Homo sapiens' }], uniprotIds: ['O43365', 'P19419'] });
    // JASPAR's 2024 files give MA2191.1 no species; the release fills it from JASPAR's 2026 table (provenance.csv).
    expect(byId.get('MA2191.1')!.species).toEqual([{ taxId: 7227, name: 'Drosophila melanogaster' }]);
  });

  it('uses the full-precision counts of pfm_noninteger.json', () => {
    const dir = fixture();
    const m = loadRelease(dir, INFO).matrices.find((x) => x.matrixId === 'MA1972.1')!;
    expect(m.pfm.A[0]).toBe(137.739);
    expect(m.pfm.C[1]).toBe(0.796178);
    expect(m.pfm.T).toHaveLength(15);
    const precise = JSON.parse(read(jsonPath(dir)))['MA1972.1'].pfm;
    for (const base of ['A', 'C', 'G', 'T'] as const) expect(m.pfm[base]).toEqual(precise[base].map(Number));
  });

  it('keeps the BED files byte for byte', () => {
    const dir = fixture();
    const byId = new Map(loadRelease(dir, INFO).matrices.map((m) => [m.matrixId, m]));
    expect(byId.get('MA0014.2')!.sites).toBe(read(bedPath(dir, 'MA0014.2')));
    expect(byId.get('MA0014.3')!.sites).toBe(read(bedPath(dir, 'MA0014.3')));
    expect(byId.get('MA0004.1')!.sites).toBeNull();
  });

  it('loads a release without pfm_noninteger.json and without sites/', () => {
    const dir = fixture();
    unlinkSync(jsonPath(dir));
    rmSync(path.join(dir, 'sites'), { recursive: true });
    const release = loadRelease(dir, INFO);
    expect(release.matrices).toHaveLength(FIXTURE_IDS.length);
    const m = release.matrices.find((x) => x.matrixId === 'MA1972.1')!;
    expect(m.pfm.A[0]).toBe(138);
    expect(release.matrices.every((x) => x.sites === null)).toBe(true);
  });

  it('accepts a quoted name with a comma and a doubled quote', () => {
    const dir = fixture();
    setField(dir, 'MA0004.1', 'comment', 'a "quoted", comma');
    const m = loadRelease(dir, INFO).matrices.find((x) => x.matrixId === 'MA0004.1')!;
    expect(m.comment).toBe('a "quoted", comma');
  });
});

// matrices.csv as RFC 4180 writes it is read without csv-parse (plainCsv): the same records, each with the line it
// starts on, as csv-parse gives; anything else is left to csv-parse, which reports it.
describe('plainCsv', () => {
  const byCsvParse = (text: string) =>
    (parse(text, { relax_column_count: true, info: true, raw: true, skip_empty_lines: false }) as unknown as { record: string[]; raw: string; info: { lines: number } }[])
      .map(({ record, raw, info }) => ({ record, line: info.lines - (raw.replace(/\n$/, '').match(/\n/g)?.length ?? 0) }));

  it('reads the shipped matrices.csv as csv-parse does', () => {
    const text = readFileSync(path.join(__dirname, '../../data/jaspar-2024/matrices.csv'), 'utf8');
    expect(text).toContain('"');
    expect(plainCsv(text)).toEqual(byCsvParse(text));
  });

  it.each([
    ['quoted fields, commas and doubled quotes in them', 'a,b,c\n"x, y","say ""hi""",z\n'],
    ['a quoted field over two lines, then a row', 'a,b\n"one\ntwo",3\nfour,5'],
    ['empty fields, a last field empty at the end', 'a,,b\n,,\n"",x,'],
    ['rows of other lengths', 'a,b,c\nd\ne,f,g,h\n'],
    ['no text', ''],
    ['non-ASCII and a BOM', '\uFEFFname,x\nÑandú,"ü"\n'],
  ])('%s: as csv-parse', (_what, text) => {
    expect(plainCsv(text)).toEqual(byCsvParse(text));
  });

  it.each([
    ['CRLF line ends', 'a,b\r\nc,d\r\n'],
    ['a blank line', 'a,b\n\nc,d\n'],
    ['a quote inside an unquoted field', 'a,b\nc"d,e\n'],
    ['text after a closing quote', 'a,b\n"c"d,e\n'],
    ['an unclosed quote', 'a,b\n"c,d\n'],
  ])('%s: left to csv-parse', (_what, text) => {
    expect(plainCsv(text)).toBeNull();
  });
});
