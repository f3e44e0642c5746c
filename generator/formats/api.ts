// The human-browsable rendering (format=api). Like Django REST Framework's
// browsable API it shows the request, the status, the headers the JSON
// response carries and the pretty-printed JSON with every URL a link; it
// adds a table of the matrices with their logos, pagination, and links to
// every other format. Navigation uses root-relative path URLs, so the page
// works on any static host, with or without JavaScript. Everything from the
// dataset is escaped.
import { BASES, type ReleaseInfo } from '../dataset/types.ts';
import { logoSize, renderLogoSvg } from '../logos/svg.ts';
import { consensus, reverseComplement, totalInformation } from '../logos/summary.ts';
import {
  API, DEFAULT_PAGE_SIZE, DOCS_DIR, DOWNLOADS_PAGE, FAVICON, HOME, JASPAR_SITE, LIST, LIST_VALUE, SEARCH_PAGE, SITE_CSS, SITE_JS, indexDir, listDir, queryString, sitesPath,
} from '../routes/paths.ts';
import { listJson, toJson, writeJson } from './json.ts';
import { lastRecord, perItem, perRecordWith } from './records.ts';
import type { Format, FormatContext, Link, Nav, Resource } from './types.ts';

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
  // What / (href|src|action|data-dir|data-index|data-size-of)="\//g would replace, found by indexOf: the regex
  // tried its alternation at every space of the page (1 s of a one-thread render of both releases, whose second
  // lives under /releases/2026).
  let out = '';
  let last = 0;
  for (let at = html.indexOf('="/'); at !== -1; at = html.indexOf('="/', at + 3)) {
    const space = html.lastIndexOf(' ', at);
    if (space === -1 || !REBASED.has(html.slice(space + 1, at))) continue;
    out += html.slice(last, at + 2) + root;
    last = at + 2;
  }
  return last === 0 ? html : out + html.slice(last);
}

/** The attributes rebase() prefixes: URLs, and the data- attributes the scripts read as URLs. */
const REBASED = new Set(['href', 'src', 'action', 'data-dir', 'data-index', 'data-size-of']);

