// The human-browsable rendering (format=api). Like Django REST Framework's
// browsable API it shows the request, the status, the headers the JSON
// response carries and the pretty-printed JSON with every URL a link; it
// adds a table of the matrices with their logos, pagination, and links to
// every other format. Navigation uses root-relative path URLs, so the page
// works on any static host, with or without JavaScript. Everything from the
// dataset is escaped.
import { BASES } from '../dataset/types.ts';
import { toJson } from './json.ts';
import { pyRepr } from './numbers.ts';
import type { Format, FormatContext, Link, Resource } from './types.ts';

import { DOCS_DIR, DOWNLOADS_PAGE, HOME, SEARCH_PAGE, SITE_CSS, SITE_JS } from '../routes/paths.ts';

export { SEARCH_PAGE, SITE_CSS as API_CSS, SITE_JS as API_JS };

/**
 * A page for a site served under a path (--base-url https://example.org/jaspar/):
 * every root-relative URL in its attributes (href, src, action and the data-
 * attributes the scripts read) gets the path in front. Pages are written with
 * site paths ("/api/v1/matrix/page/2/"); this is the one place that turns them
 * into public hrefs. At the host's root (root "") nothing changes.
 */
export function rebase(html: string, root: string | undefined): string {
  if (!root) return html;
  return html.replace(/ (href|src|action|data-dir|data-index|data-size-of)="\//g, (_, attribute: string) => ` ${attribute}="${root}/`);
}

/** The head every page for people shares; `extra`: lines to add before </head>. */
export function htmlHead(title: string, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${SITE_CSS}">
${extra}</head>
`;
}

/** The banner of every page for people: home link, search box, breadcrumbs. */
export function siteHeader(releaseName: string, breadcrumbs = ''): string {
  return `<header><div class="bar"><p class="brand"><a href="${HOME}">JASPAR REST API</a> <span>static mirror of ${escapeHtml(releaseName)}</span> <span><a href="${DOWNLOADS_PAGE}">Downloads</a></span> <span><a href="${DOCS_DIR}">API documentation</a></span></p>
<form class="search" role="search" action="${SEARCH_PAGE}" method="get"><label for="site-search">Search matrices</label> <input id="site-search" name="q" type="search" placeholder="name, ID, collection or taxon" autocomplete="off"> <button type="submit">Search</button></form></div>
${breadcrumbs ? `<nav aria-label="Breadcrumbs">${breadcrumbs}</nav>` : ''}</header>`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Pretty JSON (4 spaces, as DRF shows it) with every absolute URL a link. */
export function jsonWithLinks(json: string): string {
  let html = '';
  let last = 0;
  for (const match of json.matchAll(/"(https?:\/\/[^"\\\s]*)"/g)) {
    html += escapeHtml(json.slice(last, match.index));
    const url = match[1];
    html += `"<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>"`;
    last = (match.index ?? 0) + match[0].length;
  }
  return html + escapeHtml(json.slice(last));
}

function links(items: Link[], current?: string): string {
  return items
    .map((l) => (l.label === current ? `<span aria-current="page">${escapeHtml(l.label)}</span>` : `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`))
    .join(' ');
}

function pagination(resource: Resource): string {
  const p = resource.nav.pages;
  if (!p) return '';
  const item = (label: string, href: string | null, rel?: string) =>
    href ? `<li><a href="${escapeHtml(href)}"${rel ? ` rel="${rel}"` : ''}>${label}</a></li>` : `<li><span class="disabled">${label}</span></li>`;
  const numbers = p.window
    .map((l) => (Number(l.label) === p.current ? `<li><span aria-current="page">${escapeHtml(l.label)}</span></li>` : `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></li>`))
    .join('');
  return `<nav class="pages" aria-label="Pages"><ul>${item('« First', p.current > 1 ? p.first : null)}${item('‹ Previous', p.previous, 'prev')}${numbers}${item('Next ›', p.next, 'next')}${item('Last »', p.current < p.last ? p.lastHref : null)}</ul><p>Page ${p.current} of ${p.last}</p></nav>`;
}

function matrixTable(resource: Resource, context: FormatContext): string {
  if (resource.kind === 'detail' || resource.matrices.length === 0) return '';
  const rows = resource.matrices
    .map((m) => {
      const href = escapeHtml(context.detailHref(m.matrixId));
      return `<tr><td><a href="${href}">${escapeHtml(m.matrixId)}</a></td><td>${escapeHtml(m.name)}</td><td>${escapeHtml(m.collection)}</td><td>${escapeHtml(m.taxGroup)}</td><td><a href="${href}"><img src="${escapeHtml(context.logoHref(m.matrixId))}" alt="Sequence logo of ${escapeHtml(m.matrixId)}" height="80" loading="lazy"></a></td></tr>`;
    })
    .join('');
  return `<table class="matrices"><caption>Matrices on this page</caption><thead><tr><th scope="col">Matrix</th><th scope="col">Name</th><th scope="col">Collection</th><th scope="col">Taxon</th><th scope="col">Logo</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function matrixDetail(resource: Resource): string {
  if (resource.kind !== 'detail') return '';
  const m = resource.matrices[0];
  const width = m.pfm.A.length;
  const head = Array.from({ length: width }, (_, i) => `<th scope="col">${i + 1}</th>`).join('');
  const body = BASES.map((b) => `<tr><th scope="row">${b}</th>${m.pfm[b].map((v) => `<td>${escapeHtml(pyRepr(v))}</td>`).join('')}</tr>`).join('');
  const logo = resource.nav.logo ? `<img class="logo" src="${escapeHtml(resource.nav.logo)}" alt="Sequence logo of ${escapeHtml(m.matrixId)} ${escapeHtml(m.name)}">` : '';
  const versions = resource.nav.versions?.length ? `<p>Versions: ${links(resource.nav.versions, m.matrixId)}</p>` : '';
  return `<section aria-label="Matrix">${logo}${annotations(m)}<div class="scroll" tabindex="0" role="region" aria-label="Counts of ${escapeHtml(m.matrixId)}"><table class="pfm"><caption>Counts of ${escapeHtml(m.matrixId)}</caption><thead><tr><th scope="col">Base</th>${head}</tr></thead><tbody>${body}</tbody></table></div>${versions}</section>`;
}

/** The release's annotations of a matrix as a definition list; empty ones are left out. */
function annotations(m: Resource['matrices'][number]): string {
  const rows: [string, string][] = [
    ['Name', m.name],
    ['Matrix ID', m.matrixId],
    ['Collection', m.collection],
    ['Taxonomic group', m.taxGroup],
    ['Class', m.tfClass.join('; ')],
    ['Family', m.tfFamily.join('; ')],
    ['Data type', m.dataType],
    ['Species', m.species.map((s) => (s.taxId === null ? s.name : `${s.name} (${s.taxId})`)).join('; ')],
    ['UniProt', m.uniprotIds.join('; ')],
    ['PubMed', m.pubmedIds.join('; ')],
    ['Source', m.source],
    ['Comment', m.comment],
    ['Columns', String(m.pfm.A.length)],
  ];
  const items = rows.filter(([, value]) => value !== '').map(([key, value]) => `<dt>${key}</dt><dd>${escapeHtml(value)}</dd>`).join('');
  return `<dl class="annotations">${items}</dl>`;
}

export const api: Format = {
  id: 'api',
  mediaType: 'text/html; charset=utf-8',
  extension: 'html',
  render(resource, context) {
    const nav = resource.nav;
    const title = `${nav.title} – JASPAR REST API (static mirror)`;
    const formats = nav.formats.map((f) => ({ label: f.format, href: f.href }));
    return rebase(`${htmlHead(title)}<body data-kind="${resource.kind}" data-dir="${escapeHtml(nav.dir)}"${nav.pages ? ` data-page="${nav.pages.current}" data-last-page="${nav.pages.last}"` : ''}>
<script src="${SITE_JS}"></script>
${siteHeader(context.release.name, links(nav.breadcrumbs))}
<main>
<h1>${escapeHtml(nav.title)}</h1>
<nav class="formats" aria-label="Formats"><span>Format:</span> ${links(formats, 'api')}</nav>
${matrixDetail(resource)}${matrixTable(resource, context)}${pagination(resource)}
<section class="response" aria-label="Response">
<pre class="request"><b>GET</b> ${escapeHtml(nav.request)}</pre>
<pre class="response-body"><b>HTTP 200 OK</b>
<b>Allow:</b> GET, HEAD, OPTIONS
<b>Content-Type:</b> application/json
<b>Vary:</b> Accept

${jsonWithLinks(toJson(resource.body, 4))}</pre>
</section>
</main>
</body>
</html>
`, nav.root);
  },
};
