// The downloads page (/download/): the offline mirror (archive and
// manifest), the whole list in one file per format, JASPAR's bundles and the
// BED files, with sizes. The page is itself in the archive and the manifest,
// so it cannot state their sizes: a small script asks the server for them
// (HEAD); without JavaScript the links still work.
import type { Release } from '../dataset/types.ts';
import { escapeHtml, htmlHead, rebase, siteFooter, siteHeader } from '../formats/api.ts';
import { BUNDLE_FORMATS, type BulkFile, byMatrixId } from '../mirror/bulk.ts';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, DOWNLOADS_JS, MANIFEST } from '../mirror/layout.ts';
import { basePathOf, listDir, sitesPath } from '../routes/urls.ts';

/** "812 bytes", "35.2 kB", "1.9 MB" (decimal units, as browsers and `ls -h --si` show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

const fileName = (urlPath: string) => urlPath.slice(urlPath.lastIndexOf('/') + 1);
const link = (urlPath: string, label = fileName(urlPath)) => `<a href="${escapeHtml(urlPath)}">${escapeHtml(label)}</a>`;
const size = (f: BulkFile) => `<span class="size">${formatBytes(f.bytes)}</span>`;
/** Filled in by the script; the text stays when the script cannot ask. */
const askedSize = (urlPath: string, missing: string) =>
  `<span class="size" data-size-of="${escapeHtml(urlPath)}" data-missing="${escapeHtml(missing)}">size shown with JavaScript</span>`;