/** The head every page for people shares; `extra`: lines to add before </head>. */
export function htmlHead(title: string, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${FAVICON}" type="image/svg+xml">
<link rel="stylesheet" href="${SITE_CSS}">
${extra}</head>
`;
}

/**
 * The banner of every page for people: a skip link, the site's name, the
 * release shown (a slot for a release switch such as "2024 | 2026" when the
 * site holds several), the search box, the site's sections and breadcrumbs.
 * The page's <main> carries id="main" (the skip link's target).
 */
export function siteHeader(release: Pick<ReleaseInfo, 'name' | 'siteReleases'>, breadcrumbs = ''): string {
  return `<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><p class="brand"><a href="${HOME}"><img class="icon" src="${FAVICON}" alt="" width="24" height="24"> JASPAR <span>mirror</span></a></p>
${releaseSwitch(release)}
<form class="search" role="search" aria-label="Site" action="${SEARCH_PAGE}" method="get"><label for="site-search">Search matrices</label> <input id="site-search" name="q" type="search" placeholder="SOX2, MA0139, human" autocomplete="off"> <button type="submit">Search</button></form></div>
<nav class="sections" aria-label="Sections"><a href="${listDir(1)}">Matrices</a> <a href="${indexDir('collections')}">Collections</a> <a href="${indexDir('taxon')}">Taxa</a> <a href="${indexDir('species', 1, 100)}">Species</a> <a href="${DOWNLOADS_PAGE}">Downloads</a> <a href="${DOCS_DIR}">API</a></nav>
${breadcrumbs ? `<nav class="crumbs" aria-label="Breadcrumbs">${breadcrumbs}</nav>` : ''}</header>`;
}

/**
 * Which release the page shows and, in a site of several, a link to each
 * other release's home. Those links leave this release's site, so they are
 * written with single quotes: rebase() puts this release's path in front of
 * every double-quoted root-relative link, and these already hold the site's.
 */
function releaseSwitch(release: Pick<ReleaseInfo, 'name' | 'siteReleases'>): string {
  const others = (release.siteReleases ?? []).filter((r) => !r.current);
  if (others.length === 0) return `<p class="release"><span>Release</span> <strong>${escapeHtml(release.name)}</strong></p>`;
  const links = others.map((r) => `<a href='${escapeHtml(r.home)}'>${escapeHtml(r.name)}</a>`).join(' ');
  return `<p class="release"><span>Release</span> <strong>${escapeHtml(release.name)}</strong> <span class="switch">· also ${links}</span></p>`;
}

/** The foot of every page for people: the data's source, licence and how to cite it. */
export function siteFooter(release: Pick<ReleaseInfo, 'name' | 'citation' | 'license'>): string {
  const license = release.license ? `, ${escapeHtml(release.license)}` : '';
  const cite = release.citation ? ` Please cite: ${escapeHtml(release.citation)}` : ` Please cite the JASPAR paper of this release (<a href="${JASPAR_SITE}">jaspar.elixir.no</a>).`;
  return `<footer><p>Data: ${escapeHtml(release.name)}${license}, from <a href="${JASPAR_SITE}">JASPAR</a>, the open-access database of transcription factor binding profiles. An unofficial, pre-rendered mirror.${cite}</p></footer>`;
}

/**
 * The text with & < > " ' escaped. A loop over the text, not a replace with a callback: most texts (ids,
 * names, paths) have nothing to escape and come back as they are, and the JSON shown on every page is
 * full of quotes (escaping was a tenth of the api pages' CPU with the callback).
 */
export function escapeHtml(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    let escaped: string;
    switch (text.charCodeAt(i)) {
      case 38: escaped = '&amp;'; break;
      case 60: escaped = '&lt;'; break;
      case 62: escaped = '&gt;'; break;
      case 34: escaped = '&quot;'; break;
      case 39: escaped = '&#39;'; break;
      default: continue;
    }
    out += text.slice(last, i) + escaped;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Where a URL in a body leads a person: an API resource of this site
 * (a path under /api/ without a format) gets ?format=api, because its URL
 * answers JSON, the API's default, on every host; a URL without the
 * trailing slash the folders have (versions_url) gets it. Files (logos,
 * BED), the documentation page and URLs that name a format are left as they are.
 */
export function pageLink(url: string): string {
  const match = /^(https?:\/\/[^/?#]+)?([^?#]*)(\?[^#]*)?$/.exec(url);
  if (!match) return url;
  const [, origin = '', path, query = ''] = match;
  // The documentation is a page already (it has no other format).
  if (!path.includes(`${API}/`) || path.endsWith(DOCS_DIR) || /(^|[?&])format=/.test(query.slice(1)) || /\.[a-z]+$/i.test(path)) return url;
  const folder = path.endsWith('/') ? path : `${path}/`;
  return `${origin}${folder}${query ? `${query}&` : '?'}format=api`;
}

/** Pretty JSON (4 spaces, as DRF shows it) with every absolute URL a link (to its page for people, pageLink). */
export function jsonWithLinks(json: string): string {
  let html = '';
  let last = 0;
  for (const match of json.matchAll(/"(https?:\/\/[^"\\\s]*)"/g)) {
    html += escapeHtml(json.slice(last, match.index));
    const url = match[1];
    html += `"<a href="${escapeHtml(pageLink(url))}">${escapeHtml(url)}</a>"`;
    last = (match.index ?? 0) + match[0].length;
  }
  return html + escapeHtml(json.slice(last));
}

/** A list item as the response shows it (at the depth of a list's results), linked and escaped once per record. */
const linkedItem = perItem((item) => jsonWithLinks(writeJson(item, 4, ' '.repeat(8))), 'api-item');

function links(items: Link[], current?: string): string {
  return items
    .map((l) => (l.label === current ? `<span aria-current="page">${escapeHtml(l.label)}</span>` : `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`))
    .join(' ');
}

const a = (href: string, label: string, attributes = '') => `<a href="${escapeHtml(href)}"${attributes}>${escapeHtml(label)}</a>`;
/** A link off the site (UniProt, PubMed, NCBI, JASPAR). */
const external = (href: string, label: string) => a(href, label, ' rel="external"');
const searchHref = (query: string) => `${SEARCH_PAGE}${queryString({ q: query })}`;

/** Pagination for people: first, previous, the pages around, next, last, and a box to jump to any page (site.js). */
function pagination(resource: Resource): string {
  const p = resource.nav.pages;
  if (!p) return '';
  const item = (label: string, href: string | null, rel?: string) =>
    href ? `<li><a href="${escapeHtml(href)}"${rel ? ` rel="${rel}"` : ''}>${label}</a></li>` : `<li><span class="disabled">${label}</span></li>`;
  const numbers = p.window
    .map((l) => (Number(l.label) === p.current ? `<li><span aria-current="page">${escapeHtml(l.label)}</span></li>` : `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></li>`))
    .join('');
  // Shown by site.js, which goes to the page's folder: without it a static host would answer ?page=N with the page already shown.
  const jump = p.last > 1
    ? `<form class="jump" method="get" action="${escapeHtml(resource.nav.dir)}" data-jump hidden><input type="hidden" name="format" value="api"><label for="jump-page">Go to page</label> <input id="jump-page" name="page" type="number" min="1" max="${p.last}" value="${p.current}" inputmode="numeric"> <button type="submit">Go</button></form>`
    : '';
  return `<nav class="pages" aria-label="Pages"><ul>${item('« First', p.current > 1 ? p.first : null)}${item('‹ Previous', p.previous, 'prev')}${numbers}${item('Next ›', p.next, 'next')}${item('Last »', p.current < p.last ? p.lastHref : null)}</ul><p>Page ${p.current} of ${p.last}</p>${jump}</nav>`;
}

type Shown = Resource['matrices'][number];

/** A list value linked to its pre-rendered list, or plain text where the mirror has no such list. */
function listLink(key: 'collection' | 'tax_group' | 'tax_id', value: string, label = value): string {
  return value && LIST_VALUE.test(value) ? a(listDir(1, DEFAULT_PAGE_SIZE, { [key]: value }), label) : escapeHtml(label);
}

function speciesLinks(m: Shown): string {
  return (m.species ?? []).map((s) => (s.taxId === null ? escapeHtml(s.name) : listLink('tax_id', String(s.taxId), s.name))).join(', ');
}

/** A logo <img> with its size, so that the layout does not move as logos load. */
function logoImg(src: string, m: Shown, height: number, attributes = '', alt = `Sequence logo of ${m.matrixId}`): string {
  const size = logoSize(m.pfm?.A.length ?? 0);
  const width = Math.round((size.width * height) / size.height);
  return `<img${attributes} src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${width}" height="${height}"`;
}

