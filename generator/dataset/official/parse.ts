// Parsers of JASPAR's own download files: the jaspar and MEME bundles, the
// TRANSFAC exports and the metadata table. Each turns one file's text into
// records that remember their line, and reports what it cannot read (file:line,
// what, fix) without stopping: merge.ts decides what the records mean together.
import { BASES, type Pfm } from '../types.ts';
import type { ProblemList } from '../diagnostics.ts';
import { countProblem, q } from '../text.ts';

export interface Located {
  /** The file as shown in messages (relative to the working folder). */
  file: string;
  line: number;
}

/** One matrix with counts: a jaspar bundle record (whole numbers, as JASPAR prints them) or a TRANSFAC record (full precision). */
export interface CountRecord extends Located {
  id: string;
  name: string;
  pfm: Pfm;
  /** TRANSFAC annotations (`CC key:value`), key → value and its line; empty for jaspar records. */
  cc: Map<string, { value: string; line: number }>;
}

/** A MEME motif: probabilities as printed, kept as text to compare with what our counts print. */
export interface MemeRecord extends Located {
  id: string;
  name: string;
  nsites: string;
  /** Per column, the four probabilities (A, C, G, T) as written. */
  rows: string[][];
  rowLines: number[];
}

export const METADATA_COLUMNS = [
  'collection', 'tax_group', 'matrix_id', 'base_id', 'version', 'name', 'class', 'family',
  'uniprot_ids', 'validation', 'comment', 'source', 'type', 'tax_id', 'species',
] as const;
export type MetadataColumn = (typeof METADATA_COLUMNS)[number];

export interface MetadataRow extends Located {
  values: Record<MetadataColumn, string>;
}

const lines = (text: string) => {
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
};

/** Counts of one row, every bad token reported; null when any is bad. */
function counts(tokens: string[], file: string, line: number, what: (col: number) => string, problems: ProblemList): number[] | null {
  const values: number[] = [];
  let ok = true;
  tokens.forEach((token, col) => {
    const problem = countProblem(token);
    if (problem) {
      problems.add(file, line, `${what(col)}: ${q(token)} ${problem}`, 'counts are non-negative decimal numbers');
      ok = false;
    } else values.push(Number(token));
  });
  return ok ? values : null;
}

/** A jaspar bundle: records of a `>ID<TAB>NAME` line and the rows A, C, G, T, as in matrices/<id>.jaspar. */
export function parseJasparBundle(text: string, file: string, problems: ProblemList): CountRecord[] {
  const records: CountRecord[] = [];
  const all = lines(text);
  let i = 0;
  while (i < all.length) {
    const start = i + 1;
    const header = /^>(\S+)\t(.*)$/.exec(all[i]);
    if (!header) {
      problems.add(file, start, all[i] === '' ? 'empty line' : 'expected a record header ">ID<TAB>NAME"', all[i] === '' ? 'remove the blank line' : 'start each record with >MATRIX_ID<TAB>NAME, then its rows A, C, G, T');
      // Skip to the next header: one broken record is reported once.
      i++;
      while (i < all.length && !all[i].startsWith('>')) i++;
      continue;
    }
    i++;
    const pfm = {} as Pfm;
    let ok = true;
    for (const base of BASES) {
      const lineNo = i + 1;
      const line = all[i];
      const row = line === undefined || line.startsWith('>') ? null : /^([ACGT])\s*\[(.*)\]\s*$/.exec(line);
      if (!row || row[1] !== base) {
        problems.add(file, lineNo, line === undefined || line.startsWith('>') ? `${header[1]} has no ${base} row` : `row ${q(line.slice(0, 40))} is not "${base}  [ counts ]"`,
          `give ${header[1]} exactly four rows A, C, G, T`);
        ok = false;
        if (line === undefined || line.startsWith('>')) break;
        i++;
        continue;
      }
      const tokens = row[2].trim().split(/\s+/).filter(Boolean);
      if (tokens.length === 0) {
        problems.add(file, lineNo, `the ${base} row of ${header[1]} has no counts`, 'write one count per column');
        ok = false;
      }
      const values = counts(tokens, file, lineNo, (col) => `column ${col + 1} of ${base} in ${header[1]}`, problems);
      if (values) pfm[base] = values;
      else ok = false;
      i++;
    }
    // Lines up to the next header belong to no record.
    while (i < all.length && !all[i].startsWith('>')) {
      problems.add(file, i + 1, `line after the T row of ${header[1]}`, 'a record has four rows: remove the line or start a record with >ID<TAB>NAME');
      ok = false;
      i++;
    }
    if (ok && !sameWidth(pfm, header[1], file, start, problems)) ok = false;
    if (ok) records.push({ file, line: start, id: header[1], name: header[2], pfm, cc: new Map() });
  }
  return records;
}