/** `archive`: false for a compact build (--profile compact), which has no archive: the page says so instead of listing it. */
export function downloadsPage(release: Release, base: string, files: readonly BulkFile[], { archive = true } = {}): string {
  const name = escapeHtml(release.info.name);
  const withSites = [...release.matrices].sort(byMatrixId).find((m) => m.sites !== null);
  const lists = files.filter((f) => !f.bundle);
  const listRows = lists.map((f) => `<tr><td><code>${f.format}</code></td><td>${link(f.path)}</td><td>${size(f)}</td></tr>`).join('\n');
  const sets = new Map<string, BulkFile[]>();
  for (const f of files) if (f.bundle) sets.set(f.bundle.set, [...(sets.get(f.bundle.set) ?? []), f]);
  const bundleRows = [...sets.values()]
    .map((group) => {
      const b = group[0].bundle!;
      const what = `${b.collection}${b.taxGroup ? ` ${b.taxGroup}` : ''}, ${b.redundant ? 'every version' : 'latest versions'}`;
      const cells = BUNDLE_FORMATS.map((format) => {
        const f = group.find((g) => g.format === format);
        return `<td>${f ? `${link(f.path, format)} ${size(f)}` : ''}</td>`;
      }).join('');
      return `<tr><th scope="row">${escapeHtml(what)}</th><td>${b.matrices.length}</td>${cells}</tr>`;
    })
    .join('\n');
  const offlineMirror = `<h2 id="mirror">Offline mirror</h2>
<div class="scroll" tabindex="0" role="region" aria-label="The offline mirror">
<table>
<caption>The whole site as one archive, and the SHA-256 of every file</caption>
<thead><tr><th scope="col">file</th><th scope="col">size</th><th scope="col">what</th></tr></thead>
<tbody>
<tr><td>${link(ARCHIVE)}</td><td>${askedSize(ARCHIVE, 'not part of an unpacked mirror')}</td><td>every page, matrix, logo, bulk file and host rule of this site, in the folder <code>${ARCHIVE_FOLDER}/</code></td></tr>
<tr><td>${link(MANIFEST)}</td><td>${askedSize(MANIFEST, 'missing')}</td><td>SHA-256 of every file of the site but the archive (<code>sha256sum</code> format), the same inside the archive</td></tr>
<tr><td>${link(ARCHIVE_SUM)}</td><td></td><td>SHA-256 of the archive (<code>sha256sum -c ${fileName(ARCHIVE_SUM)}</code> beside it)</td></tr>
</tbody>
</table>
</div>
<pre tabindex="0" role="region" aria-label="Commands: verify, unpack, verify, serve">sha256sum -c ${fileName(ARCHIVE_SUM)}
tar xzf ${fileName(ARCHIVE)}
(cd ${ARCHIVE_FOLDER} &amp;&amp; sha256sum -c --quiet ${MANIFEST.slice(1)})
node ${ARCHIVE_FOLDER}/serve.mjs     # the whole API; then open http://localhost:8080/</pre>
<p>The archive's <code>README.md</code> says how to serve it with nginx, Caddy or Apache (configurations included), on Netlify, or as plain files (<code>npx http-server</code>: path URLs only).</p>
<p>In a clone of this project, <code>npm run verify -- ${ARCHIVE_FOLDER}</code> checks the mirror too and names every missing, altered or extra file.</p>
`;
  const compactNote = `<h2 id="mirror">Offline mirror</h2>
<p>This copy of the site renders most pages on request, so there is no archive of the whole site here. The files below are complete.</p>
`;
  return rebase(`${htmlHead(`Downloads – ${release.info.name} (JASPAR mirror)`, `<script src="${DOWNLOADS_JS}" defer></script>\n`)}<body>
${siteHeader(release.info, `<a href="${listDir(1)}">Matrix list</a>`)}
<main id="main" tabindex="-1">
<h1>Downloads</h1>
<p>${name} as files: every matrix in one file per format, JASPAR's download bundles by collection and taxon, the binding sites${archive ? ', and the whole site as one archive to use offline' : ''}. Links inside the files point at <code>${escapeHtml(base)}</code>.</p>

${archive ? offlineMirror : compactNote}
<h2 id="list">The whole list in one file</h2>
<div class="scroll" tabindex="0" role="region" aria-label="The whole list in one file">
<table>
<caption>Every matrix of the list (${release.matrices.length}), in list order: all list pages' results in one file</caption>
<thead><tr><th scope="col">format</th><th scope="col">file</th><th scope="col">size</th></tr></thead>
<tbody>
${listRows}
</tbody>
</table>
</div>

<h2 id="bundles">JASPAR's download bundles</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Download bundles">
<table>
<caption>The sets JASPAR publishes, with JASPAR's file names and layout; records in matrix id order</caption>
<thead><tr><th scope="col">set</th><th scope="col">matrices</th>${BUNDLE_FORMATS.map((f) => `<th scope="col">${f}</th>`).join('')}</tr></thead>
<tbody>
${bundleRows}
</tbody>
</table>
</div>

<h2 id="sites">Binding sites</h2>
<p>Where the release has the binding sites a matrix was built from, its page offers them as a BED file${withSites ? `, e.g. ${link(sitesPath(withSites.matrixId))}` : ''}.</p>
</main>
${siteFooter(release.info)}
</body>
</html>
`, basePathOf(base));
}

/** Asks the server for the sizes the page cannot state (HEAD, Content-Length). */
export const DOWNLOADS_SCRIPT = `// Sizes of the archive and the manifest, which list this page and so cannot be written into it.
(function () {
  'use strict';
  function format(n) {
    if (n < 1000) return n + ' bytes';
    if (n < 1e6) return (n / 1e3).toFixed(1) + ' kB';
    if (n < 1e9) return (n / 1e6).toFixed(1) + ' MB';
    return (n / 1e9).toFixed(2) + ' GB';
  }
  Array.prototype.forEach.call(document.querySelectorAll('[data-size-of]'), function (cell) {
    fetch(cell.getAttribute('data-size-of'), { method: 'HEAD' }).then(function (response) {
      var length = Number(response.headers.get('Content-Length'));
      cell.textContent = !response.ok ? cell.getAttribute('data-missing') : length > 0 ? format(length) : 'size unknown';
    }, function () {
      cell.textContent = 'size unknown';
    });
  });
})();
`;
