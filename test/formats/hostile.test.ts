// Hostile strings in names, ids and annotations: markup, quotes, paths,
// tabs and line breaks, YAML and format keywords, and Unicode (astral,
// right-to-left, combining, bidirectional controls). Each goes through the
// real loader and the whole pipeline (planSite) in every column of one
// matrix at once; then every format is parsed back (test/fuzz/oracle.ts):
// JSON, JSONP and YAML give back the exact strings; the jaspar, meme,
// transfac, pfm and BED bodies have exactly the lines and fields they should
// (a tab or line break never makes a new field or record); the pages (api
// HTML, home, search) hold no script, style or event attribute but the
// site's own and have the same tag structure as with a plain name; the search
// index gives back the strings. A string the text formats cannot carry is
// refused by the loader, with file:line, in every column alike; ids are
// refused unless they are plain MA0004.1-style ids.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSite } from '../../generator/build.ts';
import { DatasetError, oneLine } from '../../generator/dataset/diagnostics.ts';
import { FORBIDDEN_CHARACTER } from '../../generator/dataset/text.ts';
import { HOSTILE, baseFiles, writeFiles } from '../fuzz/corrupt.ts';
import { parseTags, type Files } from '../fuzz/oracle.ts';
import { FUZZ_BASE_URL, diagnosticFaults, runCase } from '../fuzz/run.ts';

const IDS = ['MA0004.1', 'MA0014.2', 'MA1972.1'];
const TARGET = 'MA0014.2'; // has a BED file: the bed format shows its name too
const TEXT_COLUMNS = ['name', 'data_type', 'source', 'comment'] as const;
/** Name URL path segments and bundle files: identifiers only (see generator/dataset/text.ts). */
const IDENTIFIER_COLUMNS = ['collection', 'tax_group'] as const;
const LIST_COLUMNS = ['tf_class', 'tf_family', 'species', 'uniprot_ids', 'pubmed_ids'] as const;

let root: string;
let base: Files;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-hostile-'));
  base = baseFiles(IDS);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The base release with every text and list column of TARGET set to value (its .jaspar header too). */
function hostileRelease(value: string, columns: readonly string[] = [...TEXT_COLUMNS, ...LIST_COLUMNS], id = TARGET): { files: Files; line: number } {
  const files = new Map(base);
  const records = parseCsv((files.get('matrices.csv') as Buffer).toString('utf8')) as string[][];
  const header = records[0];
  const index = records.findIndex((r) => r[0] === id);
  const row = records[index];
  for (const column of columns) row[header.indexOf(column)] = value;
  if (columns.includes('species')) row[header.indexOf('tax_ids')] = value.split(';').map(() => '10090').join(';');
  files.set('matrices.csv', Buffer.from(`${records.map((r) => r.map(quote).join(',')).join('\n')}\n`));
  if (columns.includes('name')) {
    const jaspar = `matrices/${id}.jaspar`;
    const lines = (files.get(jaspar) as Buffer).toString('utf8').split('\n');
    lines[0] = `>${id}\t${value}`;
    files.set(jaspar, Buffer.from(lines.join('\n')));
  }
  return { files, line: index + 1 };
}