function sameWidth(pfm: Pfm, id: string, file: string, line: number, problems: ProblemList): boolean {
  const widths = BASES.map((b) => pfm[b].length);
  if (widths.every((w) => w === widths[0])) return true;
  problems.add(file, line, `the rows of ${id} have ${widths.join(', ')} columns (A, C, G, T)`, 'give every row the same number of columns');
  return false;
}

/** A TRANSFAC export as JASPAR writes it: AC, ID, DE, a `PO A C G T` header and
 *  numbered rows, `CC key:value` lines, records ended by `//`. Other line
 *  codes (XX, BF, NA…) carry nothing the mirror serves and are skipped. */
export function parseTransfac(text: string, file: string, problems: ProblemList): CountRecord[] {
  const records: CountRecord[] = [];
  const all = lines(text);
  let current: { line: number; ac?: string; id?: string; de?: { id: string; name: string; line: number }; header?: string[]; rows: { line: number; tokens: string[] }[]; cc: CountRecord['cc']; bad: boolean } | null = null;
  const finish = (endLine: number) => {
    if (!current) return;
    const r = current;
    current = null;
    const at = r.ac ?? 'the record';
    if (r.ac === undefined) problems.add(file, r.line, 'a record without an AC line', 'start each record with AC <matrix_id>');
    if (r.id === undefined && r.de === undefined) problems.add(file, r.line, `${at} has no ID line`, 'add ID <name>');
    if (r.header === undefined) problems.add(file, r.line, `${at} has no "PO A C G T" line`, 'add the PO header before the count rows');
    if (r.rows.length === 0) problems.add(file, endLine, `${at} has no count rows`, 'add one numbered row per column');
    if (r.ac === undefined || (r.id === undefined && r.de === undefined) || r.header === undefined || r.rows.length === 0 || r.bad) return;
    const pfm = { A: [], C: [], G: [], T: [] } as Pfm;
    let ok = true;
    for (const row of r.rows) {
      const values = counts(row.tokens, file, row.line, (col) => `column ${r.header![col]} of ${r.ac}`, problems);
      if (!values) {
        ok = false;
        continue;
      }
      r.header.forEach((base, col) => pfm[base as keyof Pfm].push(values[col]));
    }
    const name = r.id ?? r.de!.name;
    if (r.de && r.de.id !== r.ac) {
      problems.add(file, r.de.line, `the DE line names ${q(r.de.id)} but AC is ${r.ac}`, 'make AC and DE name the same matrix');
      ok = false;
    }
    if (r.de && r.id !== undefined && r.de.name !== r.id) {
      problems.add(file, r.de.line, `the DE line names ${r.ac} ${q(r.de.name)} but ID says ${q(r.id)}`, 'make ID and DE agree');
      ok = false;
    }
    if (ok) records.push({ file, line: r.line, id: r.ac, name, pfm, cc: r.cc });
  };
  all.forEach((text, index) => {
    const lineNo = index + 1;
    if (text === '') return;
    if (text.startsWith('//')) {
      if (!current) problems.add(file, lineNo, '"//" without a record', 'remove it');
      finish(lineNo);
      return;
    }
    const code = text.slice(0, 2);
    const rest = text.slice(2).replace(/^[ \t]/, '');
    if (code === 'AC' && current) {
      problems.add(file, current.line, `record ${current.ac ?? ''} is not ended by "//"`, 'end each record with a // line');
      finish(lineNo);
    }
    current ??= { line: lineNo, rows: [], cc: new Map(), bad: false };
    const r = current;
    if (code === 'AC') r.ac = rest.trim();
    else if (code === 'ID') r.id = rest;
    else if (code === 'DE') {
      // "DE MA0004.1 Arnt ; From JASPAR": the id, then the name up to " ; ".
      const de = /^(\S+) (.*?)(?: ; .*)?$/.exec(rest);
      if (de) r.de = { id: de[1], name: de[2], line: lineNo };
    } else if (code === 'PO' || code === 'P0') {
      const header = rest.trim().split(/\s+/);
      if (header.length !== 4 || [...header].sort().join('') !== 'ACGT') {
        problems.add(file, lineNo, `the count header names ${q(rest.trim())}, not the four bases`, 'write PO<TAB>A<TAB>C<TAB>G<TAB>T');
        r.bad = true;
      } else r.header = header;
    } else if (/^[0-9]{2}$/.test(code)) {
      const tokens = rest.trim().split(/\s+/).filter(Boolean);
      if (r.header === undefined) {
        problems.add(file, lineNo, 'a count row before the "PO A C G T" line', 'put the PO header first');
        r.bad = true;
      } else if (tokens.length !== 4) {
        problems.add(file, lineNo, `a count row of ${r.ac ?? 'a record'} with ${tokens.length} values where there are 4 bases`, 'write one count per base');
        r.bad = true;
      } else r.rows.push({ line: lineNo, tokens });
    } else if (code === 'CC') {
      const cc = /^([A-Za-z_]+):(.*)$/.exec(rest);
      if (!cc) {
        problems.add(file, lineNo, `CC line ${q(rest.slice(0, 40))} is not "key:value"`, 'write CC key:value, e.g. CC tax_group:plants');
      } else if (r.cc.has(cc[1])) {
        problems.add(file, lineNo, `${r.ac ?? 'the record'} has CC ${cc[1]} twice (first on line ${r.cc.get(cc[1])!.line})`, 'keep one');
      } else r.cc.set(cc[1], { value: cc[2].trim(), line: lineNo });
    }
  });
  if (current) {
    problems.add(file, all.length, `the last record ${(current as { ac?: string }).ac ?? ''} is not ended by "//"`, 'end each record with a // line');
    finish(all.length);
  }
  return records;
}

