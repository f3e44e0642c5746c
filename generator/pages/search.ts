// Search on a static site: a prebuilt index of every matrix and a page whose
// script searches it in the browser. The page reads its query (?q=, filters,
// page) itself, so the search box works on any static host.
//
// The index is one JSON file, fetched once per visit of the search page
// (paging and filtering reuse it) and compressed by the host like any JSON
// (about 60 KB gzip for the 2024 release). Repeated texts (species, class,
// family, data type) are stored once in tables and referred to by number,
// which halves it before compression.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteFooter, siteHeader } from '../formats/api.ts';
import { LOGO_LAYOUT, logoSize } from '../logos/svg.ts';
import { filterValues, latestVersions, listOrder } from '../plan/views.ts';
import { SEARCH_INDEX, SEARCH_JS, SEARCH_PAGE, basePathOf, listDir } from '../routes/urls.ts';

export { SEARCH_INDEX, SEARCH_JS };

/** Common names people search by, for species whose scientific name they may not type (NCBI Taxonomy's common names). */
export const COMMON_NAMES: Readonly<Record<number, string>> = {
  9606: 'human',
  10090: 'mouse',
  10116: 'rat',
  7227: 'fruit fly',
  4932: 'yeast',
  559292: 'yeast',
  6239: 'nematode worm',
  7955: 'zebrafish',
  3702: 'thale cress',
  9031: 'chicken',
  8355: 'African clawed frog',
  9913: 'cattle',
  9823: 'pig',
  4577: 'maize',
  39947: 'rice',
};

/** The columns of a matrix's row in the index, in order. */
export const SEARCH_FIELDS = ['matrix_id', 'name', 'collection', 'tax_group', 'species', 'uniprot_ids', 'class', 'family', 'type', 'latest', 'length'] as const;

export function searchIndex(release: Release): string {
  const latest = latestVersions(release.matrices);
  // Each distinct text once, numbered in order of first use (list order): deterministic.
  const table = () => {
    const values: string[] = [];
    const numbers = new Map<string, number>();
    return {
      values,
      number(value: string): number {
        let n = numbers.get(value);
        if (n === undefined) numbers.set(value, (n = values.push(value) - 1));
        return n;
      },
    };
  };
  const species = table();
  const classes = table();
  const families = table();
  const types = table();
  const rows = listOrder(release.matrices).map((m) => [
    m.matrixId,
    m.name,
    m.collection,
    m.taxGroup,
    m.species.map((s) => species.number(JSON.stringify([s.taxId, s.name, s.taxId === null ? '' : COMMON_NAMES[s.taxId] ?? '']))),
    m.uniprotIds,
    m.tfClass.map((c) => classes.number(c)),
    m.tfFamily.map((f) => families.number(f)),
    types.number(m.dataType),
    latest.has(m) ? 1 : 0,
    m.pfm.A.length,
  ]);
  const values = filterValues(release);
  return `${JSON.stringify({
    fields: SEARCH_FIELDS,
    // [tax id or null, scientific name, common name]
    species: species.values.map((s) => JSON.parse(s) as unknown),
    class: classes.values,
    family: families.values,
    type: types.values,
    collections: values.collection,
    tax_groups: values.tax_group,
    matrices: rows,
  })}\n`;
}

/** The search page; `base`: the site's base URL (its path prefixes every href). */
export function searchPage(release: Release, base = ''): string {
  const values = filterValues(release);
  const options = (list: string[]) => list.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`).join('');
  return rebase(`${htmlHead(`Search – ${release.info.name} (JASPAR mirror)`, `<script src="${SEARCH_JS}" defer></script>\n`)}<body data-index="${SEARCH_INDEX}" data-logo-size="${logoSize(0).width} ${LOGO_LAYOUT.column} ${logoSize(0).height}">
${siteHeader(release.info, `<a href="${listDir(1)}">Matrix list</a>`)}
<main id="main" tabindex="-1">
<h1>Search matrices</h1>
<form class="filters" id="search-filters" action="${SEARCH_PAGE}" method="get"><label>Collection <select name="collection"><option value="">all</option>${options(values.collection)}</select></label> <label>Taxon <select name="tax_group"><option value="">all</option>${options(values.tax_group)}</select></label> <label><input type="checkbox" name="latest" value="1"> latest versions only</label></form>
<p id="search-status" role="status" aria-live="polite">Search by transcription factor name (SOX2, CTCF), matrix ID (MA0139.1, MA0139), species (Homo sapiens, human, 9606), UniProt ID (P49711), class or family (zinc finger), taxonomic group (plants) or data type (ChIP-seq). Every word must match; exact names come first.</p>
<noscript><p>Search needs JavaScript. Without it, <a href="${listDir(1)}">browse the matrix list</a> (ordered by name) and its filters.</p></noscript>
<div id="search-results"></div>
<nav class="pages" id="search-pages" aria-label="Result pages" hidden></nav>
<p class="muted">${escapeHtml(release.info.name)}: ${release.matrices.length} matrices in the index.</p>
</main>
${siteFooter(release.info)}
</body>
</html>
`, base && basePathOf(base));
}
