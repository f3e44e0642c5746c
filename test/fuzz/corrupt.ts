// Corruptions of a real release, as plain data that fast-check generates and
// shrinks ({ kind, a, b, value }), and what each one must do to the build:
// 'reject' with a problem on a given file (and line), 'accept', or 'either'
// (the fuzz oracle then decides: a build must say exactly what the files say).
import { rmSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { makeRelease } from '../support/fixtures.ts';
import type { Files } from './oracle.ts';

/** Real matrices: versions of one base id (MA0014), full-precision counts
 *  (MA1972.1, MA2191.1), BED files (MA0014.2/3), a quoted CSV cell with
 *  commas (MA0079.2), several species; 12 rows, so two list pages. */
export const FUZZ_IDS = ['MA0004.1', 'MA0002.2', 'MA0074.1', 'MA1972.1', 'MA2191.1', 'UN0083.1', 'MA0014.2', 'MA0014.3', 'UN0498.1', 'MA0001.1', 'MA0001.2', 'MA0079.2'];

/** The fixture release in memory (BED files cut to their first 30 lines, to keep cases fast). */
export function baseFiles(ids = FUZZ_IDS): Files {
  const dir = makeRelease(ids);
  const files: Files = new Map();
  try {
    const walk = (rel: string) => {
      for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(r);
        else files.set(r, readFileSync(path.join(dir, r)));
      }
    };
    walk('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const [rel, content] of files) {
    if (rel.endsWith('.bed') && content instanceof Buffer) files.set(rel, Buffer.from(`${content.toString('utf8').split('\n').slice(0, 30).join('\n')}\n`));
  }
  return files;
}

/** Writes the files as a release folder (replacing what was there). */
export function writeFiles(files: Files, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'matrices'), { recursive: true });
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const file = path.join(dir, rel);
    if (content === 'dir') {
      mkdirSync(file, { recursive: true });
    } else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
}

// ------------------------------------------------------------ values

/** Strings that have broken renderers elsewhere: markup, quotes, paths, line and field breaks, Unicode. */
export const HOSTILE = [
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', `'";--`, '</pre><script>', '&amp;&lt;', ']]>', '<!--',
  '../../etc/passwd', '..\\..\\x', '/absolute', 'a\tb', 'a\nb', 'a\r\nb', 'a\rb', 'a\u2028b', 'a\u2029b', 'a\u0085b', 'a\u000bb', 'a\u0000b',
  '\u202Eevil\u202C', 'a\u2066b\u2069', '𝔄𝔯𝔫𝔱 🧬', 'עברית', 'مرحبا', 'e\u0301\u0302\u0303', 'Z\u0335\u0321\u0339a\u0336l', '\uFEFFx', '\uFFFD', '\uFFFF', '\u00A0nbsp',
  '{{x}}', '${x}', '- x', 'key: value', '#comment', '&anchor', '*alias', '!tag', '%x', '@x', '`x`', '|', '>x', '? x', '[x]', '{x: 1}',
  'null', 'true', 'no', '~', '1e3', '0x10', '007', '1_000', '.inf', ' lead', 'trail ', ' ', ',', ';', 'a;b', ' ; ', '\\', '\\n', '"', "'",
  '>MA0004.1\tfake', 'MOTIF MA9999.1 fake', '//', 'XX', 'A  [ 1 ]', 'http://evil.example/', 'javascript:alert(1)', 'x'.repeat(300),
];

/** Count tokens: invalid (sign, NaN, Infinity, huge, tiny, not decimal) and valid ones. */
export const TOKENS = [
  'NaN', 'nan', 'Infinity', '-Infinity', 'inf', '-1', '-0', '+3', '1e999', '1e400', '1e-400', '9007199254740993', '1e21', '1e300',
  '0x10', '1,5', '.5', '1.', '', '٣', '１', 'e5', '1e', '1e5', '0', '0.0', '12.5', '3e-5', '1E3', '9007199254740992', '4.4999999999999999',
];

export const valueArb = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.constantFrom(...TOKENS),
  fc.double({ noDefaultInfinity: false }).map(String),
  fc.nat().map(String),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 8 }),
);

// ------------------------------------------------------------ corruptions

export interface Spec {
  kind: Kind;
  a: number;
  b: number;
  value: string;
}

export interface Expectation {
  outcome: 'reject' | 'accept' | 'either';
  /** A problem must name this file (relative to the release folder)… */
  file?: string;
  /** …on this line. */
  line?: number;
}

const either: Expectation = { outcome: 'either' };
const reject = (file: string, line?: number): Expectation => ({ outcome: 'reject', file, line });
const accept: Expectation = { outcome: 'accept' };

