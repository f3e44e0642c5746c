// The small site of `npm test` (issue 21): about 100 matrices of each shipped
// release, cut at run time from data/ (never committed), in each release's
// own format, so that the end-to-end, browser and conformance suites prove on
// seconds of build what they proved on the full one (`npm run test:full`
// keeps the full release where size matters).
//
// - JASPAR 2024 (curated folder): matrices.csv, matrices/, sites/,
//   pfm_noninteger.json and provenance.csv, each the shared file's rows of the
//   chosen matrices in the shared order.
// - JASPAR 2026 (JASPAR's download files): the metadata table's rows and each
//   bundle's records (the MEME bundle and the diatoms extract included) of
//   the chosen base ids, unchanged. Its description is data/release-2026.yaml,
//   copied beside the fixture's folders (the build takes release-<year>.yaml
//   beside a data folder first): its older_versions, jaspar-2024, is then the
//   fixture's 2024, which holds every version of the base ids both fixtures
//   share, so the older versions' counts come from the fixture too.
//
// The choice is a function of the data only (sorted ids, no randomness):
// the same data gives the same fixture, byte for byte.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyMatrixFiles } from './fixtures.ts';
import { PROJECT_ROOT } from './paths.ts';

const DATA_2024 = path.join(PROJECT_ROOT, 'data/jaspar-2024');
const DATA_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026');

/**
 * Base ids the suites name (a matrix with several versions, CTCF, full
 * precision, an UNVALIDATED one, a base id with versions 2 and 3 only, one new
 * in 2026, one with a version only 2026 has, the diatoms profile…): always in.
 */
export const NAMED_BASES = [
  'MA0002', 'MA0004', 'MA0014', 'MA0074', 'MA0088', 'MA0139', 'MA0143', 'MA0600', 'MA0835', 'MA0850', 'MA1153', 'MA1407', 'MA1972', 'MA2191', 'MA2593',
  'UN0001', 'UN0083', 'UN0498', 'UN0570',
];
/** About this many matrices in the 2024 fixture (every version of each chosen base id: a few more). */
const TARGET = 100;
/** Matrices with binding sites (BED) and with non-integer counts, at least. */
const AT_LEAST = 4;

export interface FixtureSite {
  /** The release folders, oldest first: the --data folders of the fixture site. */
  dataDirs: string[];
  /** Matrices of each release folder. */
  matrices: { year: number; ids: string[] }[];
}

const baseOf = (id: string) => id.replace(/\.[0-9]+$/, '');

function csvRows(file: string): { header: string; rows: { id: string; line: string; cells: string[] }[] } {
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  // The id is the first cell; the other cells are read only for columns without quoted commas before them (collection, tax_group).
  return { header, rows: lines.map((line) => ({ id: line.slice(0, line.indexOf(',')), line, cells: line.split(',') })) };
}

