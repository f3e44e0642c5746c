// Reading a JASPAR release in place: matrices.csv, matrices/<id>.jaspar,
// the optional pfm_noninteger.json and sites/<id>.bed. Every problem is
// collected (file:line, what is wrong, what to do) and reported at once.
// docs/parsing-behavior.md says what is accepted and why.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { BASES, type Base, type Matrix, type Pfm, type Release, type ReleaseInfo, type Species } from './types.ts';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { pyFixed } from '../formats/numbers.ts';

export const CSV_COLUMNS = [
  'matrix_id', 'base_id', 'version', 'collection', 'name', 'tax_group', 'tf_class', 'tf_family',
  'data_type', 'species', 'tax_ids', 'uniprot_ids', 'pubmed_ids', 'source', 'comment', 'metadata_from',
] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Two capital letters, four digits, a dot, a version: also keeps every id a safe path segment. */
export const MATRIX_ID = /^([A-Z]{2}[0-9]{4})\.([1-9][0-9]{0,3})$/;
const COUNT = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
/** Above 2^53 a double cannot hold every whole number: the outputs would
 *  print a count other than the file's, and four such counts could sum to
 *  Infinity (MEME probabilities, logos). No real count comes near it. */
export const MAX_COUNT = 2 ** 53;
export const IDENTIFIER = /^[A-Za-z0-9_-]+$/;
// Characters that would forge new lines or fields in the text formats, or
// make a line display other than it reads: C0 and C1 controls (tab, newline,
// NEL U+0085…), the Unicode line and paragraph separators U+2028/U+2029
// (line breaks to YAML 1.1, Python's splitlines and JavaScript), and the
// bidirectional embedding, override and isolate controls U+202A–U+202E,
// U+2066–U+2069 ("Trojan Source"). Letters of right-to-left scripts,
// combining marks and astral characters are ordinary text and pass.
export const FORBIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function loadRelease(dataDir: string, info: ReleaseInfo): Release {
  const problems = new ProblemList();
  const rel = (file: string) => path.relative(process.cwd(), file) || file;
  const csvFile = path.join(dataDir, 'matrices.csv');
  const matrixDir = path.join(dataDir, 'matrices');
  if (!existsSync(csvFile)) {
    problems.add(rel(csvFile), 1, 'matrices.csv is missing', `point --data at a JASPAR release folder (it holds matrices.csv and matrices/)`);
  }
  if (!existsSync(matrixDir) || !statSync(matrixDir).isDirectory()) {
    problems.add(rel(matrixDir), 1, 'the matrices/ folder is missing', 'put one <matrix_id>.jaspar file per CSV row in matrices/');
  }
  if (problems.size > 0) throw new DatasetError(problems.items);

  const rows = readCsv(csvFile, rel(csvFile), problems);
  // Without readable rows every file would look like an orphan: report the CSV alone.
  if (rows === null) throw new DatasetError(problems.items);
  const jasparFiles = new Map<string, string>();
  for (const name of readdirSync(matrixDir).sort()) {
    if (name.endsWith('.jaspar')) jasparFiles.set(name.slice(0, -'.jaspar'.length), path.join(matrixDir, name));
  }

  const noninteger = readNoninteger(path.join(dataDir, 'pfm_noninteger.json'), rel, problems);
  const sitesDir = path.join(dataDir, 'sites');
  const bedFiles = new Map<string, string>();
  if (existsSync(sitesDir) && !statSync(sitesDir).isDirectory()) {
    problems.add(rel(sitesDir), 1, 'sites is a file, not a folder', 'put one <matrix_id>.bed file per matrix in the sites/ folder, or remove it');
  } else if (existsSync(sitesDir)) {
    for (const name of readdirSync(sitesDir).sort()) {
      if (name.endsWith('.bed')) bedFiles.set(name.slice(0, -'.bed'.length), path.join(sitesDir, name));
    }
  }

  const matrices: Matrix[] = [];
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const at = (message: string, fix: string) => problems.add(rel(csvFile), row.line, message, fix);
    const id = row.values.matrix_id;
    // The row claims its files whatever else is wrong with it, so that they
    // are not reported again as files without a row.
    const jasparFile = jasparFiles.get(id);
    jasparFiles.delete(id);
    const precise = noninteger.get(id);
    noninteger.delete(id);
    const bedFile = bedFiles.get(id);
    bedFiles.delete(id);
    const m = MATRIX_ID.exec(id);
    if (!m) {
      at(`matrix_id ${q(id)} is not <base_id>.<version> (two capital letters, four digits, a dot, a version number)`,
        'correct the id, e.g. MA0004.1');
      return;
    }
    const previous = seen.get(id);
    if (previous !== undefined) {
      at(`duplicate matrix_id ${plain(id)} (first on line ${previous})`, 'keep one row per matrix_id');
      return;
    }
    seen.set(id, row.line);
    if (row.values.base_id !== m[1]) at(`base_id ${q(row.values.base_id)} does not match matrix_id ${id}`, `set base_id to ${m[1]}`);
    if (row.values.version !== m[2]) at(`version ${q(row.values.version)} does not match matrix_id ${id}`, `set version to ${m[2]}`);
    const name = row.values.name;
    if (name.trim() === '') at(`matrix ${id} has an empty name`, 'fill in the name column');
    // Collections and taxonomic groups name URL path segments and bundle files
    // (/api/v1/collections/CORE/, JASPAR2024_CORE_vertebrates_…): they are
    // identifiers, as in every JASPAR release (CORE, PBM_HOMEO, vertebrates).
    if (!IDENTIFIER.test(row.values.collection)) {
      at(`collection ${q(row.values.collection)} of ${id} is not a plain identifier (letters, digits, "_" and "-")`, 'use the collection name JASPAR uses, e.g. CORE');
    }
    if (row.values.tax_group !== '' && !IDENTIFIER.test(row.values.tax_group)) {
      at(`tax_group ${q(row.values.tax_group)} of ${id} is not a plain identifier (letters, digits, "_" and "-")`, 'use the group name JASPAR uses, e.g. vertebrates, or leave it empty');
    }
    for (const column of CSV_COLUMNS) {
      const bad = FORBIDDEN_CHARACTER.exec(row.values[column]);
      if (bad) {
        at(`${column} of ${id} contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} (tab, line break, bidirectional control or similar)`,
          'remove it; names and annotations are single-line plain text');
      }
    }
    const species = readSpecies(row.values.species, row.values.tax_ids, (message, fix) => at(`${id}: ${message}`, fix));

    if (!jasparFile) {
      at(`no matrix file for ${id}`, `add ${path.join(rel(matrixDir), `${id}.jaspar`)} or remove the row`);
      return;
    }
    const counts = readJaspar(jasparFile, rel(jasparFile), id, name, problems);
    if (!counts) return;
    let pfm = counts;
    if (precise) {
      pfm = checkNoninteger(precise, counts, id, problems) ?? counts;
    }
    let sites: string | null = null;
    if (bedFile) sites = readBed(bedFile, rel(bedFile), problems);

    matrices.push({
      matrixId: id,
      baseId: m[1],
      version: Number(m[2]),
      collection: row.values.collection,
      name,
      pfm,
      taxGroup: row.values.tax_group,
      tfClass: splitList(row.values.tf_class),
      tfFamily: splitList(row.values.tf_family),
      dataType: row.values.data_type,
      species,
      uniprotIds: splitList(row.values.uniprot_ids),
      pubmedIds: splitList(row.values.pubmed_ids),
      source: row.values.source,
      comment: row.values.comment,
      sites,
      row: index,
    });
  });

  for (const [id, file] of jasparFiles) {
    problems.add(rel(file), 1, `matrix file ${plain(`${id}.jaspar`)} has no row in matrices.csv`, 'add its row to matrices.csv or delete the file');
  }
  for (const [id, entry] of noninteger) {
    problems.add(rel(entry.file), entry.line, `pfm_noninteger.json has counts for ${plain(id)}, which matrices.csv does not list`, 'remove the entry or add the matrix');
  }
  for (const [id, file] of bedFiles) {
    problems.add(rel(file), 1, `sites file ${plain(`${id}.bed`)} has no row in matrices.csv`, 'add the matrix or delete the file');
  }
  if (problems.size > 0) throw new DatasetError(problems.items);
  return { info, matrices };
}