const bytes = (files: Files, rel: string) => files.get(rel) as Buffer;
const str = (files: Files, rel: string) => bytes(files, rel).toString('utf8');
const pick = <T>(items: readonly T[], n: number): T => items[n % items.length];
const textFiles = (files: Files) => [...files].filter(([, c]) => c instanceof Buffer).map(([r]) => r).sort();
const jasparFiles = (files: Files) => textFiles(files).filter((r) => r.startsWith('matrices/') && r.endsWith('.jaspar'));
const bedFiles = (files: Files) => textFiles(files).filter((r) => r.startsWith('sites/'));
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const lineAt = (buf: Buffer, offset: number) => buf.subarray(0, offset).toString('latin1').split('\n').length;

function csvRecords(files: Files): string[][] | null {
  try {
    const records = parseCsv(str(files, 'matrices.csv'), { relax_column_count: true }) as string[][];
    // An earlier corruption (truncation, an emptied file) can leave no header to corrupt.
    return records.length > 0 && records[0].length > 1 ? records : null;
  } catch {
    return null;
  }
}
const writeCsv = (files: Files, records: string[][]) => files.set('matrices.csv', Buffer.from(`${records.map((r) => r.map(quote).join(',')).join('\n')}\n`));

/** Inserts raw bytes at an offset inside a text file; the problem is on the line of the offset. */
function insertBytes(files: Files, spec: Spec, insert: number[]): Expectation {
  const rel = pick(textFiles(files), spec.a);
  const buf = bytes(files, rel);
  const at = spec.b % (buf.length + 1);
  files.set(rel, Buffer.concat([buf.subarray(0, at), Buffer.from(insert), buf.subarray(at)]));
  return reject(rel, lineAt(buf, at));
}

function truncate(files: Files, rel: string, spec: Spec): Expectation {
  const buf = bytes(files, rel);
  files.set(rel, buf.subarray(0, spec.b % (buf.length + 1)));
  return either;
}

const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xfe]];

