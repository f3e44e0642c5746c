// Which files of a folder are JASPAR download files, and what each holds,
// from its name and its first line. Matrix bundles must carry JASPAR's name:
// the name is where the collection, the taxonomic group and the release year
// are written (JASPAR2024_CORE_plants_non-redundant_pfms_jaspar.txt). The
// metadata table is known by its header (JASPAR publishes it as
// ultimate_metadata_table_CORE.tsv and as JASPAR2026_CORE_metadata.tsv), a
// binding-site file by its name, <matrix_id>.bed. Records cut unchanged out
// of one of JASPAR's bundles carry the bundle's year and collection and the
// records' taxonomic group in their name too, with "records_extract" where
// JASPAR writes the bundle kind (JASPAR2026_CORE_diatoms_records_extract.txt:
// the one diatoms record, the end of the all-taxa jaspar bundle, which
// JASPAR publishes in no per-taxon file). A file that looks like
// matrices under another name is refused, so that no matrix is silently left
// out; anything else (notes, other tables) is ignored and named in the build
// summary.
import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { ReleaseFolder } from '../files.ts';
import path from 'node:path';
import { MATRIX_ID } from '../text.ts';
import { METADATA_COLUMNS } from './parse.ts';

export type Kind = 'jaspar' | 'meme' | 'transfac';

export interface BundleFile {
  kind: Kind;
  path: string;
  /** Path relative to the data folder, as listed in the summary. */
  name: string;
  year: number;
  collection: string;
  /** Taxonomic group of a per-taxon bundle, else null. */
  taxGroup: string | null;
  redundant: boolean;
  /** True for records cut from a JASPAR bundle (EXTRACT_NAME), not a whole file. */
  extract: boolean;
}

export interface Detected {
  bundles: BundleFile[];
  metadata: { path: string; name: string }[];
  beds: { path: string; name: string; id: string }[];
  /** Files that are not JASPAR download files, relative to the data folder. */
  ignored: string[];
  /** Files named like JASPAR's whose content says otherwise, or matrices under another name. */
  refused: { path: string; message: string; fix: string }[];
}

/** JASPAR<year>_<COLLECTION>[_<taxon>]_{redundant,non-redundant}_pfms_{jaspar,meme,transfac}.txt */
export const BUNDLE_NAME = /^JASPAR([0-9]{4})_([A-Z][A-Z0-9_]*?)(?:_([a-z][a-z0-9]*))?_(redundant|non-redundant)_pfms_(jaspar|meme|transfac)\.txt$/;

/** JASPAR<year>_<COLLECTION>_<taxon>_records_extract.txt: jaspar records cut unchanged from a JASPAR bundle, all of that taxonomic group. */
export const EXTRACT_NAME = /^JASPAR([0-9]{4})_([A-Z][A-Z0-9_]*?)_([a-z][a-z0-9]*)_records_extract\.txt$/;

const KIND_NAMES: Record<Kind, string> = { jaspar: 'jaspar bundle', meme: 'MEME bundle', transfac: 'TRANSFAC export' };

/** What the first line says the file is, whatever its name. */
export function sniff(firstLine: string): Kind | 'metadata' | null {
  if (/^>\S+\t/.test(firstLine)) return 'jaspar';
  if (firstLine.startsWith('MEME version')) return 'meme';
  if (/^AC\s+\S/.test(firstLine)) return 'transfac';
  const columns = firstLine.split('\t');
  if (columns.includes('matrix_id') && columns.filter((c) => (METADATA_COLUMNS as readonly string[]).includes(c)).length >= METADATA_COLUMNS.length - 3) return 'metadata';
  return null;
}

function firstLine(file: string): string {
  // A regular file (ReleaseFolder.entry said so): its first 4 KiB, never the whole of a large file.
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(4096);
  let n: number;
  try {
    n = readSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  const bytes = buffer.subarray(0, n).toString('utf8');
  return bytes.replace(/^\uFEFF/, '').split(/\r?\n/)[0];
}

/** Every file under dir (sorted, subfolders included), relative to dir. */
function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(dir, rel));
    else out.push(rel);
  }
  return out;
}

export function detect(dir: string): Detected {
  const found: Detected = { bundles: [], metadata: [], beds: [], ignored: [], refused: [] };
  // The curated loader's rule for links and special files (dataset/files.ts): a link
  // leading outside the folder, a dangling one, a FIFO or device is refused unopened.
  const folder = new ReleaseFolder(dir);
  for (const name of walk(dir)) {
    const file = path.join(dir, name);
    const base = path.basename(name);
    const entry = folder.entry(file);
    if (entry.kind === 'refused') {
      found.refused.push({ path: file, message: `${base} ${entry.why}`, fix: entry.fix });
      continue;
    }
    if (entry.kind !== 'file') {
      found.ignored.push(name);
      continue;
    }
    if (base.endsWith('.bed')) {
      const id = base.slice(0, -'.bed'.length);
      if (MATRIX_ID.test(id)) found.beds.push({ path: file, name, id });
      else found.refused.push({ path: file, message: `${base} is a BED file not named <matrix_id>.bed`, fix: 'name binding-site files after their matrix, e.g. MA0004.1.bed, or remove it' });
      continue;
    }
    const bundle = BUNDLE_NAME.exec(base);
    const content = sniff(firstLine(entry.real));
    if (bundle) {
      const kind = bundle[5] as Kind;
      if (content !== kind) {
        found.refused.push({ path: file, message: `named like a JASPAR ${KIND_NAMES[kind]} but ${content === null ? 'its first line is not one' : `it holds a ${content === 'metadata' ? 'metadata table' : KIND_NAMES[content]}`}`, fix: `give the file its right name or content (JASPAR's download files are used unchanged)` });
        continue;
      }
      found.bundles.push({ kind, path: file, name, year: Number(bundle[1]), collection: bundle[2], taxGroup: bundle[3] ?? null, redundant: bundle[4] === 'redundant', extract: false });
      continue;
    }
    const extract = EXTRACT_NAME.exec(base);
    if (extract) {
      // JASPAR's bundle records, so the jaspar layout: a MEME or TRANSFAC extract would need its own rules.
      if (content !== 'jaspar') {
        found.refused.push({ path: file, message: `named like records cut from a JASPAR jaspar bundle but ${content === null ? 'its first line is not a record header' : `it holds a ${content === 'metadata' ? 'metadata table' : KIND_NAMES[content]}`}`, fix: 'an extract holds jaspar records (">ID<TAB>NAME" and four rows) cut unchanged from JASPAR\'s bundle' });
        continue;
      }
      found.bundles.push({ kind: 'jaspar', path: file, name, year: Number(extract[1]), collection: extract[2], taxGroup: extract[3], redundant: false, extract: true });
      continue;
    }
    if (content === 'metadata') {
      found.metadata.push({ path: file, name });
    } else if (content !== null) {
      found.refused.push({ path: file, message: `holds a ${KIND_NAMES[content]} but its name is not JASPAR's, which says the release year and collection`, fix: `use JASPAR's file name, e.g. JASPAR2024_CORE_non-redundant_pfms_${content}.txt, or move the file out of the folder` });
    } else {
      found.ignored.push(name);
    }
  }
  return found;
}
