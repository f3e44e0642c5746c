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

const icontains = (values: readonly string[], needle: string) => values.some((v) => v.toLowerCase().includes(needle.toLowerCase()));

/**
 * The matrices a search or *_matrices call asks for, with the service's
 * semantics (the oracle's, where it has them): collection and tax_group
 * exact, tax_id any of a list, tf_class/tf_family/data_type a
 * case-insensitive substring of an annotation.
 */
export function selectMatrices(release: Release, args: Args): Matrix[] {
  const taxIds = args.tax_id === undefined ? undefined : ([] as unknown[]).concat(args.tax_id).map(String);
  return listOrder(release.matrices.filter((m) =>
    (args.collection === undefined || m.collection === args.collection) &&
    (args.tax_group === undefined || m.taxGroup === args.tax_group) &&
    (taxIds === undefined || m.species.some((s) => s.taxId !== null && taxIds.includes(String(s.taxId)))) &&
    (args.tf_class === undefined || icontains(m.tfClass, String(args.tf_class))) &&
    (args.tf_family === undefined || icontains(m.tfFamily, String(args.tf_family))) &&
    (args.data_type === undefined || icontains([m.dataType], String(args.data_type)))));
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
      // The list holds every JASPAR release (generator/dataset/releases.ts); release number 10 is JASPAR 2024, the one the mirror holds.
      return args.release_number === undefined ? indexDigest('year', JASPAR_RELEASES.map((r) => String(r.year))) : { year: release.info.year, matrices: release.matrices.length };
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
