// Search on a static site: a prebuilt index of every matrix (id, name,
// collection, taxonomic group, in list order) and a page whose script
// filters it in the browser. The page reads ?q= itself, so the search box
// works on any static host.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteHeader } from '../formats/api.ts';
import { listOrder } from '../plan/resources.ts';
import { SEARCH_INDEX, SEARCH_JS, basePathOf, listDir } from '../routes/urls.ts';

export { SEARCH_INDEX, SEARCH_JS };

export function searchIndex(release: Release): string {
  const rows = listOrder(release.matrices).map((m) => [m.matrixId, m.name, m.collection, m.taxGroup]);
  return `${JSON.stringify({ fields: ['matrix_id', 'name', 'collection', 'tax_group'], matrices: rows })}\n`;
}

/** The search page; `base`: the site's base URL (its path prefixes every href). */
export function searchPage(release: Release, base = ''): string {
  return rebase(`${htmlHead('Search – JASPAR REST API (static mirror)', `<script src="${SEARCH_JS}" defer></script>\n`)}<body data-index="${SEARCH_INDEX}">
${siteHeader(release.info.name, `<a href="${listDir(1)}">Matrix list</a>`)}
<main>
<h1>Search matrices</h1>
<p id="search-status" role="status" aria-live="polite">Type a name (e.g. CTCF), a matrix or base id (MA0139), a collection (CORE, UNVALIDATED) or a taxonomic group (vertebrates). All words must match.</p>
<noscript><p>Search needs JavaScript. Without it, <a href="${listDir(1)}">browse the matrix list</a> (ordered by name).</p></noscript>
<div id="search-results"></div>
<p class="muted">${escapeHtml(release.info.name)}: ${release.matrices.length} matrices in the index.</p>
</main>
</body>
</html>
`, base && basePathOf(base));
}
