// Reading a JASPAR release in place: matrices.csv, matrices/<id>.jaspar,
// the optional pfm_noninteger.json and sites/<id>.bed. Every problem is
// collected (file:line, what is wrong, what to do) and reported at once.
// docs/parsing-behavior.md says what is accepted and why.
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { BASES, type Base, type Matrix, type Pfm, type Release, type ReleaseInfo, type Species } from './types.ts';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { ReleaseFolder, SIZE_LIMITS, readCapped, type FileKind } from './files.ts';
import { parseJson, type JsonNode } from './json.ts';
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
  // Links, special files and sizes: one policy (files.ts), the fingerprint's too.
  const folder = new ReleaseFolder(dataDir);
  const csvFile = path.join(dataDir, 'matrices.csv');
  const matrixDir = path.join(dataDir, 'matrices');
  const csvEntry = folder.entry(csvFile);
  if (csvEntry.kind === 'missing') {
    problems.add(rel(csvFile), 1, 'matrices.csv is missing', `point --data at a JASPAR release folder (it holds matrices.csv and matrices/)`);
  }
  const matrixEntry = folder.entry(matrixDir);
  if (matrixEntry.kind === 'refused') {
    problems.add(rel(matrixDir), 1, `the matrices/ folder ${matrixEntry.why}`, matrixEntry.fix);
  } else if (matrixEntry.kind !== 'dir') {
    problems.add(rel(matrixDir), 1, 'the matrices/ folder is missing', 'put one <matrix_id>.jaspar file per CSV row in matrices/');
  }
  if (problems.size > 0) throw new DatasetError(problems.items);

  const rows = readCsv(csvFile, rel(csvFile), problems, folder);
  // Without readable rows every file would look like an orphan: report the CSV alone.
  if (rows === null) throw new DatasetError(problems.items);
  const jasparFiles = new Map<string, string>();
  for (const name of readdirSync(matrixDir).sort()) {
    if (name.endsWith('.jaspar')) jasparFiles.set(name.slice(0, -'.jaspar'.length), path.join(matrixDir, name));
  }

  const noninteger = readNoninteger(path.join(dataDir, 'pfm_noninteger.json'), rel, problems, folder);
  const sitesDir = path.join(dataDir, 'sites');
  const bedFiles = new Map<string, string>();
  const sitesEntry = folder.entry(sitesDir);
  // Only a missing sites/ means "no binding sites": a dangling link there is a problem.
  if (sitesEntry.kind === 'file') {
    problems.add(rel(sitesDir), 1, 'sites is a file, not a folder', 'put one <matrix_id>.bed file per matrix in the sites/ folder, or remove it');
  } else if (sitesEntry.kind === 'refused') {
    problems.add(rel(sitesDir), 1, `the sites/ folder ${sitesEntry.why}`, sitesEntry.fix);
  } else if (sitesEntry.kind === 'dir') {
    for (const name of readdirSync(sitesDir).sort()) {
      if (name.endsWith('.bed')) bedFiles.set(name.slice(0, -'.bed'.length), path.join(sitesDir, name));
    }
  }

  const matrices: Matrix[] = [];
  const seen = new Map<string, number>();
  const spellings = new CaseSpellings();
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
    // Values that become path segments must not differ only in case: on
    // macOS and Windows file systems (and in archives unpacked there) the
    // two folders would be one. Ids are upper case by MATRIX_ID already.
    for (const column of ['collection', 'tax_group'] as const) {
      const clash = spellings.check(column, row.values[column], row.line);
      if (clash) at(`${column} ${q(row.values[column])} of ${id} differs only in case from ${q(clash.value)} (line ${clash.line})`, `spell it ${q(clash.value)} as on line ${clash.line}; values that differ only in case name the same folder on case-insensitive file systems`);
    }
    const species = readSpecies(row.values.species, row.values.tax_ids, (message, fix) => at(`${id}: ${message}`, fix));

    if (!jasparFile) {
      at(`no matrix file for ${id}`, `add ${path.join(rel(matrixDir), `${id}.jaspar`)} or remove the row`);
      return;
    }
    const counts = readJaspar(jasparFile, rel(jasparFile), id, name, problems, folder);
    if (!counts) return;
    let pfm = counts;
    if (precise) {
      pfm = checkNoninteger(precise, counts, id, problems) ?? counts;
    }
    let sites: string | null = null;
    if (bedFile) sites = readBed(bedFile, rel(bedFile), problems, folder);

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

