// The fixed paths of the API and of the site's own pages and assets, and the
// folders of list views and index lists. A leaf module (it imports nothing),
// so that formats/api.ts can use it without an import cycle through the
// format registry; urls.ts re-exports it.
export const API = '/api/v1';
export const LIST = `${API}/matrix`;
/** The documentation page; also answers rbioapi's health check (HEAD /api/v1/live-api/). */
export const DOCS_DIR = `${API}/live-api/`;

// The site's own pages and assets (not the real service's).
export const HOME = '/';
export const SEARCH_PAGE = '/search/';
export const DOWNLOADS_PAGE = '/download/';
export const SITE_CSS = '/static/api/site.css';
export const SITE_JS = '/static/api/site.js';
export const SEARCH_JS = '/static/api/search.js';
export const SEARCH_INDEX = '/static/search/index.json';
/** Releases other than the default one: each a whole site under /releases/<year>/ (release=<year> is routed there). */
export const RELEASES_DIR = '/releases/';
/** The site's icon (a small sequence logo), in every page's head and banner. */
export const FAVICON = '/static/api/favicon.svg';
/** JASPAR itself: the pages for people link a matrix's profile there (…/matrix/MA0139.1/). */
export const JASPAR_SITE = 'https://jaspar.elixir.no/';
/** What Netlify and http-server answer a missing file with: the API's "Not found." for programs. */
export const NOT_FOUND_PAGE = '/404.html';
/** The 404 for people, where a host answers by the Accept header (nginx, Caddy, Apache, the edge handler). */
export const NOT_FOUND_PEOPLE = '/404/';

// List views and index lists (here, not in urls.ts, so that the pages for people can link them).
export const DEFAULT_PAGE_SIZE = 10;
/** List filters, in the order their keys sort (the real service writes query keys alphabetically). */
export const FILTER_KEYS = ['collection', 'tax_group', 'tax_id', 'version'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filters = Partial<Record<FilterKey, string>>;
/** Folder of a list view (filters + page size) without its page:
 *  /api/v1/matrix/[collection/C/][tax_group/G/][tax_id/T/][version/V/][page_size/S/].
 *  The unfiltered list at the default page size keeps /api/v1/matrix/page/N/.
 *  A page size may be a placeholder (":page_size", Netlify's rules). */
export function listViewDir(pageSize: number | string = DEFAULT_PAGE_SIZE, filters: Filters = {}): string {
  let dir = `${LIST}/`;
  for (const key of FILTER_KEYS) if (filters[key] !== undefined) dir += `${key}/${filters[key]}/`;
  return pageSize === DEFAULT_PAGE_SIZE ? dir : `${dir}page_size/${pageSize}/`;
}
export const listDir = (page: number | string, pageSize: number | string = DEFAULT_PAGE_SIZE, filters: Filters = {}) => `${listViewDir(pageSize, filters)}page/${page}/`;
/**
 * The one query-string builder: "?k=v&k=v" from pairs in the order given, or
 * sorted by key (the real service writes next/previous with its keys in
 * alphabetical order). Values are percent-encoded, unless `raw` (Netlify
 * placeholders such as ":page" must stay as they are). "" for no pairs.
 */
export function queryString(params: Record<string, string> | readonly (readonly [string, string])[], options: { sorted?: boolean; raw?: boolean } = {}): string {
  const pairs = Array.isArray(params) ? [...(params as [string, string][])] : Object.entries(params as Record<string, string>);
  if (options.sorted) pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${options.raw ? v : encodeURIComponent(v)}`).join('&')}` : '';
}
export const SITES_FILES = '/download/bed_files/';
export const sitesPath = (matrixId: string) => `${SITES_FILES}${matrixId}.bed`;
/** Folder of an index list (collections, taxon, species, releases) page. */
export const indexDir = (endpoint: string, page: number | string = 1, pageSize: number | string = DEFAULT_PAGE_SIZE) =>
  `${API}/${endpoint}/${pageSize === DEFAULT_PAGE_SIZE ? '' : `page_size/${pageSize}/`}page/${page}/`;

/** A filter value with pre-rendered list views: it becomes a folder name and a Netlify placeholder value, so plain characters only (plan/views.ts). */
export const LIST_VALUE = /^[A-Za-z0-9_-]+$/;
