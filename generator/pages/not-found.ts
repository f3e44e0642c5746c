// The 404 page for people: what a browser (Accept: text/html) is shown for
// a path the site does not have, where programs get the API's JSON error.
// nginx, Caddy, Apache and the edge handler choose it by the Accept header
// (hosting/routing.ts errors.people); it is written at routes/paths.ts
// NOT_FOUND_PEOPLE, with root-relative links that work from any path.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteFooter, siteHeader } from '../formats/api.ts';
import { DOWNLOADS_PAGE, SEARCH_PAGE, basePathOf, indexDir, listDir } from '../routes/urls.ts';

export function notFoundPage(release: Release, base: string): string {
  return rebase(`${htmlHead(`Not found – ${release.info.name} (JASPAR mirror)`)}<body>
${siteHeader(release.info)}
<main id="main" tabindex="-1">
<h1>Page not found</h1>
<p>This mirror of ${escapeHtml(release.info.name)} has no page at this address. A matrix is at <code>/api/v1/matrix/MA0139.1/</code> (its ID), not at JASPAR's own <code>/matrix/MA0139.1/</code>.</p>
<ul>
<li><a href="${SEARCH_PAGE}">Search</a> by name, ID, species or UniProt ID</li>
<li><a href="${listDir(1)}">Browse all matrices</a>, <a href="${indexDir('collections')}">collections</a>, <a href="${indexDir('taxon')}">taxa</a> or <a href="${indexDir('species')}">species</a></li>
<li><a href="${DOWNLOADS_PAGE}">Downloads</a></li>
</ul>
</main>
${siteFooter(release.info)}
</body>
</html>
`, basePathOf(base));
}