/** The base ids of the 2024 fixture: the named ones, one per (collection, taxonomic group), some with sites and non-integer counts, then every k-th base id up to TARGET matrices. */
export function chooseBases2024(): string[] {
  const { header, rows } = csvRows(path.join(DATA_2024, 'matrices.csv'));
  const columns = header.split(',');
  const col = (name: string) => columns.indexOf(name);
  const versions = new Map<string, string[]>();
  for (const r of rows) versions.set(baseOf(r.id), [...(versions.get(baseOf(r.id)) ?? []), r.id]);
  const chosen = new Set(NAMED_BASES.filter((b) => versions.has(b)));
  const count = () => [...chosen].reduce((n, b) => n + versions.get(b)!.length, 0);
  // Every collection and taxonomic group (the empty one included): the first base id of each pair.
  const groups = new Map<string, string>();
  for (const r of rows) {
    const key = `${r.cells[col('collection')]}/${r.cells[col('tax_group')]}`;
    if (!groups.has(key)) groups.set(key, baseOf(r.id));
  }
  for (const b of [...groups.values()].sort()) chosen.add(b);
  const sites = readdirSync(path.join(DATA_2024, 'sites')).map((f) => f.replace(/\.bed$/, '')).sort();
  const precise = Object.keys(JSON.parse(readFileSync(path.join(DATA_2024, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>).sort();
  for (const list of [sites, precise]) {
    const have = () => list.filter((id) => chosen.has(baseOf(id))).length;
    for (let i = 0; have() < AT_LEAST && i < list.length; i += Math.max(1, Math.floor(list.length / AT_LEAST))) chosen.add(baseOf(list[i]));
  }
  // Spread over the id space: every k-th base id, so that lists mix old and new ids, MA and UN.
  const all = [...versions.keys()].sort();
  const step = Math.max(1, Math.floor(all.length / TARGET));
  for (let i = 0; count() < TARGET && i < all.length; i += step) chosen.add(all[i]);
  return [...chosen].sort();
}

/** Writes the 2024 fixture (curated format) into dir; returns its matrix ids in the shared order. */
function write2024(dir: string, bases: Set<string>): string[] {
  mkdirSync(dir, { recursive: true });
  const kept: string[] = [];
  for (const name of ['matrices.csv', 'provenance.csv']) {
    const { header, rows } = csvRows(path.join(DATA_2024, name));
    const rowsKept = rows.filter((r) => bases.has(baseOf(r.id)));
    writeFileSync(path.join(dir, name), `${[header, ...rowsKept.map((r) => r.line)].join('\n')}\n`);
    if (name === 'matrices.csv') kept.push(...rowsKept.map((r) => r.id));
  }
  copyMatrixFiles(DATA_2024, dir, kept);
  return kept;
}

/** Splits a bundle into its records: jaspar ('>' lines) or MEME ('MOTIF' lines, after the header). */
function records(text: string, marker: RegExp): { head: string; records: { id: string; text: string }[] } {
  const starts = [...text.matchAll(marker)].map((m) => m.index);
  const head = text.slice(0, starts[0] ?? text.length);
  return {
    head,
    records: starts.map((start, i) => {
      const body = text.slice(start, starts[i + 1] ?? text.length);
      return { id: /^(?:>|MOTIF )(\S+)/.exec(body)![1], text: body };
    }),
  };
}

/** The 2026 fixture's base ids: those of the 2024 fixture that 2026 has, the named ones, and per taxonomic group the first base id new in 2026 and the first with a version new in 2026. */
function chooseBases2026(bases2024: Set<string>): { bases: string[]; rows: string[]; header: string; newSpecies(held: Set<string>): string[] } {
  const [header, ...rows] = readFileSync(path.join(DATA_2026, 'ultimate_metadata_table_CORE.tsv'), 'utf8').trimEnd().split('\n');
  const columns = header.split('\t');
  const cell = (row: string, name: string) => row.split('\t')[columns.indexOf(name)];
  const ids2024 = new Set(csvRows(path.join(DATA_2024, 'matrices.csv')).rows.map((r) => r.id));
  const all2024Bases = new Set([...ids2024].map(baseOf));
  const chosen = new Set<string>();
  for (const row of rows) {
    const base = cell(row, 'base_id');
    if (bases2024.has(base) || NAMED_BASES.includes(base)) chosen.add(base);
  }
  const firstOf = new Map<string, string>();
  for (const row of rows) {
    const id = cell(row, 'matrix_id');
    const base = cell(row, 'base_id');
    const group = cell(row, 'tax_group');
    const kind = !all2024Bases.has(base) ? 'new base' : !ids2024.has(id) ? 'new version' : 'held';
    if (!firstOf.has(`${group}/${kind}`)) firstOf.set(`${group}/${kind}`, base);
  }
  for (const b of [...firstOf.values()].sort()) chosen.add(b);
  const kept = rows.filter((r) => chosen.has(cell(r, 'base_id')));
  /** The species of the kept matrices that the given 2024 ids do not hold, in table order. */
  const newSpecies = (held: Set<string>) => [...new Set(kept.filter((r) => !held.has(cell(r, 'matrix_id'))).flatMap((r) => cell(r, 'tax_id').split(/[,;]/).map((t) => t.trim()).filter(Boolean)))];
  return { bases: [...chosen].sort(), rows: kept, header, newSpecies };
}

/**
 * The 2024 fixture's base ids, with what the full releases tie to the 2026
 * fixture: every base id of it that JASPAR 2024 has (so that a base id only in
 * the fixture's 2026 is only in JASPAR 2026), and a base id of each species a
 * matrix new in 2026 names (in the full releases every such species is one
 * JASPAR 2024 has too: a page of the site's root links to its list).
 */
function withTiesOf2026(bases2024: Set<string>, chosen: Chosen2026): Set<string> {
  const { header, rows } = csvRows(path.join(DATA_2024, 'matrices.csv'));
  const taxIds = header.split(',').indexOf('tax_ids');
  const all = new Set(rows.map((r) => baseOf(r.id)));
  const out = new Set([...bases2024, ...chosen.bases.filter((b) => all.has(b))]);
  // The species column is past quoted free text in some rows: read it from the end (tf_family…comment may hold commas).
  const speciesOf = (r: { cells: string[] }) => (r.cells.length === header.split(',').length ? r.cells[taxIds].split(';').map((t) => t.trim()).filter(Boolean) : []);
  const held = new Set(rows.filter((r) => out.has(baseOf(r.id))).flatMap(speciesOf));
  const ids2024 = new Set(rows.map((r) => r.id));
  for (const taxId of chosen.newSpecies(ids2024)) {
    if (held.has(taxId)) continue;
    const row = rows.find((r) => speciesOf(r).includes(taxId));
    if (row) {
      out.add(baseOf(row.id));
      held.add(taxId);
    }
  }
  return out;
}

type Chosen2026 = ReturnType<typeof chooseBases2026>;

/** Writes the 2026 fixture (JASPAR's download files) into dir; returns its matrix ids in the table's order. */
function write2026(dir: string, chosen: Chosen2026): string[] {
  mkdirSync(dir, { recursive: true });
  const { bases, rows, header } = chosen;
  const wanted = new Set(bases);
  writeFileSync(path.join(dir, 'ultimate_metadata_table_CORE.tsv'), `${[header, ...rows].join('\n')}\n`);
  for (const name of readdirSync(DATA_2026).sort()) {
    if (!name.startsWith('JASPAR2026_')) continue;
    const text = readFileSync(path.join(DATA_2026, name), 'utf8');
    const meme = text.startsWith('MEME version');
    const bundle = records(text, meme ? /^MOTIF /gm : /^>/gm);
    const kept = bundle.records.filter((r) => wanted.has(baseOf(r.id)));
    // A bundle with no record of the fixture is left out: an empty file is not one of JASPAR's.
    if (kept.length === 0) continue;
    writeFileSync(path.join(dir, name), (meme ? bundle.head : '') + kept.map((r) => r.text).join(''));
  }
  const idColumn = header.split('\t').indexOf('matrix_id');
  return rows.map((r) => r.split('\t')[idColumn]);
}

/** Makes the fixture site's release folders under root (data/jaspar-2024, data/jaspar-2026). */
export function makeFixtureSite(root: string): FixtureSite {
  const dir2024 = path.join(root, 'jaspar-2024');
  const dir2026 = path.join(root, 'jaspar-2026');
  const bases2024 = new Set(chooseBases2024());
  const chosen2026 = chooseBases2026(bases2024);
  const ids2026 = write2026(dir2026, chosen2026);
  const ids2024 = write2024(dir2024, withTiesOf2026(bases2024, chosen2026));
  copyFileSync(path.join(PROJECT_ROOT, 'data/release-2026.yaml'), path.join(root, 'release-2026.yaml'));
  return { dataDirs: [dir2024, dir2026], matrices: [{ year: 2024, ids: ids2024 }, { year: 2026, ids: ids2026 }] };
}

// `npx tsx test/support/fixture-site.ts DIR`: writes the fixture's release folders into DIR, to build or read by hand.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: npx tsx test/support/fixture-site.ts DIR\n');
    process.exit(2);
  }
  const site = makeFixtureSite(path.resolve(out));
  for (const m of site.matrices) process.stdout.write(`JASPAR ${m.year}: ${m.ids.length} matrices\n`);
}