/** A record's row in the list pages' table, made once per record and context (formats/records.ts: a record is on dozens of pages). */
const matrixRow = perRecordWith((m: Shown, context: FormatContext) => {
  const href = escapeHtml(context.detailHref(m.matrixId));
  return `<tr><td><a href="${href}">${escapeHtml(m.matrixId)}</a></td><td>${escapeHtml(m.name)}</td><td>${listLink('collection', m.collection)}</td><td>${listLink('tax_group', m.taxGroup)}</td><td>${speciesLinks(m)}</td><td class="logo-cell"><a href="${href}" tabindex="-1">${logoImg(context.logoHref(m.matrixId), m, 60)} loading="lazy"></a></td></tr>`;
}, 'api-row');

function matrixTable(resource: Resource, context: FormatContext): string {
  if (resource.kind === 'detail' || resource.matrices.length === 0) return '';
  const rows = resource.matrices.map((m) => matrixRow(m, context)).join('');
  return `<table class="matrices"><caption>Matrices on this page</caption><thead><tr><th scope="col">Matrix</th><th scope="col">Name</th><th scope="col">Collection</th><th scope="col">Taxon</th><th scope="col">Species</th><th scope="col">Logo</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A count as the release has it: whole numbers without ".0", others to three decimals. */
export function countText(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** File names of the downloads of a matrix ("MA0139.1.jaspar"), by format. */
const DOWNLOAD_EXTENSIONS: Record<string, string> = { jaspar: 'jaspar', meme: 'meme', transfac: 'transfac', pfm: 'pfm', json: 'json', jsonp: 'js', yaml: 'yaml', bed: 'bed' };
const DOWNLOAD_LABELS: Record<string, string> = { jaspar: 'JASPAR', meme: 'MEME', transfac: 'TRANSFAC', pfm: 'PFM (counts)', json: 'JSON', jsonp: 'JSONP', yaml: 'YAML', bed: 'BED (binding sites)' };

/** The reverse complement's logo, drawn inline (see matrixDetail for why), labelled for screen readers. */
function inlineLogo(m: Shown): string {
  return renderLogoSvg(reverseComplement(m.pfm)).trimEnd().replace('<svg ', `<svg class="logo" role="img" aria-label="Sequence logo of the reverse complement of ${escapeHtml(m.matrixId)}" `);
}

/**
 * The matrix page: what a biologist comes for first (logos, annotations with
 * links, counts), then the downloads, the versions and the API response.
 * The forward logo is the logo file; the reverse complement is drawn into the
 * page by the logo module: a second file per matrix would double the logo
 * files (5,278 more in the 2024 release, against hosts' file limits), and no
 * transform of the forward file draws it (a rotation turns letters upside
 * down and does not swap A↔T, C↔G). Drawn inline it costs about 3 KB
 * compressed per page; site.js offers it as an SVG download.
 */
function matrixDetail(resource: Resource, context: FormatContext): string {
  if (resource.kind !== 'detail') return '';
  const m = resource.matrices[0];
  const id = escapeHtml(m.matrixId);
  const width = m.pfm.A.length;
  const versions = resource.nav.versions ?? [];
  const latest = versions[versions.length - 1];
  const newer = latest && latest.label !== m.matrixId && resource.nav.request.includes(`/${m.matrixId}/`)
    ? `<p class="notice" role="note">A newer version of this profile exists: <a href="${escapeHtml(latest.href)}">${escapeHtml(latest.label)}</a>.</p>`
    : '';
  const logo = resource.nav.logo
    ? `<figure>${logoImg(resource.nav.logo, m, logoSize(width).height, ' class="logo"', `Sequence logo of ${m.matrixId} ${m.name}`)}><figcaption>Forward strand · ${a(resource.nav.logo, 'Download SVG', ` download="${id}.svg"`)}</figcaption></figure>`
    : '';
  const logos = `<section class="logos" aria-labelledby="logos">
<h2 id="logos">Sequence logos</h2>
${logo}<figure>${reverseLogo(m)}<figcaption>Reverse complement · <a href="#logos" download="${id}.rc.svg" data-svg-download hidden>Download SVG</a></figcaption></figure>
</section>`;
  const counts = `<section aria-labelledby="counts"><h2 id="counts">Counts</h2>
<p class="muted scroll-cue" hidden>${width} positions: the table scrolls sideways.</p><div class="scroll" tabindex="0" role="region" aria-label="Counts of ${id}"><table class="pfm"><caption>Counts of ${id}</caption>${countsTable(m)}</table></div></section>`;
  const files = resource.nav.formats
    .filter((f) => f.format !== 'api' && DOWNLOAD_EXTENSIONS[f.format] && (f.format !== 'bed' || m.sites !== null))
    .map((f) => `<li>${a(f.href, DOWNLOAD_LABELS[f.format], ` download="${id}.${DOWNLOAD_EXTENSIONS[f.format]}"`)}</li>`)
    .join('');
  const sites = m.sites !== null ? `<li>${a(sitesPath(m.matrixId), 'Binding sites (release BED file)', ` download="${id}.sites.bed"`)}</li>` : '';
  const downloads = `<section aria-labelledby="downloads"><h2 id="downloads">Downloads</h2><ul class="downloads">${files}${sites}</ul></section>`;
  const versionList = versions.length
    ? `<section aria-labelledby="versions"><h2 id="versions">Versions</h2><p>${links(versions, m.matrixId)}${versions.length > 1 ? ` · the latest is ${escapeHtml(latest.label)}` : ''}</p></section>`
    : '';
  return `${newer}<div class="matrix">${logos}${recordAnnotations(m)}</div>${counts}${downloads}${versionList}`;
}

// The parts of a matrix page drawn from its record alone, kept for the last record: a base id's page shows its latest
// version's record again, in the task right after (plan/resources.ts planBaseId).
const reverseLogo = lastRecord(inlineLogo);
const recordAnnotations = lastRecord((m) => annotations(m));

/** The counts table's head and body. */
const countsTable = lastRecord((m) => {
  const head = Array.from({ length: m.pfm.A.length }, (_, i) => `<th scope="col">${i + 1}</th>`).join('');
  const body = BASES.map((b) => `<tr><th scope="row">${b}</th>${m.pfm[b].map((v) => `<td>${countText(v)}</td>`).join('')}</tr>`).join('');
  return `<thead><tr><th scope="col">Base</th>${head}</tr></thead><tbody>${body}</tbody>`;
});

/** The release's annotations of a matrix, linked where a list, a search or another database has more; empty ones are left out. */
function annotations(m: Shown): string {
  const searchLinks = (values: string[]) => values.map((v) => a(searchHref(v), v)).join('; ');
  const pfm = m.pfm;
  const rows: [string, string][] = [
    ['Name', escapeHtml(m.name)],
    ['Matrix ID', `${escapeHtml(m.matrixId)} · ${external(`${JASPAR_SITE}matrix/${m.matrixId}/`, 'on JASPAR')}`],
    ['Collection', listLink('collection', m.collection)],
    ['Taxonomic group', listLink('tax_group', m.taxGroup)],
    ['Species', m.species.map((s) => (s.taxId === null ? escapeHtml(s.name) : `${listLink('tax_id', String(s.taxId), s.name)} (${external(taxonomyHref(s.taxId), `NCBI Taxonomy ${s.taxId}`)})`)).join('; ')],
    ['Class', searchLinks(m.tfClass)],
    ['Family', searchLinks(m.tfFamily)],
    ['Data type', m.dataType ? a(searchHref(m.dataType), m.dataType) : ''],
    ['UniProt', m.uniprotIds.map((u) => external(`https://www.uniprot.org/uniprotkb/${encodeURIComponent(u)}`, u)).join(', ')],
    ['PubMed', m.pubmedIds.map((p) => external(`https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(p)}/`, p)).join(', ')],
    ['Source', escapeHtml(m.source)],
    ['Comment', escapeHtml(m.comment)],
    ['Length', `${pfm.A.length} positions`],
    ['Information content', `${totalInformation(pfm).toFixed(2)} bits`],
    ['Consensus', `<code class="consensus">${consensus(pfm)}</code>`],
  ];
  const items = rows.filter(([, value]) => value !== '').map(([key, value]) => `<dt>${key}</dt><dd>${value}</dd>`).join('');
  return `<dl class="annotations">${items}</dl>`;
}

