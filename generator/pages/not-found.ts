// The 404 for people: what a browser gets for a URL the site does not have
// (nginx, Caddy and Apache choose it by the Accept header, as the edge
// handler does), in the site's own layout, with the ways back in. A program
// still gets the API's {"detail":"Not found."} (routes/paths.ts NOT_FOUND_PAGE).
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteHeader } from '../formats/api.ts';
import { DOCS_DIR, DOWNLOADS_PAGE, HOME, SEARCH_PAGE } from '../routes/paths.ts';
import { basePathOf, listDir } from '../routes/urls.ts';

export function notFoundPage(release: Release, base: string): string {
  return rebase(`${htmlHead(`Not found – JASPAR REST API, static mirror of ${release.info.name}`)}<body>
${siteHeader(release.info.name)}
<main>
<h1>Page not found</h1>
<p>This mirror of ${escapeHtml(release.info.name)} has no page at this address. A matrix is found by its ID (such as MA0139.1) with the search box above, or in the list.</p>
<ul>
<li><a href="${HOME}">Home</a></li>
<li><a href="${listDir(1)}">The matrix list</a></li>
<li><a href="${SEARCH_PAGE}">Search</a></li>
<li><a href="${DOWNLOADS_PAGE}">Downloads</a></li>
<li><a href="${DOCS_DIR}">API documentation</a></li>
</ul>
</main>
</body>
</html>
`, basePathOf(base));
}
