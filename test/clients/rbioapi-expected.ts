// What rbioapi should get for the calls the DRF oracle cannot answer (it
// serves /api/v1/matrix only: no collections, taxa, species, releases or
// sites, and it knows tf_class/tf_family/data_type as class/family/type),
// computed from the release itself and summarised as calls.R summarises what
// rbioapi returned (digest_* there): the same fields, the same md5 inputs.
import { createHash } from 'node:crypto';
import type { Matrix, Release } from '../../generator/dataset/types.ts';
import { JASPAR_RELEASES } from '../../generator/dataset/releases.ts';

export type Digest = Record<string, unknown>;
export type Args = Record<string, unknown>;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
/** R's sort(method = "radix"): code-point order. */
const codePointSort = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The list order of the real service: by name in code-point (UTF-8 byte) order, ties in release row order. */
export function listOrder(matrices: readonly Matrix[]): Matrix[] {
  return [...matrices].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)) || a.row - b.row);
}

/** digest_matrices of calls.R for one page of a list. */
export function matricesDigest(list: readonly Matrix[], page: number, size: number): Digest {
  const ids = list.slice((page - 1) * size, page * size).map((m) => m.matrixId);
  return { count: list.length, rows: ids.length, first: ids.slice(0, 3), last: ids.at(-1) ?? '', ids_md5: md5(ids.join('\n')) };
}

/** digest_index of calls.R: the set of a list's key values. */
export function indexDigest(key: string, values: Iterable<string>): Digest {
  const sorted = codePointSort([...new Set(values)]);
  return { rows: sorted.length, key, values_md5: md5(sorted.join('\n')), first: sorted.slice(0, 3) };
}

// The oracle's database is SQLite: its LIKE (Django's icontains and iexact)
// folds ASCII letters only.
const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const icontains = (values: readonly string[], needle: string) => values.some((v) => fold(v).includes(fold(needle)));

/** The service's order: `order` (rbioapi's vector joined with commas) by name either way, else by name; ties in release row order (the oracle's SQLite sort keeps insertion order). */
function ordered(matrices: readonly Matrix[], order: unknown): Matrix[] {
  const by = order === undefined ? 'name' : ([] as unknown[]).concat(order).map(String).join(',');
  if (by !== 'name' && by !== '-name') throw new Error(`no release-derived order for order=${by}: the oracle (views.py, OrderingFilter) is its reference`);
  if (by === 'name') return listOrder(matrices);
  return [...matrices].sort((a, b) => Buffer.compare(Buffer.from(b.name), Buffer.from(a.name)) || a.row - b.row);
}

/**
 * The matrices a search or *_matrices call asks for, with the service's
 * semantics (test/oracle/drf/matrix/views.py, JASPARFilterBackend, where it
 * has them): collection upper-cased and exact, tf_name (name=) exact but for
 * case, tax_group lower-cased and exact, tax_id any of a list,
 * tf_class/tf_family/data_type a case-insensitive substring of an
 * annotation, term (search=) of the name, base id or collection; then
 * only_last_version (version=latest) keeps the newest version of each base
 * id among what the other filters left, and order sorts.
 */
export function selectMatrices(release: Release, args: Args): Matrix[] {
  const taxIds = args.tax_id === undefined ? undefined : ([] as unknown[]).concat(args.tax_id).map(String);
  const term = args.term === undefined ? undefined : String(args.term);
  const chosen = release.matrices.filter((m) =>
    (args.collection === undefined || m.collection === String(args.collection).toUpperCase()) &&
    (args.tf_name === undefined || fold(m.name) === fold(String(args.tf_name))) &&
    (args.tax_group === undefined || m.taxGroup === String(args.tax_group).toLowerCase()) &&
    (taxIds === undefined || m.species.some((s) => s.taxId !== null && taxIds.includes(String(s.taxId)))) &&
    (args.tf_class === undefined || icontains(m.tfClass, String(args.tf_class))) &&
    (args.tf_family === undefined || icontains(m.tfFamily, String(args.tf_family))) &&
    (args.data_type === undefined || icontains([m.dataType], String(args.data_type))) &&
    (term === undefined || icontains([m.name, m.baseId, m.collection], term)));
  const newest = new Map<string, number>();
  for (const m of chosen) newest.set(m.baseId, Math.max(m.version, newest.get(m.baseId) ?? 0));
  return ordered(args.only_last_version === true ? chosen.filter((m) => m.version === newest.get(m.baseId)) : chosen, args.order);
}

/** The digest each release-referenced call should have, by the rbioapi function it calls. */
export function expectedDigest(release: Release, fn: string, args: Args): Digest {
  const page = Number(args.page ?? 1);
  const size = Number(args.page_size ?? 1000);
  switch (fn) {
    case 'rba_jaspar_collections':
      return indexDigest('name', release.matrices.map((m) => m.collection));
    case 'rba_jaspar_taxons':
      return indexDigest('name', release.matrices.flatMap((m) => (m.taxGroup ? [m.taxGroup] : [])));
    case 'rba_jaspar_species':
      return indexDigest('tax_id', release.matrices.flatMap((m) => m.species.flatMap((s) => (s.taxId === null ? [] : [String(s.taxId)]))));
    case 'rba_jaspar_releases':
      // The list holds every JASPAR release (generator/dataset/releases.ts); one by number is digested from the release of that number.
      if (args.release_number === undefined) return indexDigest('year', JASPAR_RELEASES.map((r) => String(r.year)));
      if (Number(args.release_number) !== release.info.number) throw new Error(`release number ${String(args.release_number)} is not ${release.info.name} (number ${String(release.info.number)})`);
      return { year: release.info.year, matrices: release.matrices.length };
    case 'rba_jaspar_collections_matrices':
    case 'rba_jaspar_taxons_matrices':
    case 'rba_jaspar_species_matrices':
    case 'rba_jaspar_matrix_search':
      return matricesDigest(selectMatrices(release, args), page, size);
    case 'rba_jaspar_sites': {
      const m = release.matrices.find((x) => x.matrixId === args.matrix_id);
      if (!m?.sites) throw new Error(`${String(args.matrix_id)} has no binding sites in the release: pick another for the sites call`);
      const rows = m.sites.split('\n').filter((line) => line.trim() !== '').map((line) => {
        const [chrom, start, end, , , strand] = line.split('\t');
        return `${chrom}\t${start}\t${end}\t${strand}`;
      });
      return { matrix_id: m.matrixId, rows: rows.length, first: rows.slice(0, 1), rows_md5: md5(rows.join('\n')) };
    }
    default:
      throw new Error(`no release-derived digest for ${fn}`);
  }
}
