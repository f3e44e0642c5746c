// The site's front page, for a biologist first: what JASPAR is, where to
// start (search, the list, collections, taxa, species, an example matrix),
// downloads and how to cite; then, for programs, the API's URLs.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteFooter, siteHeader } from '../formats/api.ts';
import { FORMAT_IDS } from '../formats/registry.ts';
import { DOWNLOADS } from '../mirror/layout.ts';
import { filterValues, listOrder } from '../plan/views.ts';
import type { Layout } from '../routes/shard.ts';
import { DEFAULT_PAGE_SIZE, DOCS_DIR, LIST, SEARCH_PAGE, basePathOf, detailDir, indexDir, listDir, pageHref, pathUrl, queryString } from '../routes/urls.ts';

/** `archive`: false for a compact build (--profile compact), which has no archive of the site to offer. */
export function homePage(release: Release, base: string, layout: Layout, listPages: number, { archive = true } = {}): string {
  const ordered = listOrder(release.matrices);
  const example = release.matrices.find((m) => m.matrixId === 'MA0139.1') ?? ordered[0];
  const values = filterValues(release);
  const query = (f: string) => escapeHtml(`${LIST}/${queryString({ format: f, page: '1' })}`);
  const formatRows = FORMAT_IDS.map((f) => `<tr><td><code>${f}</code></td><td><a href="${f === 'api' ? escapeHtml(listDir(1)) : query(f)}"><code>${query(f)}</code></a></td><td><a href="${escapeHtml(pathUrl(listDir(1), f))}"><code>${escapeHtml(pathUrl(listDir(1), f))}</code></a></td></tr>`).join('\n');
  const name = escapeHtml(release.info.name);
  const chips = (key: 'collection' | 'tax_group') =>
    values[key].map((v) => `<a href="${escapeHtml(listDir(1, DEFAULT_PAGE_SIZE, { [key]: v }))}">${escapeHtml(v)}</a>`).join(' · ');
  const exampleLink = example ? `<a href="${escapeHtml(pageHref(detailDir(layout, example.matrixId)))}">${escapeHtml(example.matrixId)} ${escapeHtml(example.name)}</a>` : '';
  return rebase(`${htmlHead(`${release.info.name} – transcription factor binding profiles (JASPAR mirror)`)}<body>
${siteHeader(release.info)}
<main id="main" tabindex="-1">
<h1>JASPAR transcription factor binding profiles</h1>
<p>${name}: ${release.matrices.length} position frequency matrices of transcription factor binding sites, with their sequence logos, species, UniProt and PubMed references. This is a fast, unofficial mirror of <a href="https://jaspar.elixir.no/">JASPAR</a> and of its REST API.</p>
${(release.info.siteNotes ?? []).map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n')}
<form class="search big" role="search" aria-label="Find a profile" action="${SEARCH_PAGE}" method="get"><label for="home-search">Find a profile</label> <input id="home-search" name="q" type="search" placeholder="SOX2, P49711, human" autocomplete="off"> <button type="submit">Search</button></form>
<h2>Browse</h2>
<ul class="browse">
<li><a href="${listDir(1)}">All matrices</a>, by name (${listPages} pages; filters for collection, taxon and latest versions)</li>
<li>By collection: ${chips('collection')} (<a href="${indexDir('collections')}">collections</a>)</li>
<li>By taxonomic group: ${chips('tax_group')} (<a href="${indexDir('taxon')}">taxa</a>)</li>
<li>By species: <a href="${indexDir('species')}">${values.tax_id.length} species</a></li>
${example ? `<li>An example: ${exampleLink}</li>` : ''}
</ul>
<h2>Download</h2>
<p><a href="${DOWNLOADS}">Downloads</a>: every matrix in one file per format (JASPAR, MEME, TRANSFAC, …), JASPAR's download bundles by collection and taxon, binding sites as BED${archive ? ', and this site as one archive (an offline mirror you can check and serve on your own computer)' : '. This compact build has no archive of the site'}.</p>
<h2>For programs: the REST API</h2>
<p>Every response of JASPAR's <code>/api/v1/</code> REST API, pre-rendered, at the same URLs (<a href="${DOCS_DIR}">API documentation</a>). Absolute URLs in responses point at <code>${escapeHtml(base)}</code>. A matrix page offers each format as a button, and its files as downloads.</p>
<div class="scroll" tabindex="0" role="region" aria-label="The list in each format">
<table>
<caption>The matrix list in each format: as JASPAR's API is asked, and as a file</caption>
<thead><tr><th scope="col">format</th><th scope="col">query URL</th><th scope="col">file</th></tr></thead>
<tbody>
${formatRows}
</tbody>
</table>
</div>
<h2 id="cite">How to cite</h2>
<p>${release.info.citation ? escapeHtml(release.info.citation) : `Please cite the JASPAR paper of ${name} (see <a href="https://jaspar.elixir.no/">jaspar.elixir.no</a>).`}</p>
</main>
${siteFooter(release.info)}
</body>
</html>
`, basePathOf(base));
}