let n = 0;
function run(files: Files, label: string, outcome: 'accept' | 'either' = 'accept') {
  const dir = path.join(root, `case-${n++}`);
  writeFiles(files, dir);
  try {
    return runCase(dir, files, { outcome }, label);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tag names and attribute names of a page, in order: what an injection would change. Data-made links aside (see below). */
function skeleton(html: string): string[] {
  return parseTags(html).filter((t) => t.name !== 'a' && t.name !== '/a').map((t) => `<${t.name} ${t.attributes.map(([name]) => name).join(' ')}`);
}

const htmlOf = (outputs: Iterable<[string, string | Buffer]>) => new Map([...outputs].filter(([rel]) => rel.endsWith('.html')).map(([rel, c]) => [rel, c.toString()]));

const carried = HOSTILE.filter((s) => !FORBIDDEN_CHARACTER.test(s) && s.trim() !== '');
const refused = HOSTILE.filter((s) => FORBIDDEN_CHARACTER.test(s));

describe('hostile strings that the formats can carry', () => {
  let plain: Map<string, string>;
  beforeAll(() => {
    plain = htmlOf(run(hostileRelease('Plain').files, 'plain').outputs!);
  });

  it.each(carried.map((s) => [JSON.stringify(s), s]))('%s in every column comes back exactly in every format, without a forged line or tag', (_label, value) => {
    const result = run(hostileRelease(value).files, `hostile ${JSON.stringify(value)}`);
    expect(result.outcome).toBe('built');
    // The pages have the tag structure they have with a plain name.
    const pages = htmlOf(result.outputs!);
    expect([...pages.keys()].sort()).toEqual([...plain.keys()].sort());
    for (const [rel, html] of pages) expect(skeleton(html), rel).toEqual(skeleton(plain.get(rel)!));
  });

  it('a name of 300 characters, astral and combining characters included, sorts by code point in the list', () => {
    const { files } = hostileRelease(`\u{1D504}${'e\u0301'.repeat(100)}`, ['name'], 'MA0004.1');
    expect(run(files, 'long astral name').outcome).toBe('built');
  });
});

describe('hostile strings that a line- and tab-based format cannot carry', () => {
  it.each(refused.map((s) => [JSON.stringify(s), s]))('%s is refused in every column, each on the row\'s line', (_label, value) => {
    const { files, line } = hostileRelease(value);
    const dir = path.join(root, `refused-${n++}`);
    writeFiles(files, dir);
    try {
      let error: unknown;
      try {
        planSite({ dataDir: dir, outDir: path.join(dir, 'out'), baseUrl: FUZZ_BASE_URL });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatasetError);
      const problems = (error as DatasetError).problems;
      expect(diagnosticFaults(problems, dir, files)).toEqual([]);
      if (value.includes('\r')) {
        // A carriage return stops the whole file: it is reported where it is.
        expect(problems.some((p) => p.line === line && /CRLF|carriage return/.test(p.message))).toBe(true);
        return;
      }
      // Every column that holds the value, once each, on the row's line (a
      // line break inside a quoted cell does not move where the row starts).
      const control = problems.filter((p) => /contains a control character/.test(p.message));
      expect(control.map((p) => /^(\w+) of /.exec(p.message)?.[1]).sort()).toEqual([...TEXT_COLUMNS, ...LIST_COLUMNS].sort());
      for (const p of control) expect(p.line, p.message).toBe(line);
      for (const p of control) expect(p.message).toMatch(/U\+[0-9A-F]{4}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('collections and taxonomic groups, which name URLs and files', () => {
  it.each(HOSTILE.filter((s) => !/^[A-Za-z0-9_-]*$/.test(s) && !s.includes('\r')).map((s) => [JSON.stringify(s), s]))('%s is refused in both, on the row\'s line', (_label, value) => {
    const { files, line } = hostileRelease(value, IDENTIFIER_COLUMNS);
    const dir = path.join(root, `ident-${n++}`);
    writeFiles(files, dir);
    try {
      let error: unknown;
      try {
        planSite({ dataDir: dir, outDir: path.join(dir, 'out'), baseUrl: FUZZ_BASE_URL });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatasetError);
      const problems = (error as DatasetError).problems;
      expect(diagnosticFaults(problems, dir, files)).toEqual([]);
      for (const column of IDENTIFIER_COLUMNS) {
        expect(problems.some((p) => p.line === line && p.message.startsWith(`${column} ${oneLine(JSON.stringify(value))} of ${TARGET} is not a plain identifier`)), column).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['CORE', 'PBM_HOMEO', 'x-1'])('%s is accepted', (value) => {
    expect(run(hostileRelease(value, ['collection']).files, `collection ${value}`).outcome).toBe('built');
  });
});

describe('hostile ids', () => {
  it.each([
    '../MA0004.1', 'MA0004.1/../../etc', 'MA0004.1 ', 'ma0004.1', '<b>MA0004.1</b>', 'MA0004.1\t', 'MA0004.0', 'MA0004.', 'MA0004.1.2', 'ＭＡ0004.1', 'MA０００4.1', 'MA0004.1\u202E', '',
  ])('matrix_id %j is refused on its row, quoted', (id) => {
    const files = new Map(base);
    const records = parseCsv((files.get('matrices.csv') as Buffer).toString('utf8')) as string[][];
    const index = records.findIndex((r) => r[0] === TARGET);
    records[index][0] = id;
    files.set('matrices.csv', Buffer.from(`${records.map((r) => r.map(quote).join(',')).join('\n')}\n`));
    const dir = path.join(root, `id-${n++}`);
    writeFiles(files, dir);
    try {
      expect(() => planSite({ dataDir: dir, outDir: path.join(dir, 'out'), baseUrl: FUZZ_BASE_URL })).toThrow(DatasetError);
      try {
        planSite({ dataDir: dir, outDir: path.join(dir, 'out'), baseUrl: FUZZ_BASE_URL });
      } catch (e) {
        const problems = (e as DatasetError).problems;
        expect(diagnosticFaults(problems, dir, files)).toEqual([]);
        expect(problems.some((p) => p.line === index + 1 && p.message.includes(`matrix_id ${oneLine(JSON.stringify(id))} is not`))).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['<script>.jaspar', 'a\nb.jaspar', 'MA0004.1 .jaspar', '\u202Egnp.jaspar'])('a matrix file named %j is reported on one line, quoted', (name) => {
    const files = new Map(base);
    files.set(`matrices/${name}`, Buffer.from('>x\ty\n'));
    const dir = path.join(root, `file-${n++}`);
    writeFiles(files, dir);
    try {
      let error: unknown;
      try {
        planSite({ dataDir: dir, outDir: path.join(dir, 'out'), baseUrl: FUZZ_BASE_URL });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatasetError);
      const problems = (error as DatasetError).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0].message).toMatch(/has no row in matrices\.csv/);
      expect(problems[0].message).not.toMatch(/[\u0000-\u001f\u202e]/);
      expect(problems[0].file).not.toMatch(/[\u0000-\u001f\u202e]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