/** The first spelling of each value, by column, compared without case. */
class CaseSpellings {
  private readonly first = new Map<string, { value: string; line: number }>();
  /** The earlier spelling value differs from only in case, or null. */
  check(column: string, value: string, line: number): { value: string; line: number } | null {
    if (value === '') return null;
    const key = `${column}\0${value.toLowerCase()}`;
    const earlier = this.first.get(key);
    if (earlier === undefined) {
      this.first.set(key, { value, line });
      return null;
    }
    return earlier.value === value ? null : earlier;
  }
}

interface CsvRow {
  line: number;
  values: Record<CsvColumn, string>;
}

/** The rows of matrices.csv, or null when the file as a whole cannot be read. */
function readCsv(file: string, shown: string, problems: ProblemList, folder?: ReleaseFolder): CsvRow[] | null {
  const text = readText(file, shown, problems, { folder, kind: 'csv' });
  if (text === null) return null;
  let records: { record: string[]; raw: string; info: { lines: number } }[];
  try {
    records = parse(text, { relax_column_count: true, info: true, raw: true, skip_empty_lines: false }) as unknown as typeof records;
  } catch (error) {
    const e = error as { code?: string; lines?: number; message: string };
    const line = e.code === 'CSV_QUOTE_NOT_CLOSED' ? openQuoteLine(text) : (e.lines ?? 1);
    // csv-parse quotes the field's text in some messages ("value is …"): the position is enough.
    const message = e.message.replace(/, value is .*$/s, '').slice(0, 200);
    problems.add(shown, line, `the CSV cannot be read: ${message}`, 'fix the quoting (RFC 4180: a field with a comma or quote is quoted, quotes doubled)');
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
 *  escaped, so that a value can never break a line of the report; cut
 *  after 60 characters, so that a wrong file given as input (a link to a
 *  private file, a binary) is never echoed into the log at length. */
export const q = (value: string) => (value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)` : JSON.stringify(value));
/** An id or file name inside a message: as it is when it is plain, else quoted. */
export const plain = (value: string) => (/^[A-Za-z0-9._-]+$/.test(value) ? value : q(value));

interface ReadOptions {
  /** The release folder: links and special files are checked against it (files.ts). */
  folder?: ReleaseFolder;
  /** What the file is: its size limit, and for csv the line ends people's tools write. */
  kind?: FileKind;
}

/** Reads a text file as strict UTF-8 with \n line ends and no BOM (matrices.csv: see csvText). */
export function readText(file: string, shown: string, problems: ProblemList, options: ReadOptions = {}): string | null {
  const kind = options.kind ?? 'other';
  // A loader without the release folder at hand still refuses special files and caps the size.
  const folder = options.folder ?? new ReleaseFolder(path.dirname(file));
  const read = folder.read(file, SIZE_LIMITS[kind]);
  if (!('bytes' in read)) {
    // A folder named like a file, a dangling link, a FIFO, a file without read permission.
    problems.add(shown, 1, `the file ${read.why}`, read.fix);
    return null;
  }
  let bytes = read.bytes;
  let ok = true;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    if (kind === 'csv') {
      // A spreadsheet's "CSV UTF-8": the BOM says nothing the file does not.
      bytes = bytes.subarray(3);
    } else {
      problems.add(shown, 1, 'the file starts with a byte order mark (BOM)', 'save it as UTF-8 without BOM');
      ok = false;
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const line = lineOfFirstInvalidUtf8(bytes);
    problems.add(shown, line, 'the file is not valid UTF-8 (Latin-1 or binary bytes?)', 'convert it to UTF-8');
    return null;
  }
  if (kind === 'csv') {
    const lf = csvText(text, shown, problems);
    return ok && lf !== null ? lf : null;
  }
  const cr = text.indexOf('\r');
  if (cr >= 0) {
    const line = text.slice(0, cr).split('\n').length;
    problems.add(shown, line, 'Windows (CRLF) or old Mac (CR) line endings', 'convert the line endings to \\n (e.g. dos2unix)');
    ok = false;
  }
  return ok ? text : null;
}

/**
 * matrices.csv as if it had \n line ends. Python's csv module (RFC 4180)
 * and spreadsheets write CRLF: a file whose every line ends in CRLF reads
 * exactly as the same file with LF. Refused, because no reading is the
 * obvious one: a file that mixes CRLF and LF (edited by two tools; the
 * report names the first line that differs from line 1), and a CR not
 * followed by LF (old Mac line ends, or a CR inside a cell).
 */
function csvText(text: string, shown: string, problems: ProblemList): string | null {
  const firstLf = text.indexOf('\n');
  const crlf = firstLf > 0 && text[firstLf - 1] === '\r';
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    if (text[i + 1] !== '\n') {
      problems.add(shown, lineAt(i), 'a carriage return (CR) that does not end a line (old Mac line ends, or a CR inside a cell)', 'end every line with \\n or every line with \\r\\n, and remove CRs from cells');
      return null;
    }
    if (!crlf) {
      problems.add(shown, lineAt(i), 'this line ends with CRLF where line 1 ends with LF (mixed line ends)', 'use one kind of line end in the whole file (e.g. dos2unix)');
      return null;
    }
  }
  if (!crlf) return text;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (text[i - 1] !== '\r') {
      problems.add(shown, lineAt(i), 'this line ends with LF where line 1 ends with CRLF (mixed line ends)', 'use one kind of line end in the whole file (e.g. dos2unix)');
      return null;
    }
  }
  return text.replace(/\r\n/g, '\n');
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

function readJaspar(file: string, shown: string, id: string, name: string, problems: ProblemList, folder?: ReleaseFolder): Pfm | null {
  const text = readText(file, shown, problems, { folder, kind: 'jaspar' });
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

/** What is wrong with a count as written, or null. Exported for other input kinds (official/). */
export function countProblem(token: string): string | null {
  if (token.startsWith('-')) return 'is negative';
  if (/^(nan|inf|infinity)$/i.test(token.replace(/^\+/, ''))) return 'is not a finite number';
  if (!COUNT.test(token)) return 'is not a number';
  const value = Number(token);
  // Compared as written: 9007199254740993 is a double equal to 2^53.
  // (A double below 2^53 was written below it: rounding never crosses a representable number.)
  if (!Number.isFinite(value) || (value >= MAX_COUNT && aboveMaxCount(token))) return `is too large (counts above 2^53 = ${MAX_COUNT} are not exact)`;
  // "1e-400" is not zero, but a double would make it one.
  if (value === 0 && /[1-9]/.test(token.replace(/[eE].*$/, ''))) return 'is too small to be told from 0';
  return null;
}

/** Whether a decimal token (COUNT) is above 2^53, exactly, whatever its digits and exponent. */
export function aboveMaxCount(token: string): boolean {
  const m = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(token);
  if (!m) return false;
  const fraction = m[2] ?? '';
  const digits = (m[1] + fraction).replace(/^0+/, '');
  if (digits === '') return false;
  const exponent = Number(m[3] ?? '0') - fraction.length;
  // Number of digits before the point: 2^53 has 16.
  const magnitude = digits.length + exponent;
  if (magnitude > 16) return true;
  if (magnitude < 16) return false;
  const max = 2n ** 53n;
  return exponent >= 0 ? BigInt(digits) * 10n ** BigInt(exponent) > max : BigInt(digits) > max * 10n ** BigInt(-exponent);
}

interface NonintegerEntry {
  file: string;
  line: number;
  pfm: Map<string, JsonNode>;
}

function readNoninteger(file: string, rel: (f: string) => string, problems: ProblemList, folder?: ReleaseFolder): Map<string, NonintegerEntry> {
  const entries = new Map<string, NonintegerEntry>();
  const shown = rel(file);
  // Absent means no full-precision counts; a dangling or looping link is not absent (readText reports it).
  if (folder?.entry(file).kind === 'missing') return entries;
  const text = readText(file, shown, problems, { folder, kind: 'json' });
  if (text === null) return entries;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problems.add(shown, parsed.line, `not valid JSON: ${parsed.message}`, 'repair the JSON');
    return entries;
  }
  // JSON.parse would keep the last of two equal keys without a word.
  for (const d of parsed.duplicates) {
    problems.add(shown, d.line, `the key ${q(d.key)} appears twice in one object (first on line ${d.first})`, 'keep one of the two');
  }
  const data = parsed.root;
  if (data.type !== 'object') {
    problems.add(shown, 1, 'expected an object mapping matrix_id to {pfm: {A, C, G, T}}', 'repair the JSON');
    return entries;
  }
  for (const [id, value] of data.entries) {
    const pfm = value.type === 'object' ? value.entries.get('pfm') : undefined;
    const line = data.keyLines.get(id) ?? value.line;
    if (pfm?.type !== 'object') {
      problems.add(shown, line, `${plain(id)} has no "pfm" object`, 'give {"pfm": {"A": [...], "C": [...], "G": [...], "T": [...]}}');
      continue;
    }
    entries.set(id, { file: shown, line, pfm: pfm.entries });
  }
  return entries;
}

function checkNoninteger(entry: NonintegerEntry, rounded: Pfm, id: string, problems: ProblemList): Pfm | null {
  const pfm = {} as Pfm;
  const before = problems.size;
  for (const base of BASES) {
    const raw = entry.pfm.get(base);
    if (raw?.type !== 'array' || raw.items.length !== rounded[base].length) {
      problems.add(entry.file, entry.line, `${id}: ${base} must be a list of ${rounded[base].length} numbers, like the .jaspar file`, 'give one value per column');
      continue;
    }
    pfm[base] = raw.items.map((v, col) => {
      // A number as written (its exact value is checked), a number string, or something else shown as JSON.
      const token = v.type === 'number' ? v.raw : v.type === 'string' ? v.value : v.type === 'literal' ? String(v.value) : v.type === 'array' ? '[…]' : '{…}';
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

/** A comment naming a matrix, as the block headers of pages that show several matrices' sites do (formats/bed.ts). */
const BLOCK_HEADER = /^#\s*[A-Za-z]{2}[0-9]{4}(\.[0-9]+)?(\s|$)/;
/** UCSC track line: "track" and key=value pairs, values quoted when they hold spaces. */
const TRACK_LINE = /^track([ \t]+[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|[^\s"]+))*[ \t]*$/;
/** UCSC browser line: "browser", a command, its arguments. */
const BROWSER_LINE = /^browser[ \t]+(position|hide|dense|pack|squish|full)([ \t]+[^\s]+)+[ \t]*$/;
/** A BED coordinate: a whole number, no sign, no leading zero (but 0). */
const COORDINATE = /^(0|[1-9][0-9]*)$/;
/** FORBIDDEN_CHARACTER but the tab, which separates BED fields. */
const FORBIDDEN_IN_BED = new RegExp(FORBIDDEN_CHARACTER.source.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000a-\\u001f'));
/** Whether a COORDINATE is above 2^53 (2^53 has 16 digits: shorter ones never are). */
const beyond = (digits: string) => digits.length >= 16 && aboveMaxCount(digits);

export function readBed(file: string, shown: string, problems: ProblemList, folder?: ReleaseFolder): string | null {
  const text = readText(file, shown, problems, { folder, kind: 'bed' });
  if (text === null) return null;
  const lines = text.split('\n');
  const before = problems.size;
  lines.forEach((line, i) => {
    const at = (message: string, fix: string) => problems.add(shown, i + 1, message, fix);
    if (line === '') return;
    // BED lines are served byte for byte: tab separates fields, nothing else may be a control.
    const bad = FORBIDDEN_IN_BED.exec(line);
    if (bad) {
      at(`the line contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, 'remove it; BED fields are separated by tabs and hold plain text');
      return;
    }
    if (line.startsWith('#')) {
      // Sites pages join several matrices' files under "# <id> <name>" lines:
      // such a comment in one file would attribute the sites after it to another matrix.
      if (BLOCK_HEADER.test(line)) at('a comment that names a matrix, like the "# <id> <name>" line that starts each matrix\'s sites where several are shown', 'remove the comment or reword it so that it does not start with a matrix id');
      return;
    }
    // The renderers skip every line starting with "track" or "browser": such a line must be one.
    if (line.startsWith('track')) {
      if (!TRACK_LINE.test(line)) at('a line starting with "track" that is not a UCSC track line (track key=value key="value with spaces" …)', 'write the track line as UCSC defines it, or rename the chromosome');
      return;
    }
    if (line.startsWith('browser')) {
      if (!BROWSER_LINE.test(line)) at('a line starting with "browser" that is not a UCSC browser line (browser position|hide|dense|pack|squish|full …)', 'write the browser line as UCSC defines it, or rename the chromosome');
      return;
    }
    const fields = line.split('\t');
    if (fields.length < 3) {
      at(`a BED line needs at least 3 tab-separated fields, this one has ${fields.length}`, 'write chrom<TAB>start<TAB>end[<TAB>name<TAB>score<TAB>strand]');
      return;
    }
    const [chrom, start, end] = fields;
    if (chrom === '' || /\s/.test(chrom)) at(`the chromosome ${q(chrom)} is empty or holds a space`, 'write the chromosome name, e.g. chr1');
    if (!COORDINATE.test(start) || !COORDINATE.test(end)) {
      at(`start ${q(start)} and end ${q(end)} are not whole numbers with start <= end`, 'use 0-based, half-open whole-number coordinates');
      return;
    }
    // Coordinates become JSON numbers (/api/v1/sites/<id>/): beyond 2^53 a double is not the number written.
    if (beyond(start) || beyond(end)) {
      at(`coordinate ${q(beyond(start) ? start : end)} is above 2^53 = ${MAX_COUNT}`, 'use the real coordinate; no genome is that long');
      return;
    }
    if (Number(start) > Number(end)) at(`start ${start} is after end ${end}`, 'use 0-based, half-open coordinates with start <= end');
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
    // A tax id names a folder (/api/v1/species/<tax_id>/) and is a JSON
    // number: "09606" would be another spelling of 9606, and beyond 2^53
    // the number written is not the number served (401 digits: Infinity).
    if (tax !== '' && (!/^(0|[1-9][0-9]*)$/.test(tax) || aboveMaxCount(tax))) {
      report(`tax id ${q(tax)} ${/^0/.test(tax) ? 'has a leading zero' : `is above 2^53 = ${MAX_COUNT}`}`, 'use NCBI taxonomy ids as NCBI writes them, e.g. 9606');
      return { taxId: null, name };
    }
    return { taxId: tax === '' ? null : Number(tax), name };
  });
}

