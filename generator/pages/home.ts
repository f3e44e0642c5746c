// The site's front page: what this is, where the data comes from, and the
// URLs that answer on Netlify and on any static server.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteHeader } from '../formats/api.ts';
import { FORMAT_IDS } from '../formats/registry.ts';
import { DOWNLOADS } from '../mirror/layout.ts';
import { listOrder } from '../plan/resources.ts';
import type { Layout } from '../routes/shard.ts';
import { LIST, basePathOf, detailDir, listDir, pageHref, pathUrl, queryString } from '../routes/urls.ts';

/** `archive`: false for a compact build (--profile compact), which has no archive of the site to offer. */
export function homePage(release: Release, base: string, layout: Layout, listPages: number, { archive = true } = {}): string {
  const example = listOrder(release.matrices)[0];
  const query = (f: string) => escapeHtml(`${LIST}${queryString({ format: f, page: '1' })}`);
  const formatRows = FORMAT_IDS.map((f) => `<tr><td><code>${f}</code></td><td><a href="${query(f)}"><code>${query(f)}</code></a></td><td><a href="${escapeHtml(pathUrl(listDir(1), f))}"><code>${escapeHtml(pathUrl(listDir(1), f))}</code></a></td></tr>`).join('\n');
  const id = example ? escapeHtml(example.matrixId) : '';
  return rebase(`${htmlHead(`JASPAR REST API – static mirror of ${release.info.name}`)}<body>
${siteHeader(release.info.name)}
<main>
<h1>JASPAR REST API, pre-rendered</h1>
<p>Every response of the JASPAR <code>/api/v1/matrix</code> API for ${escapeHtml(release.info.name)}: ${release.matrices.length} matrices on ${listPages} list pages, each matrix and its versions, in ${FORMAT_IDS.length} formats, with a sequence logo per matrix. Absolute URLs in the responses point at <code>${escapeHtml(base)}</code>.</p>
<p><a href="${listDir(1)}">Browse the matrix list</a>${example ? ` · <a href="${escapeHtml(pageHref(detailDir(layout, example.matrixId)))}">an example matrix (${id})</a>` : ''}</p>
<p><a href="${DOWNLOADS}">Downloads</a>: ${archive
    ? 'the whole list in one file per format, JASPAR\'s download bundles, and this site as one archive (an offline mirror you can verify and serve anywhere).'
    : 'the whole list in one file per format and JASPAR\'s download bundles. This compact build has no archive of the site; a full build (<code>npm run build</code>) has one.'}</p>
<table>
<caption>The list in each format: query URL (Netlify) and path URL (any static server)</caption>
<thead><tr><th scope="col">format</th><th scope="col">query URL</th><th scope="col">path URL</th></tr></thead>
<tbody>
${formatRows}
</tbody>
</table>
<p>Data: ${escapeHtml(release.info.name)}, CC BY 4.0. Please cite JASPAR when you use it.</p>
</main>
</body>
</html>
`, basePathOf(base));
}
