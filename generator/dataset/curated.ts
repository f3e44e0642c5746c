// Reading a curated JASPAR release in place: matrices.csv, matrices/<id>.jaspar,
// the optional pfm_noninteger.json and sites/<id>.bed. Every problem is
// collected (file:line, what is wrong, what to do) and reported at once.
// docs/parsing-behavior.md says what is accepted and why. (JASPAR's own
// download files are read by official/; read.ts picks the reader.)
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { BASES, type Matrix, type Pfm, type Release, type ReleaseInfo, type Species } from './types.ts';
import { DatasetError, ProblemList } from './diagnostics.ts';
import { ReleaseFolder } from './files.ts';
import { parseJson, type JsonNode } from './json.ts';
import { readBed } from './bed.ts';
import { checkSites, withSites, type SitesChecked } from './sites.ts';
import { FORBIDDEN_CHARACTER, IDENTIFIER, MATRIX_ID, MAX_COUNT, aboveMaxCount, countProblem, plain, q, readText } from './text.ts';
import { pyFixed } from './numbers.ts';
import type { ParsedFiles } from './parsed-files.ts';

export const CSV_COLUMNS = [
  'matrix_id', 'base_id', 'version', 'collection', 'name', 'tax_group', 'tf_class', 'tf_family',
  'data_type', 'species', 'tax_ids', 'uniprot_ids', 'pubmed_ids', 'source', 'comment', 'metadata_from',
] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

/** parsed: what earlier builds made of the same files (parsed-files.ts), used where the file is unchanged. */
export function loadRelease(dataDir: string, info: ReleaseInfo, parsed?: ParsedFiles): Release {
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

  const rows = parsed
    ? parsed.checked(realIn(folder, '', csvFile), 'csv', rel(csvFile), problems, (found) => readCsv(csvFile, rel(csvFile), found, folder))
    : readCsv(csvFile, rel(csvFile), problems, folder);
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
    const counts = parsed
      ? parsed.jaspar(realIn(folder, 'matrices', jasparFile), id, name, () => readJaspar(jasparFile, rel(jasparFile), id, name, problems, folder))
      : readJaspar(jasparFile, rel(jasparFile), id, name, problems, folder);
    if (!counts) return;
    let pfm = counts;
    if (precise) {
      pfm = checkNoninteger(precise, counts, id, problems) ?? counts;
    }
    let sites: string | SitesChecked | null = null;
    if (bedFile) sites = parsed ? parsed.bed(realIn(folder, 'sites', bedFile), () => readBed(bedFile, rel(bedFile), problems, folder), checkSites) : readBed(bedFile, rel(bedFile), problems, folder);

    const record: Omit<Matrix, 'sites'> = {
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
      row: index,
    };
    // Read from the file when asked, not held (sites.ts).
    matrices.push(withSites<Matrix>(record, bedFile ? realIn(folder, 'sites', bedFile) : null, sites));
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

/** A file's path under the folder's real path (the key its content hash has, when no link lies on the way; else no hash is found and the file is read).
 *  Joined by hand: the real path is absolute and normalized, sub a plain folder name and the file's name has no "/", so path.join
 *  would give the same text; with path.join and basename for each of 5,600 files it was 0.2 s of a rebuild's plan at load. */
const realIn = (folder: ReleaseFolder, sub: string, file: string): string | null => {
  if (folder.real === null) return null;
  const name = file.slice(file.lastIndexOf(path.sep) + 1);
  const root = folder.real.endsWith(path.sep) ? folder.real : `${folder.real}${path.sep}`;
  return sub === '' ? `${root}${name}` : `${root}${sub}${path.sep}${name}`;
};

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
  const records = plainCsv(text) ?? parsedCsv(text, shown, problems);
  if (records === null) return null;
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
  for (const { record, line } of records.slice(1)) {
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

/**
 * The records of a CSV text as RFC 4180 writes it with "\n" line ends, and the line each starts on: fields quoted
 * whole ("" for a quote) or not at all, no blank line, no "\r". Null for anything else, which csv-parse reads and
 * reports (parsedCsv). As csv-parse reads such a text (test/dataset/load.test.ts compares them), in a tenth of its
 * time: an annotation edit's rebuild parses matrices.csv again, about 0.06 s of its plan with csv-parse (issue 22).
 */
export function plainCsv(text: string): { record: string[]; line: number }[] | null {
  if (text.includes('\r')) return null;
  const records: { record: string[]; line: number }[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    // A blank line: csv-parse's record of one empty field, left to it.
    if (text.charCodeAt(i) === 10) return null;
    const record: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === 34) {
        let value = '';
        let j = i + 1;
        for (;;) {
          const quote = text.indexOf('"', j);
          if (quote < 0) return null;
          value += text.slice(j, quote);
          if (text.charCodeAt(quote + 1) === 34) {
            value += '"';
            j = quote + 2;
            continue;
          }
          i = quote + 1;
          break;
        }
        for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) line++;
        // Anything between the closing quote and the field's end: csv-parse's error.
        if (i < n && text.charCodeAt(i) !== 44 && text.charCodeAt(i) !== 10) return null;
        record.push(value);
      } else {
        let j = i;
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === 44 || c === 10) break;
          // A quote inside an unquoted field: csv-parse's error.
          if (c === 34) return null;
        }
        record.push(text.slice(i, j));
        i = j;
      }
      if (i >= n) break;
      const c = text.charCodeAt(i++);
      if (c === 10) {
        line++;
        break;
      }
    }
    records.push({ record, line: start });
  }
  return records;
}

/** The records of a CSV text by csv-parse, and the line each starts on; null, with the problem, when it cannot be read. */
function parsedCsv(text: string, shown: string, problems: ProblemList): { record: string[]; line: number }[] | null {
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
  // info.lines is where the record ends; a quoted field may span lines.
  return records.map(({ record, raw, info }) => ({ record, line: info.lines - (raw.replace(/\n$/, '').match(/\n/g)?.length ?? 0) }));
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