const KINDS = {
  // --- whole text files
  truncate: (f: Files, s: Spec) => truncate(f, pick(textFiles(f), s.a), s),
  crlf: (f: Files, s: Spec) => {
    const rel = pick(textFiles(f), s.a);
    const t = str(f, rel);
    if (!t.includes('\n')) return either;
    f.set(rel, Buffer.from(t.replace(/\n/g, '\r\n')));
    // matrices.csv as Python's csv module writes it: read as the LF file (issue 12 §3).
    return rel === 'matrices.csv' ? accept : reject(rel, 1);
  },
  bom: (f: Files, s: Spec) => {
    const rel = pick(textFiles(f), s.a);
    f.set(rel, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(f, rel)]));
    // matrices.csv as a spreadsheet saves it; a second BOM would be part of the first column's name.
    return rel === 'matrices.csv' && !str(f, rel).startsWith('\uFEFF\uFEFF') ? accept : reject(rel, 1);
  },
  /** matrices.csv with CRLF on some lines and LF on others: refused on the first line that differs from line 1. */
  csvMixedLineEnds: (f: Files, s: Spec) => {
    const t = str(f, 'matrices.csv');
    if (t.includes('\r')) return either;
    const lines = t.split('\n');
    if (lines.length < 3) return either;
    const at = 1 + (s.a % (lines.length - 2));
    lines[at] += '\r';
    f.set('matrices.csv', Buffer.from(lines.join('\n')));
    return reject('matrices.csv', at + 1);
  },
  latin1: (f: Files, s: Spec) => insertBytes(f, s, [0xe9]), // "é" as Latin-1
  invalidUtf8: (f: Files, s: Spec) => insertBytes(f, s, pick(INVALID_UTF8, s.a >> 4)),
  empty: (f: Files, s: Spec) => {
    const rel = pick(textFiles(f), s.a);
    f.set(rel, Buffer.alloc(0));
    return rel.startsWith('sites/') ? accept : reject(rel, 1);
  },
  byteFlip: (f: Files, s: Spec) => {
    const rel = pick(textFiles(f), s.a);
    const buf = Buffer.from(bytes(f, rel));
    if (buf.length === 0) return either;
    buf[s.b % buf.length] = s.value.charCodeAt(0) & 0xff;
    f.set(rel, buf);
    return either;
  },
  randomBytes: (f: Files, s: Spec) => {
    f.set(pick(textFiles(f), s.a), Buffer.from(s.value, 'latin1'));
    return either;
  },
  // --- matrices.csv
  csvSwapColumns: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records) return either;
    const i = s.a % records[0].length;
    const j = s.b % records[0].length;
    for (const r of records) [r[i], r[j]] = [r[j], r[i]];
    writeCsv(f, records);
    return accept; // the header names the columns; their order is free
  },
  csvSwapCells: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    const r = records[1 + (s.a % (records.length - 1))];
    const i = s.b % r.length;
    const j = (s.b >> 4) % r.length;
    [r[i], r[j]] = [r[j], r[i]];
    writeCsv(f, records);
    return either;
  },
  csvDuplicateHeader: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records) return either;
    const i = s.a % records[0].length;
    const j = (i + 1 + (s.b % (records[0].length - 1))) % records[0].length;
    records[0][j] = records[0][i];
    writeCsv(f, records);
    return reject('matrices.csv', 1);
  },
  csvDropField: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    const r = 1 + (s.a % (records.length - 1));
    records[r].splice(s.b % records[r].length, 1);
    writeCsv(f, records);
    return reject('matrices.csv', r + 1);
  },
  csvAddField: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    const r = 1 + (s.a % (records.length - 1));
    records[r].splice(s.b % (records[r].length + 1), 0, s.value);
    writeCsv(f, records);
    return s.value.includes('\n') || s.value.includes('\r') ? either : reject('matrices.csv', r + 1);
  },
  csvDuplicateRow: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    records.push([...records[1 + (s.a % (records.length - 1))]]);
    writeCsv(f, records);
    return reject('matrices.csv', records.length);
  },
  csvDeleteRow: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    const [row] = records.splice(1 + (s.a % (records.length - 1)), 1);
    writeCsv(f, records);
    return reject(`matrices/${row[0]}.jaspar`, 1); // its file has no row now
  },
  csvOnlyHeader: (f: Files) => {
    const records = csvRecords(f);
    if (!records) return either;
    writeCsv(f, records.slice(0, 1));
    return reject(pick(jasparFiles(f), 0), 1);
  },
  csvBlankLine: (f: Files, s: Spec) => {
    const lines = str(f, 'matrices.csv').split('\n');
    const at = 1 + (s.a % (lines.length - 1));
    lines.splice(at, 0, '');
    f.set('matrices.csv', Buffer.from(lines.join('\n')));
    return reject('matrices.csv', at + 1);
  },
  csvStrayQuote: (f: Files, s: Spec) => {
    const t = str(f, 'matrices.csv');
    const at = s.b % (t.length + 1);
    f.set('matrices.csv', Buffer.from(t.slice(0, at) + '"' + t.slice(at)));
    return either;
  },
  /** A cell set to a random or hostile value; a new name goes into the .jaspar header too (or not, when b is odd). */
  csvSetCell: (f: Files, s: Spec) => {
    const records = csvRecords(f);
    if (!records || records.length < 2) return either;
    const r = records[1 + (s.a % (records.length - 1))];
    const column = s.b % records[0].length;
    const id = r[records[0].indexOf('matrix_id')];
    r[column] = s.value;
    writeCsv(f, records);
    const jaspar = `matrices/${id}.jaspar`;
    if (records[0][column] === 'name' && s.b % 2 === 0 && f.get(jaspar) instanceof Buffer) {
      const lines = str(f, jaspar).split('\n');
      lines[0] = `>${id}\t${s.value}`;
      f.set(jaspar, Buffer.from(lines.join('\n')));
    }
    return either;
  },
  // --- matrices/*.jaspar
  jasparDropRow: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    lines.splice(1 + (s.b % 4), 1);
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel);
  },
  jasparDuplicateRow: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const i = 1 + (s.b % 4);
    lines.splice(i, 0, lines[i]);
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel);
  },
  jasparSwapRows: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const i = 1 + (s.b % 4);
    const j = 1 + ((s.b % 4) + 1 + ((s.b >> 2) % 3)) % 4;
    [lines[i], lines[j]] = [lines[j], lines[i]];
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel, Math.min(i, j) + 1);
  },
  jasparSetCount: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const row = 1 + (s.b % 4);
    const m = /^(\S+\s*\[)(.*)(\].*)$/.exec(lines[row]);
    if (!m) return either;
    const tokens = m[2].trim().split(/\s+/);
    tokens[(s.b >> 2) % tokens.length] = s.value;
    lines[row] = `${m[1]} ${tokens.join(' ')} ${m[3]}`;
    f.set(rel, Buffer.from(lines.join('\n')));
    return either;
  },
  jasparDropCount: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const row = 1 + (s.b % 4);
    // A file an earlier corruption cut short may have no such row: nothing to drop, the earlier one decides.
    if (lines[row] === undefined || !/\[\s*\S+/.test(lines[row])) return either;
    lines[row] = lines[row].replace(/\[\s*\S+/, '[');
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel);
  },
  jasparHeaderSpace: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    f.set(rel, Buffer.from(str(f, rel).replace('\t', ' ')));
    return reject(rel, 1);
  },
  jasparHeaderId: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    f.set(rel, Buffer.from(str(f, rel).replace(/^>\S+/, '>MA9998.1')));
    return reject(rel, 1);
  },
  jasparDelete: (f: Files, s: Spec) => {
    f.delete(pick(jasparFiles(f), s.a));
    return reject('matrices.csv');
  },
  jasparOrphan: (f: Files, s: Spec) => {
    f.set('matrices/MA9999.1.jaspar', Buffer.from(str(f, pick(jasparFiles(f), s.a)).replace(/^>\S+/, '>MA9999.1')));
    return reject('matrices/MA9999.1.jaspar', 1);
  },
  jasparIsFolder: (f: Files, s: Spec) => {
    const rel = pick(jasparFiles(f), s.a);
    f.set(rel, 'dir');
    return reject(rel, 1);
  },
  // --- pfm_noninteger.json
  jsonSetValue: (f: Files, s: Spec) => {
    if (!f.has('pfm_noninteger.json')) return either;
    let data: Record<string, { pfm: Record<string, unknown[]> }>;
    try {
      data = JSON.parse(str(f, 'pfm_noninteger.json'));
    } catch {
      return either;
    }
    const ids = Object.keys(data);
    if (ids.length === 0) return either;
    const row = data[pick(ids, s.a)].pfm[pick(['A', 'C', 'G', 'T'], s.b)];
    if (!Array.isArray(row) || row.length === 0) return either;
    const values: unknown[] = [null, true, -1, [1], {}, s.value, Number(s.value)];
    row[(s.b >> 2) % row.length] = pick(values, s.b >> 5);
    f.set('pfm_noninteger.json', Buffer.from(JSON.stringify(data, null, 1)));
    return either;
  },
  jsonDelete: (f: Files) => {
    f.delete('pfm_noninteger.json');
    return accept; // the .jaspar counts are used instead
  },
  jsonDeleteEntry: (f: Files, s: Spec) => {
    try {
      const data = JSON.parse(str(f, 'pfm_noninteger.json')) as Record<string, unknown>;
      delete data[pick(Object.keys(data), s.a)];
      f.set('pfm_noninteger.json', Buffer.from(JSON.stringify(data, null, 1)));
      return accept;
    } catch {
      return either;
    }
  },
  // --- sites/*.bed
  bedSwapStartEnd: (f: Files, s: Spec) => {
    const rel = pick(bedFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const i = s.b % Math.max(1, lines.length - 1);
    const fields = lines[i].split('\t');
    if (fields.length < 3 || fields[1] === fields[2]) return either;
    [fields[1], fields[2]] = [fields[2], fields[1]];
    lines[i] = fields.join('\t');
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel, i + 1);
  },
  bedTrackLine: (f: Files, s: Spec) => {
    const rel = pick(bedFiles(f), s.a);
    f.set(rel, Buffer.from(`track name="sites" description="x"\n${str(f, rel)}`));
    return accept;
  },
  bedShortLine: (f: Files, s: Spec) => {
    const rel = pick(bedFiles(f), s.a);
    const lines = str(f, rel).split('\n');
    const i = s.b % Math.max(1, lines.length - 1);
    lines[i] = lines[i].split('\t').slice(0, 2).join('\t');
    f.set(rel, Buffer.from(lines.join('\n')));
    return reject(rel, i + 1);
  },
  sitesIsFile: (f: Files) => {
    for (const rel of bedFiles(f)) f.delete(rel);
    f.set('sites', Buffer.from('not a folder\n'));
    return reject('sites', 1);
  },
} satisfies Record<string, (files: Files, spec: Spec) => Expectation>;

export type Kind = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as Kind[];

export const specArb: fc.Arbitrary<Spec> = fc.record({
  kind: fc.constantFrom(...KIND_NAMES),
  a: fc.nat({ max: 1 << 20 }),
  b: fc.nat({ max: 1 << 20 }),
  value: valueArb,
});

/** Applies the corruptions in order; with more than one the outcome is the oracle's to judge. */
export function corrupt(files: Files, specs: Spec[]): Expectation {
  let expectation: Expectation = accept;
  for (const spec of specs) {
    if (!files.has('matrices.csv') || textFiles(files).length === 0) return either;
    if ((spec.kind.startsWith('bed') && bedFiles(files).length === 0) || (spec.kind.startsWith('jaspar') && jasparFiles(files).length === 0)) continue;
    expectation = KINDS[spec.kind](files, spec);
  }
  return specs.length > 1 ? either : expectation;
}