/** A MEME bundle as JASPAR writes it (formats/meme.ts prints the same layout). */
export function parseMeme(text: string, file: string, problems: ProblemList): MemeRecord[] {
  const records: MemeRecord[] = [];
  const all = lines(text);
  if (!/^MEME version [0-9]/.test(all[0] ?? '')) problems.add(file, 1, 'a MEME file starts with "MEME version 4"', 'is this a MEME file? JASPAR names them …_pfms_meme.txt');
  let i = 0;
  while (i < all.length) {
    const motif = /^MOTIF (\S+) ?(.*)$/.exec(all[i]);
    if (!motif) {
      i++;
      continue;
    }
    const record: MemeRecord = { file, line: i + 1, id: motif[1], name: motif[2], nsites: '', rows: [], rowLines: [] };
    i++;
    const head = /^letter-probability matrix: alength= 4 w= ([0-9]+) nsites= ([0-9]+)/.exec(all[i] ?? '');
    if (!head) {
      problems.add(file, i + 1, `${motif[1]}: expected "letter-probability matrix: alength= 4 w= … nsites= …"`, 'write the MEME matrix header after the MOTIF line');
      continue;
    }
    record.nsites = head[2];
    const width = Number(head[1]);
    i++;
    let ok = true;
    for (let col = 0; col < width; col++, i++) {
      const tokens = (all[i] ?? '').trim().split(/\s+/).filter(Boolean);
      if (tokens.length !== 4 || tokens.some((t) => !/^[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/.test(t))) {
        problems.add(file, i + 1, `${motif[1]}: row ${col + 1} of ${width} is not four probabilities`, 'give w= rows of four numbers (A C G T)');
        ok = false;
        break;
      }
      record.rows.push(tokens);
      record.rowLines.push(i + 1);
    }
    if (ok) records.push(record);
  }
  return records;
}

/** JASPAR's metadata table: a header of the 15 columns (any order), one tab-separated row per matrix version. */
export function parseMetadata(text: string, file: string, problems: ProblemList): MetadataRow[] {
  const all = lines(text);
  const header = (all[0] ?? '').split('\t');
  const missing = METADATA_COLUMNS.filter((c) => !header.includes(c));
  const extra = header.filter((c) => !(METADATA_COLUMNS as readonly string[]).includes(c));
  const twice = header.filter((c, i) => header.indexOf(c) !== i);
  const expected = `the header must name the columns ${METADATA_COLUMNS.join(', ')} (tab-separated)`;
  if (missing.length > 0) problems.add(file, 1, `missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, expected);
  if (extra.length > 0) problems.add(file, 1, `unknown column${extra.length > 1 ? 's' : ''}: ${extra.map(q).join(', ')}`, expected);
  if (twice.length > 0) problems.add(file, 1, `column${twice.length > 1 ? 's' : ''} named twice: ${twice.map(q).join(', ')}`, 'name each column once');
  if (missing.length > 0 || extra.length > 0 || twice.length > 0) return [];
  const rows: MetadataRow[] = [];
  all.slice(1).forEach((text, index) => {
    const line = index + 2;
    if (text === '') {
      problems.add(file, line, 'empty line', 'remove the blank line');
      return;
    }
    const fields = text.split('\t');
    if (fields.length !== header.length) {
      problems.add(file, line, `${fields.length} fields where the header has ${header.length}`, 'give every row all columns, separated by tabs');
      return;
    }
    const values = {} as Record<MetadataColumn, string>;
    header.forEach((column, i) => {
      values[column as MetadataColumn] = fields[i];
    });
    rows.push({ file, line, values });
  });
  return rows;
}