interface CsvRow {
  line: number;
  values: Record<CsvColumn, string>;
}

/** The rows of matrices.csv, or null when the file as a whole cannot be read. */
function readCsv(file: string, shown: string, problems: ProblemList): CsvRow[] | null {
  const text = readText(file, shown, problems);
  if (text === null) return null;
  let records: { record: string[]; raw: string; info: { lines: number } }[];
  try {
    records = parse(text, { relax_column_count: true, info: true, raw: true, skip_empty_lines: false }) as unknown as typeof records;
  } catch (error) {
    const e = error as { code?: string; lines?: number; message: string };
    const line = e.code === 'CSV_QUOTE_NOT_CLOSED' ? openQuoteLine(text) : (e.lines ?? 1);
    problems.add(shown, line, `the CSV cannot be read: ${e.message}`, 'fix the quoting (RFC 4180: a field with a comma or quote is quoted, quotes doubled)');
    return null;
  }
  if (records.length === 0) {
    problems.add(shown, 1, 'matrices.csv is empty', `start it with the header line ${CSV_COLUMNS.join(',')}`);
    return null;
  }
  const header = records[0].record;
  const missing = CSV_COLUMNS.filter((c) => !header.includes(c));
  const extra = header.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  const duplicated = header.filter((c, i) => header.indexOf(c) !== i);
  if (missing.length > 0) problems.add(shown, 1, `missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, `the header must be ${CSV_COLUMNS.join(',')}`);
  if (extra.length > 0) problems.add(shown, 1, `unknown column${extra.length > 1 ? 's' : ''}: ${extra.map(q).join(', ')}`, `the header must be ${CSV_COLUMNS.join(',')}`);
  if (duplicated.length > 0) problems.add(shown, 1, `column${duplicated.length > 1 ? 's' : ''} named twice: ${duplicated.map(q).join(', ')}`, 'name each column once');
  if (missing.length > 0 || extra.length > 0 || duplicated.length > 0) return null;

  const rows: CsvRow[] = [];
  for (const { record, raw, info } of records.slice(1)) {
    // info.lines is where the record ends; a quoted field may span lines.
    const line = info.lines - (raw.replace(/\n$/, '').match(/\n/g)?.length ?? 0);
    if (record.length === 1 && record[0] === '') {
      problems.add(shown, line, 'empty line', 'remove the blank line');
      continue;
    }
    if (record.length !== header.length) {
      problems.add(shown, line, `${record.length} fields where the header has ${header.length}`, 'quote fields that contain commas, and give every row all columns');
      continue;
    }
    const values = {} as Record<CsvColumn, string>;
    header.forEach((column, i) => {
      values[column as CsvColumn] = record[i];
    });
    rows.push({ line, values });
  }
  return rows;
}

/** Line where an unclosed quoted field opens (RFC 4180 quoting). */
function openQuoteLine(text: string): number {
  let line = 1;
  let openedAt = 1;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') i++;
      else if (c === '"') quoted = false;
      else if (c === '\n') line++;
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      openedAt = line;
    }
    fieldStart = c === ',' || c === '\n';
    if (c === '\n') line++;
  }
  return openedAt;
}

/** A value from the dataset inside a message: quoted, control characters
 *  escaped, so that a value can never break a line of the report. */
export const q = (value: string) => JSON.stringify(value);
/** An id or file name inside a message: as it is when it is plain, else quoted. */
export const plain = (value: string) => (/^[A-Za-z0-9._-]+$/.test(value) ? value : q(value));

/** Reads a text file as strict UTF-8 with \n line ends and no BOM. */
export function readText(file: string, shown: string, problems: ProblemList): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    // A folder named like a file, a dangling link, a file without read permission.
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'EISDIR' ? 'is a folder, not a file' : code === 'ENOENT' ? 'cannot be opened (a broken link?)' : `cannot be read (${code})`;
    problems.add(shown, 1, `the file ${why}`, 'replace it with a readable file, or remove it');
    return null;
  }
  let ok = true;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    problems.add(shown, 1, 'the file starts with a byte order mark (BOM)', 'save it as UTF-8 without BOM');
    ok = false;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const line = lineOfFirstInvalidUtf8(bytes);
    problems.add(shown, line, 'the file is not valid UTF-8 (Latin-1 or binary bytes?)', 'convert it to UTF-8');
    return null;
  }
  const cr = text.indexOf('\r');
  if (cr >= 0) {
    const line = text.slice(0, cr).split('\n').length;
    problems.add(shown, line, 'Windows (CRLF) or old Mac (CR) line endings', 'convert the line endings to \\n (e.g. dos2unix)');
    ok = false;
  }
  return ok ? text : null;
}

function lineOfFirstInvalidUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line++;
      start = i + 1;
    }
  }
  return 1;
}

function readJaspar(file: string, shown: string, id: string, name: string, problems: ProblemList): Pfm | null {
  const text = readText(file, shown, problems);
  if (text === null) return null;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const before = problems.size;
  if (lines.length === 0) {
    problems.add(shown, 1, 'the matrix file is empty', `write the header >${id}\\t<name> and the rows A, C, G, T`);
    return null;
  }
  const header = /^>(\S+)\t(.*)$/.exec(lines[0]);
  if (!header) {
    problems.add(shown, 1, 'the first line is not a header ">ID<TAB>NAME"', `start the file with >${id}<TAB>${name}`);
  } else {
    if (header[1] !== id) problems.add(shown, 1, `the header names ${plain(header[1])} but the file is ${id}.jaspar`, 'make the file name and header id agree');
    if (header[2] !== name) problems.add(shown, 1, `the header names the matrix ${q(header[2])} but matrices.csv says ${q(name)}`, 'make the two names agree');
  }
  if (lines.length !== 5) {
    problems.add(shown, Math.min(lines.length, 5) + 1, `${lines.length - 1} count rows where a matrix has 4 (A, C, G, T)`, 'give exactly one row per base: A, C, G, T');
  }
  const pfm = {} as Pfm;
  BASES.forEach((base, i) => {
    const lineNo = i + 2;
    const line = lines[i + 1];
    if (line === undefined) return;
    const row = /^([ACGT])\s*\[(.*)\]\s*$/.exec(line);
    if (!row) {
      problems.add(shown, lineNo, `row ${i + 1} is not "${base}  [ counts ]"`, `write the ${base} row as ${base}  [ n n n ]`);
      return;
    }
    if (row[1] !== base) {
      problems.add(shown, lineNo, `row ${i + 1} is ${row[1]} where ${base} belongs`, 'order the rows A, C, G, T');
      return;
    }
    const tokens = row[2].trim().split(/\s+/).filter(Boolean);
    const values: number[] = [];
    tokens.forEach((token, col) => {
      const problem = countProblem(token);
      if (problem) {
        problems.add(shown, lineNo, `column ${col + 1} of ${base}: ${q(token)} ${problem}`, 'counts are non-negative decimal numbers');
      } else {
        values.push(Number(token));
      }
    });
    if (tokens.length === 0) problems.add(shown, lineNo, `the ${base} row has no counts`, 'write one count per column');
    pfm[base] = values;
  });
  if (problems.size > before) return null;
  const width = pfm.A.length;
  for (const base of BASES) {
    if (pfm[base].length !== width) {
      problems.add(shown, BASES.indexOf(base) + 2, `the ${base} row has ${pfm[base].length} columns where A has ${width}`, 'give every row the same number of columns');
    }
  }
  return problems.size > before ? null : pfm;
}

export function countProblem(token: string): string | null {
  if (token.startsWith('-')) return 'is negative';
  if (/^(nan|inf|infinity)$/i.test(token.replace(/^\+/, ''))) return 'is not a finite number';
  if (!COUNT.test(token)) return 'is not a number';
  const value = Number(token);
  if (!Number.isFinite(value) || value > MAX_COUNT) return `is too large (counts above 2^53 = ${MAX_COUNT} are not exact)`;
  // "1e-400" is not zero, but a double would make it one.
  if (value === 0 && /[1-9]/.test(token.replace(/[eE].*$/, ''))) return 'is too small to be told from 0';
  return null;
}

/** Offset of the first JSON syntax error in text (RFC 8259), or null when
 *  none is found (or the nesting is too deep to follow). */
function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const literal = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|true|false|null/y;
  const fail = (): never => {
    throw new JsonSyntaxAt(i);
  };
  const space = () => {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c < ' ') fail();
      if (c === '"') break;
      if (c === '\\') {
        if (text[i + 1] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail();
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i + 1] ?? 'x')) fail();
        i += 2;
        continue;
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] !== close) fail();
        i++;
        return;
      }
    }
    literal.lastIndex = i;
    if (!literal.exec(text)) fail();
    i = literal.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    if (error instanceof RangeError) return null; // nested deeper than the stack
    throw error;
  }
}

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}

interface NonintegerEntry {
  file: string;
  line: number;
  pfm: Record<string, unknown>;
}

function readNoninteger(file: string, rel: (f: string) => string, problems: ProblemList): Map<string, NonintegerEntry> {
  const entries = new Map<string, NonintegerEntry>();
  if (!existsSync(file)) return entries;
  const shown = rel(file);
  const text = readText(file, shown, problems);
  if (text === null) return entries;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the error in some messages (newlines and
    // all) and gives no position in them: find the position ourselves.
    const message = (error as Error).message.replace(/, ".*" is not valid JSON$/s, '');
    const offset = jsonErrorOffset(text);
    const line = offset === null ? 1 : text.slice(0, offset).split('\n').length;
    problems.add(shown, line, `not valid JSON: ${message}`, 'repair the JSON');
    return entries;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.add(shown, 1, 'expected an object mapping matrix_id to {pfm: {A, C, G, T}}', 'repair the JSON');
    return entries;
  }
  for (const [id, value] of Object.entries(data as Record<string, unknown>)) {
    const at = text.indexOf(JSON.stringify(id));
    const line = at < 0 ? 1 : text.slice(0, at).split('\n').length;
    const pfm = (value as { pfm?: unknown } | null)?.pfm;
    if (typeof pfm !== 'object' || pfm === null) {
      problems.add(shown, line, `${plain(id)} has no "pfm" object`, 'give {"pfm": {"A": [...], "C": [...], "G": [...], "T": [...]}}');
      continue;
    }
    entries.set(id, { file: shown, line, pfm: pfm as Record<string, unknown> });
  }
  return entries;
}

function checkNoninteger(entry: NonintegerEntry, rounded: Pfm, id: string, problems: ProblemList): Pfm | null {
  const pfm = {} as Pfm;
  const before = problems.size;
  for (const base of BASES) {
    const raw = entry.pfm[base];
    if (!Array.isArray(raw) || raw.length !== rounded[base].length) {
      problems.add(entry.file, entry.line, `${id}: ${base} must be a list of ${rounded[base].length} numbers, like the .jaspar file`, 'give one value per column');
      continue;
    }
    pfm[base] = raw.map((v, col) => {
      const token = typeof v === 'number' || typeof v === 'string' ? String(v) : JSON.stringify(v);
      const problem = countProblem(token);
      if (problem) {
        problems.add(entry.file, entry.line, `${id}: ${base} column ${col + 1} ${q(token)} ${problem}`, 'counts are non-negative decimal numbers');
        return 0;
      }
      const value = Number(token);
      // The .jaspar layout is "%6.0f" of these values: they must agree.
      if (Number(pyFixed(value, 0)) !== rounded[base][col]) {
        problems.add(entry.file, entry.line, `${id}: ${base} column ${col + 1} is ${token}, which rounds to ${pyFixed(value, 0)}, but the .jaspar file says ${rounded[base][col]}`, 'make the two sources agree');
      }
      return value;
    });
  }
  return problems.size > before ? null : pfm;
}

export function readBed(file: string, shown: string, problems: ProblemList): string | null {
  const text = readText(file, shown, problems);
  if (text === null) return null;
  const lines = text.split('\n');
  const before = problems.size;
  lines.forEach((line, i) => {
    if (line === '' || line.startsWith('#') || line.startsWith('track') || line.startsWith('browser')) return;
    const fields = line.split('\t');
    if (fields.length < 3) {
      problems.add(shown, i + 1, `a BED line needs at least 3 tab-separated fields, this one has ${fields.length}`, 'write chrom<TAB>start<TAB>end[<TAB>name<TAB>score<TAB>strand]');
      return;
    }
    const [, start, end] = fields;
    if (!/^[0-9]+$/.test(start) || !/^[0-9]+$/.test(end) || Number(start) > Number(end)) {
      problems.add(shown, i + 1, `start ${q(start)} and end ${q(end)} are not whole numbers with start <= end`, 'use 0-based, half-open whole-number coordinates');
    }
  });
  if (problems.size > before) return null;
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function splitList(cell: string): string[] {
  return cell === '' ? [] : cell.split(';').map((v) => v.trim());
}

function readSpecies(namesCell: string, taxCell: string, report: (message: string, fix: string) => void): Species[] {
  const names = splitList(namesCell);
  const taxIds = splitList(taxCell);
  if (taxIds.length > 0 && taxIds.length !== names.length) {
    report(`${names.length} species but ${taxIds.length} tax_ids`, 'give one tax id per species, in the same order (leave tax_ids empty if unknown)');
    return [];
  }
  return names.map((name, i) => {
    const tax = taxIds[i] ?? '';
    if (tax !== '' && !/^[0-9]+$/.test(tax)) {
      report(`tax id ${q(tax)} is not a number`, 'use NCBI taxonomy ids, e.g. 9606');
      return { taxId: null, name };
    }
    return { taxId: tax === '' ? null : Number(tax), name };
  });
}

export function readReleaseInfo(text: string, load: (t: string) => unknown, file: string): ReleaseInfo {
  const data = load(text) as Partial<Record<string, unknown>> | null;
  const problems = new ProblemList();
  const field = (key: string, type: 'string' | 'number') => {
    const value = data?.[key];
    if (typeof value !== type) problems.add(file, 1, `"${key}" must be a ${type}`, `add ${key}: to ${file}`);
    return value;
  };
  const info = {
    name: field('name', 'string') as string,
    year: field('year', 'number') as number,
    transfacFrom: field('transfac_from', 'string') as string,
    memeUrl: field('meme_url', 'string') as string,
  };
  if (problems.size > 0) throw new DatasetError(problems.items);
  return info;
}

export type { Base };
