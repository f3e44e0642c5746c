// Issue 15, the input side: values a renderer cannot write, links,
// special files, sizes, values that differ only in case, forged BED
// content, counts beyond 2^53, the release description, duplicate JSON
// keys; and issue 12 §3, matrices.csv as Python and spreadsheets write it.
// Each case is refused by the loader with file:line and a fix (never a bare
// exception, never a hang), or read exactly as its clean twin.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError, type Problem } from '../../generator/dataset/diagnostics.ts';
import { SIZE_LIMITS } from '../../generator/dataset/files.ts';
import { CSV_COLUMNS, loadRelease } from '../../generator/dataset/curated.ts';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import type { Release, ReleaseInfo } from '../../generator/dataset/types.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT, dataDir } from '../support/paths.ts';
import { turn } from '../support/run.ts';

const INFO: ReleaseInfo = { name: 'JASPAR 2024', year: 2024, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.genereg.net/matrix/{matrix_id}', number: 10, citation: '', license: '', collections: [], olderVersions: null };

const made: string[] = [];
function fixture(): string {
  const dir = makeRelease();
  made.push(dir);
  return dir;
}
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-hostile-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Found extends Problem {
  rel: string;
}
function problemsOf(dir: string): Found[] {
  let release: Release | undefined;
  try {
    release = loadRelease(dir, INFO);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as DatasetError).problems.map((p) => ({ ...p, rel: path.relative(dir, path.resolve(p.file)).split(path.sep).join('/') }));
  }
  throw new Error(`loadRelease accepted the dataset (${release.matrices.length} matrices)`);
}
const problem = (rel: string, line: number, message: RegExp) =>
  expect.objectContaining({ rel, line, message: expect.stringMatching(message), fix: expect.stringMatching(/\S/) });