const taxonomyHref = (taxId: number) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${taxId}`;

/** Collections, taxa, species and releases as a table of links (nav.table). */
function indexTable(resource: Resource): string {
  const table = resource.nav.table;
  if (!table) return '';
  const cell = (c: NonNullable<Nav['table']>['rows'][number][number]) =>
    typeof c === 'string' ? escapeHtml(c) : 'external' in c ? external(c.href, c.label) : a(c.href, c.label);
  const rows = table.rows.map((r) => `<tr>${r.map((c) => `<td>${cell(c)}</td>`).join('')}</tr>`).join('');
  // In a region that scrolls on a narrow screen rather than widening the page.
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(resource.nav.title)}"><table class="index"><caption>${escapeHtml(resource.nav.title)}</caption><thead><tr>${table.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * The list's filters: links to the pre-rendered lists (work without
 * JavaScript), and a form combining collection, taxonomic group, latest
 * versions and page size, which site.js turns into the list's folder (every
 * combination it offers is pre-rendered, plan/views.ts).
 */
function listFilters(resource: Resource): string {
  const view = resource.nav.view;
  if (!view?.choices || resource.kind !== 'list') return '';
  // The same on every page of a view (each page's nav is its own object: compared by what it prints from).
  const key = JSON.stringify([view.filters, view.pageSize, view.pageSizes, view.choices]);
  let text = shownFilters.get(key);
  if (text === undefined) {
    if (shownFilters.size >= FILTERS_KEPT) shownFilters.clear();
    shownFilters.set(key, (text = filterSection(view.filters, view.pageSize, view.pageSizes, view.choices)));
  }
  return text;
}

/** The filter sections of the last views shown (a worker renders the pages of many views over the same records at once). */
const shownFilters = new Map<string, string>();
const FILTERS_KEPT = 1_000;

function filterSection(filters: Record<string, string>, pageSize: number, pageSizes: readonly number[], choices: NonNullable<NonNullable<Nav['view']>['choices']>): string {
  const option = (value: string, label: string, selected: boolean) => `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const select = (key: 'collection' | 'tax_group', label: string) =>
    `<label>${label} <select name="${key}">${option('', 'all', !filters[key])}${choices[key].map((v) => option(v, v, filters[key] === v)).join('')}</select></label>`;
  const sizes = pageSizes.map((n) => option(String(n), String(n), n === pageSize)).join('');
  const chips = (key: 'collection' | 'tax_group') => choices[key].map((v) => (filters[key] === v && Object.keys(filters).length === 1 ? `<strong>${escapeHtml(v)}</strong>` : listLink(key, v))).join(' ');
  return `<section class="filters" aria-label="Filter the list">
<p><span class="muted">Collection:</span> ${chips('collection')} <span class="muted">Taxon:</span> ${chips('tax_group')} · ${a(listDir(1, DEFAULT_PAGE_SIZE, { version: 'latest' }), 'latest versions only')}${Object.keys(filters).length ? ` · ${a(listDir(1), 'all matrices')}` : ''}</p>
<form method="get" action="${LIST}/" data-filters hidden>${select('collection', 'Collection')} ${select('tax_group', 'Taxon')} <label><input type="checkbox" name="version" value="latest"${filters.version ? ' checked' : ''}> latest versions only</label> <label>Per page <select name="page_size">${sizes}</select></label> <button type="submit">Show</button></form>
</section>`;
}