/**
 * The text of the release description (--release). It lies outside the
 * release folder (data/release-<year>.yaml), so a link is followed, but like
 * every input it must be a regular file under its size limit, read as
 * strict UTF-8: a FIFO or a device given as --release is refused unopened.
 */
export function readReleaseText(file: string): string {
  const problems = new ProblemList();
  let read: { bytes: Buffer } | { why: string; fix: string };
  try {
    read = readCapped(realpathSync.native(file), SIZE_LIMITS.yaml);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    read = code === 'ENOENT' ? { why: 'is missing (or a dangling link)', fix: 'give the release description with --release FILE, e.g. data/release-2024.yaml' } : { why: `cannot be resolved (${code ?? 'error'})`, fix: 'give a readable file with --release' };
  }
  if ('bytes' in read) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      read = { why: 'is not valid UTF-8', fix: 'save it as UTF-8' };
    }
  }
  problems.add(file, 1, `the release description ${read.why}`, read.fix);
  throw new DatasetError(problems.items);
}

/** Keys of the release description and what each must be. */
const RELEASE_KEYS = {
  name: 'required',
  year: 'required',
  transfac_from: 'required',
  meme_url: 'required',
  citation: 'optional',
  license: 'optional',
} as const;

/**
 * The release description (data/release-<year>.yaml). Every value goes
 * into every page or text file, so each is checked with its line: strings
 * single-line (a newline in transfac_from would forge a line in every
 * TRANSFAC file), year a whole number from 1900 to 9999 (it names the
 * /api/v1/releases/<year>/ folder; .nan and 1e400 are numbers to YAML),
 * meme_url an http(s) URL without spaces.
 */