const csv = (dir: string) => path.join(dir, 'matrices.csv');
const jaspar = (dir: string, id: string) => path.join(dir, 'matrices', `${id}.jaspar`);
const bed = (dir: string, id: string) => path.join(dir, 'sites', `${id}.bed`);
const json = (dir: string) => path.join(dir, 'pfm_noninteger.json');
const read = (file: string) => readFileSync(file, 'utf8');
const lineOf = (dir: string, id: string) => read(csv(dir)).split('\n').findIndex((l) => l.startsWith(`${id},`)) + 1;
function setField(dir: string, id: string, column: (typeof CSV_COLUMNS)[number], value: string): number {
  const lines = read(csv(dir)).split('\n');
  const i = lineOf(dir, id) - 1;
  const col = lines[0].split(',').indexOf(column);
  lines[i] = lines[i].split(',').map((v, c) => (c === col ? value : v)).join(',');
  writeFileSync(csv(dir), lines.join('\n'));
  return i + 1;
}
/** Appends a BED line to a matrix's file; returns its line number. */
function addBedLine(dir: string, id: string, line: string): number {
  const text = read(bed(dir, id));
  writeFileSync(bed(dir, id), `${text}${line}\n`);
  return text.split('\n').length;
}
function setCount(dir: string, id: string, token: string): void {
  const lines = read(jaspar(dir, id)).split('\n');
  lines[1] = lines[1].replace(/\[\s*\S+/, `[ ${token}`);
  writeFileSync(jaspar(dir, id), lines.join('\n'));
}
/** A second key written into the entry of a matrix in pfm_noninteger.json (pretty-printed with one space). */
function lineIn(file: string, needle: string): number {
  const text = read(file);
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

describe('values a renderer cannot write are refused with file:line (issue 15.4)', () => {
  it('a 400-digit BED coordinate', () => {
    const dir = fixture();
    const line = addBedLine(dir, 'MA0014.2', `chr1\t${'9'.repeat(400)}\t${'9'.repeat(400)}\tx\t.\t+`);
    expect(problemsOf(dir)).toEqual([problem('sites/MA0014.2.bed', line, /coordinate "9{60}"… \(400 characters\) is above 2\^53/)]);
  });

  it('a 401-digit tax id', () => {
    const dir = fixture();
    const line = setField(dir, 'MA0004.1', 'tax_ids', '1'.repeat(401));
    expect(problemsOf(dir)).toEqual([problem('matrices.csv', line, /MA0004\.1: tax id "1{60}"… \(401 characters\) is above 2\^53/)]);
  });

  it('a tax id with a leading zero (another spelling of the same species folder)', () => {
    const dir = fixture();
    const line = setField(dir, 'MA0004.1', 'tax_ids', '010090');
    expect(problemsOf(dir)).toEqual([problem('matrices.csv', line, /tax id "010090" has a leading zero/)]);
  });

  it('a deeply nested pfm_noninteger.json', () => {
    const dir = fixture();
    writeFileSync(json(dir), `{\n "MA1972.1": {"pfm": {"A": [\n${'['.repeat(100_000)}${']'.repeat(100_000)}]}}}\n`);
    expect(problemsOf(dir)).toEqual([problem('pfm_noninteger.json', 3, /not valid JSON: nested deeper than 64 levels/)]);
  });

  it('a 400-digit count in pfm_noninteger.json, as a JSON number', () => {
    const dir = fixture();
    const text = read(json(dir));
    writeFileSync(json(dir), text.replace(/("A": \[\s*)"[0-9.]+"/, `$1${'9'.repeat(400)}`));
    expect(problemsOf(dir)).toContainEqual(problem('pfm_noninteger.json', lineIn(json(dir), '"MA1972.1"'), /MA1972\.1: A column 1 "9{60}"… \(400 characters\) is too large/));
  });
});

describe('counts above 2^53 are refused everywhere (issue 15.10)', () => {
  it.each(['9007199254740993', '9007199254740992.5', '9.007199254740993e15', '90071992547409930e-1', '1e16'])('%s in a .jaspar file', (token) => {
    const dir = fixture();
    setCount(dir, 'MA0004.1', token);
    expect(problemsOf(dir)).toEqual([problem('matrices/MA0004.1.jaspar', 2, new RegExp(`"${token.replace(/\./g, '\\.')}" is too large`))]);
  });

  it('9007199254740993 in pfm_noninteger.json, as a number and as a string', () => {
    for (const token of ['9007199254740993', '"9007199254740993"']) {
      const dir = fixture();
      writeFileSync(json(dir), read(json(dir)).replace(/("A": \[\s*)"[0-9.]+"/, `$1${token}`));
      expect(problemsOf(dir)).toContainEqual(problem('pfm_noninteger.json', lineIn(json(dir), '"MA1972.1"'), /A column 1 "9007199254740993" is too large/));
    }
  });

  it('2^53 itself is a count (exact in a double)', () => {
    const dir = fixture();
    setCount(dir, 'MA0004.1', '9007199254740992');
    const m = loadRelease(dir, INFO).matrices.find((x) => x.matrixId === 'MA0004.1')!;
    expect(m.pfm.A[0]).toBe(2 ** 53);
  });
});

describe('links, special files and sizes (issue 15.5, 15.6, 15.14)', () => {
  it.each([
    ['pfm_noninteger.json', (dir: string) => json(dir), 'pfm_noninteger.json', /dangling link/],
    ['sites/', (dir: string) => path.join(dir, 'sites'), 'sites', /the sites\/ folder is a dangling link/],
    ['a .bed file', (dir: string) => bed(dir, 'MA0014.2'), 'sites/MA0014.2.bed', /dangling link/],
  ])('a dangling link as %s is a problem, not "absent"', (_name, target, rel, message) => {
    const dir = fixture();
    rmSync(target(dir), { recursive: true, force: true });
    symlinkSync(path.join(dir, 'no-such-file'), target(dir));
    expect(problemsOf(dir)).toEqual([problem(rel, 1, message)]);
  });

  it.each([
    ['pfm_noninteger.json', (dir: string) => json(dir), 'pfm_noninteger.json'],
    ['sites/', (dir: string) => path.join(dir, 'sites'), 'sites'],
  ])('a looping link as %s is a problem', (_name, target, rel) => {
    const dir = fixture();
    rmSync(target(dir), { recursive: true, force: true });
    symlinkSync(target(dir), target(dir));
    expect(problemsOf(dir)).toEqual([problem(rel, 1, /loops/)]);
  });

  it('a FIFO as a .jaspar file is refused without being opened (opening one blocks)', async () => {
    const dir = fixture();
    rmSync(jaspar(dir, 'MA0004.1'));
    execFileSync('mkfifo', [jaspar(dir, 'MA0004.1')]);
    // A writer that opens the FIFO within 20 s, so that a loader that does
    // open it reads an empty file and fails this test instead of hanging it.
    const writer = spawn('timeout', ['20', 'sh', '-c', `: > "$0"`, jaspar(dir, 'MA0004.1')], { stdio: 'ignore' });
    try {
      expect(problemsOf(dir)).toEqual([problem('matrices/MA0004.1.jaspar', 1, /is a FIFO \(named pipe\), not a regular file/)]);
    } finally {
      // Wait for the writer to be gone: started late, after the folder's
      // removal began, its `: >` would create a regular file there.
      if (writer.exitCode === null && writer.signalCode === null) {
        const exited = new Promise((resolve) => writer.once('exit', resolve));
        writer.kill();
        await exited;
      }
    }
  });

  it('a link to /dev/zero is refused (it leads outside the release folder, and is a device)', () => {
    const dir = fixture();
    rmSync(json(dir));
    symlinkSync('/dev/zero', json(dir));
    expect(problemsOf(dir)).toEqual([problem('pfm_noninteger.json', 1, /link that leads outside the release folder/)]);
  });

  it('a file larger than its kind\'s limit is refused without being read', () => {
    const dir = fixture();
    truncateSync(bed(dir, 'MA0014.2'), SIZE_LIMITS.bed + 1);
    truncateSync(jaspar(dir, 'MA0004.1'), SIZE_LIMITS.jaspar + 1);
    expect(problemsOf(dir)).toEqual([
      problem('matrices/MA0004.1.jaspar', 1, /larger than 1 MiB/),
      problem('sites/MA0014.2.bed', 1, /larger than 64 MiB/),
    ]);
  });

  it('a link to a file outside the release folder is refused, and the file\'s content is never echoed', () => {
    const dir = fixture();
    const outside = tempDir();
    const secret = path.join(outside, 'secret.csv');
    writeFileSync(secret, 'root:x:0:0:the-secret-value:/root:/bin/bash\n');
    rmSync(csv(dir));
    symlinkSync(secret, csv(dir));
    const problems = problemsOf(dir);
    expect(problems).toEqual([problem('matrices.csv', 1, /link that leads outside the release folder/)]);
    expect(JSON.stringify(problems)).not.toContain('secret-value');
  });

  it('links that stay inside the release folder are followed: a file, and the matrices/ folder (git-annex, a shared store)', () => {
    const dir = fixture();
    const clean = loadRelease(dir, INFO);
    mkdirSync(path.join(dir, '.store'));
    renameSync(path.join(dir, 'matrices'), path.join(dir, '.store', 'matrices'));
    symlinkSync(path.join('.store', 'matrices'), path.join(dir, 'matrices'));
    renameSync(json(dir), path.join(dir, '.store', 'precise.json'));
    symlinkSync(path.join('.store', 'precise.json'), json(dir));
    expect(loadRelease(dir, INFO)).toEqual(clean);
  });

  it('a CSV quoting error names the place, not the field\'s text', () => {
    const dir = fixture();
    const line = setField(dir, 'MA0004.1', 'comment', 'the-secret"value');
    const problems = problemsOf(dir);
    expect(problems).toEqual([problem('matrices.csv', line, /the CSV cannot be read: Invalid Opening Quote: a quote is found on field \d+ at line \d+$/)]);
  });

  it('a long value is quoted cut short in the report', () => {
    const dir = fixture();
    const lines = read(csv(dir)).split('\n');
    lines[0] += `,${'x'.repeat(5000)}`;
    writeFileSync(csv(dir), lines.join('\n'));
    const [p] = problemsOf(dir);
    expect(p.message).toMatch(/unknown column: "x{60}"… \(5000 characters\)/);
    expect(p.message.length).toBeLessThan(200);
  });
});

describe('values that differ only in case are refused (issue 15.8)', () => {
  it.each([
    ['collection', 'MA0074.1', 'core', 'CORE'],
    ['tax_group', 'MA0074.1', 'Vertebrates', 'vertebrates'],
  ] as const)('%s', (column, id, value, first) => {
    const dir = fixture();
    const line = setField(dir, id, column, value);
    const firstLine = read(csv(dir)).split('\n').findIndex((l, i) => i > 0 && l.split(',').includes(first)) + 1;
    expect(firstLine).toBeLessThan(line);
    expect(problemsOf(dir)).toEqual([problem('matrices.csv', line, new RegExp(`${column} "${value}" of ${id.replace('.', '\\.')} differs only in case from "${first}" \\(line ${firstLine}\\)`))]);
  });
});

describe('BED content is checked (issue 15.9)', () => {
  it.each([
    ['a comment forging the block header of another matrix', '# MA0004.1 Arnt', /comment that names a matrix/],
    ['a comment naming a base id', '#MA0004 x', /comment that names a matrix/],
    ['start > end', 'chr1\t20\t10\tx\t.\t+', /start 20 is after end 10/],
    ['a coordinate beyond 2^53', 'chr1\t0\t9007199254740993\tx\t.\t+', /coordinate "9007199254740993" is above 2\^53/],
    ['a coordinate with a leading zero', 'chr1\t007\t10\tx\t.\t+', /not whole numbers/],
    ['a track line that is not one', 'track\tname', /not a UCSC track line/],
    ['a data line whose chromosome starts with "track"', 'trackX\t1\t2', /not a UCSC track line/],
    ['a browser line that is not one', 'browser nonsense', /not a UCSC browser line/],
    ['a control character', 'chr1\t1\t2\tx\u0007y', /control character, U\+0007/],
  ])('%s', (_name, text, message) => {
    const dir = fixture();
    const line = addBedLine(dir, 'MA0014.2', text);
    expect(problemsOf(dir)).toEqual([problem('sites/MA0014.2.bed', line, message)]);
  });

  it('accepts UCSC track and browser lines, and other comments', () => {
    const dir = fixture();
    const lines = ['track name=sites description="JASPAR sites" useScore=1', 'browser position chr7:127471196-127495720', 'browser hide all', '# sites of this matrix'];
    writeFileSync(bed(dir, 'MA0014.2'), `${lines.join('\n')}\n${read(bed(dir, 'MA0014.2'))}`);
    const m = loadRelease(dir, INFO).matrices.find((x) => x.matrixId === 'MA0014.2')!;
    expect(m.sites!.split('\n').slice(0, 4)).toEqual(lines);
  });
});

describe('duplicate keys in pfm_noninteger.json are refused (issue 15.12)', () => {
  it('a matrix id twice', () => {
    const dir = fixture();
    const text = read(json(dir));
    const entry = /\n "MA1972\.1": \{[^}]*\}\s*\}/.exec(text)![0];
    writeFileSync(json(dir), text.replace(/\n\}\s*$/, `,${entry}\n}\n`));
    const second = read(json(dir)).lastIndexOf('"MA1972.1"');
    const secondLine = read(json(dir)).slice(0, second).split('\n').length;
    expect(problemsOf(dir)).toEqual([problem('pfm_noninteger.json', secondLine, new RegExp(`key "MA1972\\.1" appears twice in one object \\(first on line ${lineIn(json(dir), '"MA1972.1"')}\\)`))]);
  });

  it('a base twice inside one pfm', () => {
    const dir = fixture();
    writeFileSync(json(dir), read(json(dir)).replace(/("pfm": \{)/, '$1\n  "T": [1],'));
    const text = read(json(dir));
    const first = lineIn(json(dir), '"T": [1]');
    const second = text.slice(0, text.indexOf('"T": [', text.indexOf('"T": [1]') + 1)).split('\n').length;
    expect(problemsOf(dir)).toContainEqual(problem('pfm_noninteger.json', second, new RegExp(`key "T" appears twice in one object \\(first on line ${first}\\)`)));
  });
});

describe('the release description is validated with file:line (issue 15.11)', () => {
  const GOOD = 'name: JASPAR 2024\nyear: 2024\ntransfac_from: From JASPAR\nmeme_url: http://jaspar.genereg.net/matrix/{matrix_id}\ncitation: "X. 2024."\nlicense: CC BY 4.0\n';
  const problemsIn = (text: string): Problem[] => {
    try {
      readReleaseInfo(text, (t) => yaml.load(t), 'release.yaml');
    } catch (error) {
      expect(error).toBeInstanceOf(DatasetError);
      return (error as DatasetError).problems;
    }
    throw new Error('accepted');
  };
  const at = (line: number, message: RegExp) => expect.objectContaining({ file: 'release.yaml', line, message: expect.stringMatching(message), fix: expect.stringMatching(/\S/) });

  it('accepts the shipped description', () => {
    expect(readReleaseInfo(GOOD, (t) => yaml.load(t), 'release.yaml')).toEqual({ ...INFO, citation: 'X. 2024.', license: 'CC BY 4.0' });
  });

  it('reads the release number, the collections and the older-versions folder (relative to the description\'s folder)', () => {
    const file = path.join(PROJECT_ROOT, 'data/release-2026.yaml');
    const info = readReleaseInfo(read(file), (t) => yaml.load(t), file);
    expect(info).toMatchObject({ name: 'JASPAR 2026', year: 2026, number: 11, olderVersions: path.join(PROJECT_ROOT, 'data/jaspar-2024') });
    expect(info.citation).toMatch(/^Ovek Baydar D, et al\. JASPAR 2026: expansion of transcription factor binding profiles and integration of deep learning models\. Nucleic Acids Res\. 2026;54\(D1\):D184-D193\. doi:10\.1093\/nar\/gkaf1209$/);
    expect(info.collections).toEqual([
      { name: 'CORE', mirrored: true, status: 'mirrored' },
      { name: 'UNVALIDATED', mirrored: false, status: 'not published' },
      { name: 'DL', mirrored: false, status: 'not published' },
    ]);
    const file2024 = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
    const info2024 = readReleaseInfo(read(file2024), (t) => yaml.load(t), file2024);
    expect(info2024).toMatchObject({ number: 10, olderVersions: null, collections: [{ name: 'CORE', mirrored: true }, { name: 'UNVALIDATED', mirrored: true }] });
    // Without number: the table's (dataset/releases.ts); without a citation, the table's.
    expect(readReleaseInfo(GOOD.replace(/citation.*\n/, ''), (t) => yaml.load(t), 'release.yaml')).toMatchObject({ number: 10, citation: expect.stringMatching(/^Rauluseviciute I.*gkad1059$/) });
  });

  it.each([
    ['a newline in transfac_from', GOOD.replace('From JASPAR', '"From JASPAR\\nXX forged"'), 3, /"transfac_from" contains a control character, U\+000A/],
    ['a newline in meme_url', GOOD.replace('http://jaspar.genereg.net/matrix/{matrix_id}', '"http://jaspar.genereg.net/matrix/{matrix_id}\\nMOTIF x"'), 4, /"meme_url" contains a control character/],
    ['a tab in name', GOOD.replace('JASPAR 2024', '"JASPAR\\t2024"'), 1, /"name" contains a control character, U\+0009/],
    ['a bidirectional control in citation', GOOD.replace('X. 2024.', 'X.\u202e 2024.'), 5, /"citation" contains a control character, U\+202E/],
    ['year: .nan', GOOD.replace('year: 2024', 'year: .nan'), 2, /"year" must be a whole number from 1900 to 9999, not "NaN"/],
    ['year: 1e400', GOOD.replace('year: 2024', 'year: 1e400'), 2, /"year" must be a whole number/],
    ['year: 2024.5', GOOD.replace('year: 2024', 'year: 2024.5'), 2, /"year" must be a whole number/],
    ['a year as a string', GOOD.replace('year: 2024', 'year: "2024"'), 2, /"year" must be a whole number/],
    ['meme_url not a URL', GOOD.replace('http://jaspar.genereg.net/matrix/{matrix_id}', 'jaspar {matrix_id}'), 4, /"meme_url" "jaspar \{matrix_id\}" is not an http\(s\) URL/],
    ['a missing key', GOOD.replace(/transfac_from.*\n/, ''), 1, /"transfac_from" must be a string/],
    ['a YAML syntax error', `${GOOD}bad: [unclosed\n`, 8, /not valid YAML/],
    ['a key written twice', `${GOOD}year: 2025\n`, 7, /not valid YAML: duplicated mapping key/],
    ['not a mapping', '- a\n- b\n', 1, /expected a mapping/],
    ['another year\'s release number', `${GOOD}number: 11\n`, 7, /"number" is 11 but JASPAR 2024 is release 10/],
    ['a release number that is not a whole number', `${GOOD}number: ten\n`, 7, /"number" must be JASPAR's release number/],
    ['collections as a list', `${GOOD}collections: [CORE]\n`, 7, /"collections" is not a mapping/],
    ['a collection neither mirrored nor not published', `${GOOD}collections: {CORE: maybe}\n`, 7, /collection CORE is "maybe"/],
    ['a collection name with a slash', `${GOOD}collections: {"CO/RE": mirrored}\n`, 7, /collection "CO\/RE" is not a plain identifier/],
    ['no collection mirrored', `${GOOD}collections: {CORE: not published}\n`, 7, /no collection is mirrored/],
    ['older_versions not a folder', `${GOOD}older_versions: no-such-release\n`, 7, /"older_versions" names "no-such-release", which is not a folder beside release\.yaml/],
  ])('%s', (_name, text, line, message) => {
    expect(problemsIn(text)).toContainEqual(at(line, message));
  });
});

describe('matrices.csv as Python and spreadsheets write it (issue 12 §3)', () => {
  it.each([
    ['CRLF line ends (Python csv)', (t: string) => t.replace(/\n/g, '\r\n')],
    ['a UTF-8 BOM (spreadsheet, LF)', (t: string) => `\uFEFF${t}`],
    ['a UTF-8 BOM and CRLF line ends (spreadsheet "CSV UTF-8")', (t: string) => `\uFEFF${t.replace(/\n/g, '\r\n')}`],
    ['CRLF and no line end after the last row', (t: string) => t.replace(/\n$/, '').replace(/\n/g, '\r\n')],
  ])('%s: read exactly as the LF file', (_name, convert) => {
    const dir = fixture();
    const clean = loadRelease(dir, INFO);
    writeFileSync(csv(dir), convert(read(csv(dir))));
    expect(loadRelease(dir, INFO)).toEqual(clean);
  });

  it('the full 2024 release with a BOM and CRLF loads as the LF release (every output is planned from it)', async () => {
    const src = dataDir();
    const dir = tempDir();
    for (const part of ['matrices', 'sites', 'pfm_noninteger.json']) await cp(path.join(src, part), path.join(dir, part), { recursive: true });
    writeFileSync(csv(dir), `\uFEFF${read(path.join(src, 'matrices.csv')).replace(/\n/g, '\r\n')}`);
    const converted = loadRelease(dir, INFO);
    await turn();
    const original = loadRelease(src, INFO);
    await turn();
    expect(converted.matrices.length).toBeGreaterThan(2000);
    expect(converted).toEqual(original);
  }, 120_000);

  it('a CRLF cell break inside quotes in an LF file is mixed line ends, refused', () => {
    const dir = fixture();
    const line = setField(dir, 'MA0004.1', 'comment', '"a\r\nb"');
    expect(problemsOf(dir)).toContainEqual(problem('matrices.csv', line, /ends with CRLF where line 1 ends with LF/));
  });
});