export const api: Format = {
  id: 'api',
  mediaType: 'text/html; charset=utf-8',
  extension: 'html',
  render(resource, context) {
    const nav = resource.nav;
    const title = `${nav.title} – ${context.release.name} (JASPAR mirror)`;
    const m = resource.kind === 'detail' ? resource.matrices[0] : undefined;
    // A matrix without binding sites has no BED to show.
    const formats = nav.formats.filter((f) => !(m && f.format === 'bed' && m.sites === null)).map((f) => ({ label: f.format, href: f.href }));
    // The response's JSON is not rebased: its links are absolute URLs (jsonWithLinks), and a quote in it is
    // escaped, so no attribute starts in it; it is most of a list page, which rebase() would read through.
    return rebase(`${htmlHead(title)}<body data-kind="${resource.kind}" data-dir="${escapeHtml(nav.dir)}"${nav.pages ? ` data-page="${nav.pages.current}" data-last-page="${nav.pages.last}"` : ''}>
<script src="${SITE_JS}"></script>
${siteHeader(context.release, links(nav.breadcrumbs))}
<main id="main" tabindex="-1">
<h1>${escapeHtml(nav.title)}</h1>
${matrixDetail(resource, context)}${listFilters(resource)}${indexTable(resource)}${matrixTable(resource, context)}${pagination(resource)}
<nav class="formats" aria-label="Formats"><span>This ${m ? 'matrix' : 'page'} from the API:</span> ${links(formats, 'api')}</nav>
<details class="response"><summary>API response (JSON)</summary>
<pre class="request"><b>GET</b> ${escapeHtml(nav.request)}</pre>
<pre class="response-body"><b>HTTP 200 OK</b>
<b>Allow:</b> GET, HEAD, OPTIONS
<b>Content-Type:</b> application/json
<b>Vary:</b> Accept

`, nav.root) + (listJson(resource, 4, linkedItem, jsonWithLinks) ?? jsonWithLinks(toJson(resource.body, 4))) + rebase(`</pre>
</details>
</main>
${siteFooter(context.release)}
</body>
</html>
`, nav.root);
  },
};