export function readReleaseInfo(text: string, load: (t: string) => unknown, file: string): ReleaseInfo {
  const problems = new ProblemList();
  let data: unknown;
  try {
    data = load(text);
  } catch (error) {
    // js-yaml: reason and a 0-based mark; its message quotes the file, which is left out.
    const e = error as { reason?: string; mark?: { line?: number }; message: string };
    problems.add(file, (e.mark?.line ?? 0) + 1, `not valid YAML: ${e.reason ?? e.message.split('\n')[0]}`, 'repair the YAML (one "key: value" per line)');
    throw new DatasetError(problems.items);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.add(file, 1, 'expected a mapping of keys (name, year, transfac_from, meme_url)', `write one "key: value" per line`);
    throw new DatasetError(problems.items);
  }
  const values = data as Record<string, unknown>;
  // The line of a top-level key; 1 when it cannot be found (written in flow style, say).
  const lineOf = (key: string) => {
    const i = text.split('\n').findIndex((l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`));
    return i < 0 ? 1 : i + 1;
  };
  const string = (key: keyof typeof RELEASE_KEYS): string => {
    const value = values[key];
    if (value === undefined && RELEASE_KEYS[key] === 'optional') return '';
    if (typeof value !== 'string') {
      problems.add(file, lineOf(key), `"${key}" must be a string`, value === undefined ? `add ${key}: to ${file}` : `quote the value of ${key}`);
      return '';
    }
    const bad = FORBIDDEN_CHARACTER.exec(value);
    if (bad) {
      problems.add(file, lineOf(key), `"${key}" contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} (line break, tab, bidirectional control or similar)`, 'write the value on one line, as plain text');
    }
    return value;
  };
  const name = string('name');
  if (typeof values.name === 'string' && name.trim() === '') problems.add(file, lineOf('name'), '"name" is empty', 'name the release, e.g. JASPAR 2024');
  const year = values.year;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1900 || year > 9999) {
    problems.add(file, lineOf('year'), `"year" must be a whole number from 1900 to 9999, not ${year === undefined ? 'missing' : q(String(year))}`, year === undefined ? `add year: to ${file}` : 'write the release year, e.g. 2024');
  }
  const transfacFrom = string('transfac_from');
  const memeUrl = string('meme_url');
  if (typeof values.meme_url === 'string' && !FORBIDDEN_CHARACTER.test(memeUrl) && !/^https?:\/\/[^\s]+$/.test(memeUrl)) {
    problems.add(file, lineOf('meme_url'), `"meme_url" ${q(memeUrl)} is not an http(s) URL without spaces`, 'write the URL, e.g. http://jaspar.genereg.net/matrix/{matrix_id}');
  }
  const citation = string('citation');
  const license = string('license');
  if (problems.size > 0) throw new DatasetError(problems.items);
  // The pages for people show the citation and licence; left out of the info when the description has none.
  return { name, year: year as number, transfacFrom, memeUrl, ...(citation ? { citation } : {}), ...(license ? { license } : {}) };
}

export type { Base };
