// The compact indexes the build writes for the edge handler (issue 14), and
// how the handler turns them back into matrices. Two files under /_edge/:
//  - index.json: what filtering, ordering and list items need, one row per
//    matrix in list order (name by code point, ties in release row order),
//    plus what the build knows that the handler must reproduce (base URL,
//    release description, folder layout, pre-rendered filter values);
//  - matrices.json: the rest of each matrix (counts, species, proteins,
//    references, source, comment), same order, read only when a text format,
//    a detail or a page for people needs it.
// Web-standard only (no node: imports): Deno and workerd bundle this file.
// The builder (node side) is build-indexes.ts.
import type { Matrix, ReleaseInfo } from '../dataset/types.ts';
import type { Layout } from '../routes/shard.ts';
import type { FilterKey } from '../routes/urls.ts';

export const EDGE_DIR = '/_edge';
export const INDEX_PATH = `${EDGE_DIR}/index.json`;
export const MATRICES_PATH = `${EDGE_DIR}/matrices.json`;
/** Bumped when the layout of the files changes; the handler refuses another. */
export const INDEX_VERSION = 1;

/** One matrix as filters and list items need it (an array: 5,278 of them are 40% smaller than as objects). */
export type IndexRow = [
  matrixId: string,
  name: string,
  collection: string,
  baseId: string,
  version: number,
  taxGroup: string,
  tfClass: string[],
  tfFamily: string[],
  dataType: string,
  /** NCBI taxonomy ids of the species; null where the release names a species without one. */
  taxIds: (number | null)[],
  hasSites: 0 | 1,
  /** Row of matrices.csv: the tie-breaker of every order. */
  row: number,
];

export interface EdgeIndex {
  version: typeof INDEX_VERSION;
  /** The build's --base-url: every absolute URL in the bodies starts with it. */
  base: string;
  release: ReleaseInfo;
  layout: Layout;
  /** A compact build (--profile compact): the handler renders the files it leaves out (render-missing.ts). */
  compact?: true;
  /** A build whose bodies link by path (--links path, routes/urls.ts LinkStyle); absent: query URLs, as the service. */
  links?: 'path';
  /** Every value a filter takes in the pre-rendered views (views.ts filterValues). */
  filterValues: Record<FilterKey, string[]>;
  /** A site of several releases (in the default release's index): each release and the path its whole
   *  site lives under ("" for the default one, "/releases/2026" for another); release=<year> answers from there. */
  releases?: { year: number; name: string; prefix: string; /** What /api/v1/releases/ says of it (plan/endpoints.ts HeldRelease). */ held: { info: ReleaseInfo; matrices: number; matrixUrl?: string } }[];
  /** Matrix and base ids only another release has, with that release's year: their files lie at the root. */
  elsewhere?: Record<string, number>;
  /** Collections of JASPAR's release that the mirror does not hold (JASPAR 2026's UNVALIDATED): asked for,
   *  by filter or by an id of theirs (idPrefixes, as the other releases spell them), they answer 404 with why. */
  unmirrored?: Unmirrored[];
  rows: IndexRow[];
}

export interface Unmirrored {
  collection: string;
  /** The detail the 404 answers with: which release lacks it, why, and which releases of the site have it. */
  detail: string;
  /** Id prefixes of the collection's matrices in the other releases ("UN"). */
  idPrefixes: string[];
}

/** The collection a request names (by filter, case-folded as the service's filter, or by a matrix or base id) that the release does not mirror. */
export function unmirroredOf(index: Pick<EdgeIndex, 'unmirrored'>, asked: { collection?: string; id?: string }): Unmirrored | undefined {
  return index.unmirrored?.find((u) => (asked.collection !== undefined && asked.collection.toLowerCase() === u.collection.toLowerCase())
    || (asked.id !== undefined && u.idPrefixes.some((p) => asked.id!.startsWith(p))));
}

/** The rest of a matrix, same order as EdgeIndex.rows. */
export type MatricesRow = [
  pfm: Matrix['pfm'],
  species: Matrix['species'],
  uniprotIds: string[],
  pubmedIds: string[],
  source: string,
  comment: string,
];

export interface EdgeMatrices {
  version: typeof INDEX_VERSION;
  rows: MatricesRow[];
}

/** A row of the index as the fields filters read. */
export interface Record_ {
  matrixId: string;
  name: string;
  collection: string;
  baseId: string;
  version: number;
  taxGroup: string;
  tfClass: string[];
  tfFamily: string[];
  dataType: string;
  taxIds: (number | null)[];
  hasSites: boolean;
  row: number;
  /** Position in list order (the default order). */
  position: number;
  /** ASCII-lower-cased copies for the case-insensitive filters (SQLite's LIKE folds ASCII only), made once per instance. */
  folded: { name: string; baseId: string; collection: string; tfClass: string[]; tfFamily: string[]; dataType: string };
}

/** SQLite's LIKE folds ASCII letters only. */
export const asciiLower = (text: string) =>
  // ASCII text (nearly all of JASPAR's) folds the same either way, and toLowerCase is much faster.
  /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.replace(/[A-Z]+/g, (s) => s.toLowerCase());

export function recordsOf(index: EdgeIndex): Record_[] {
  return index.rows.map(([matrixId, name, collection, baseId, version, taxGroup, tfClass, tfFamily, dataType, taxIds, hasSites, row], position) => ({
    matrixId, name, collection, baseId, version, taxGroup, tfClass, tfFamily, dataType, taxIds, hasSites: hasSites === 1, row, position,
    folded: {
      name: asciiLower(name), baseId: asciiLower(baseId), collection: asciiLower(collection),
      tfClass: tfClass.map(asciiLower), tfFamily: tfFamily.map(asciiLower), dataType: asciiLower(dataType),
    },
  }));
}

/** The full matrix the renderers take. Binding sites are not held: `sites` is '' when the matrix has some (the BED format reads the file). */
export function matrixOf(record: Record_, rest: MatricesRow): Matrix {
  const [pfm, species, uniprotIds, pubmedIds, source, comment] = rest;
  return {
    matrixId: record.matrixId,
    baseId: record.baseId,
    version: record.version,
    collection: record.collection,
    name: record.name,
    pfm,
    taxGroup: record.taxGroup,
    tfClass: record.tfClass,
    tfFamily: record.tfFamily,
    dataType: record.dataType,
    species,
    uniprotIds,
    pubmedIds,
    source,
    comment,
    sites: record.hasSites ? '' : null,
    row: record.row,
  };
}

export function parseIndex(text: string): EdgeIndex {
  const index = JSON.parse(text) as EdgeIndex;
  if (index?.version !== INDEX_VERSION || !Array.isArray(index.rows)) throw new Error(`${INDEX_PATH}: not an index of version ${INDEX_VERSION}: rebuild the site`);
  return index;
}

export function parseMatrices(text: string, rows: number): EdgeMatrices {
  const matrices = JSON.parse(text) as EdgeMatrices;
  if (matrices?.version !== INDEX_VERSION || !Array.isArray(matrices.rows) || matrices.rows.length !== rows) {
    throw new Error(`${MATRICES_PATH}: not the matrices of this index: rebuild the site`);
  }
  return matrices;
}
