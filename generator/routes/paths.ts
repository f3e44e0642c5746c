// The fixed paths of the API and of the site's own pages and assets, the
// route patterns (ROUTES: each compiled once, compile.ts) and the folders of
// list views and index lists built from them. A leaf module (it imports only
// compile.ts, itself a leaf), so that formats/api.ts can use it without an
// import cycle through the format registry; urls.ts re-exports it.
import { compileRoute, type CompiledRoute } from './compile.ts';

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

export const SITES_FILES = '/download/bed_files/';
export const LOGOS = '/static/logos/svg/';

/** What each route parameter may hold (in a matcher; the builders take any value, Netlify's ":page" included). */
export const PARAM_PATTERNS: Readonly<Record<string, string>> = {
  matrix_id: '[A-Z]{2}[0-9]{4}\\.[0-9]+',
  base_id: '[A-Z]{2}[0-9]{4}',
  collection: '[A-Za-z0-9_-]+',
  tax_group: '[A-Za-z0-9_-]+',
  tax_id: '[0-9]+',
  version: '[A-Za-z0-9_-]+',
  release: '[0-9]+',
  year: '[0-9]{4}',
  endpoint: '[a-z]+',
  page: '[0-9]+',
  page_size: '[0-9]+',
};

/**
 * Every path pattern of the site, written once (compile.ts gives the
 * language). A resource has its public path (as the service has it) and,
 * where the files lie elsewhere, its folder ("…Dir"): ids in shard folders,
 * list views in folders by filter, page size and page. routes/table.ts puts
 * them under the site's path; hosts, the edge handler, the OpenAPI
 * description and the URL functions read them compiled (ROUTES).
 */
export const PATTERNS = {
  root: `${API}/`,
  list: `${LIST}/`,
  detail: `${LIST}/{matrix_id}/`,
  detailDir: `${LIST}/{shard}{matrix_id}/`,
  base: `${LIST}/{base_id}/`,
  baseDir: `${LIST}/{shard}{base_id}/`,
  versions: `${LIST}/{base_id}/versions/`,
  versionsDir: `${LIST}/{shard}{base_id}/versions/`,
  /** The service writes versions_url without its trailing slash. */
  versionsUrl: `${LIST}/{base_id}/versions`,
  collections: `${API}/collections/`,
  collection: `${API}/collections/{collection}/`,
  taxa: `${API}/taxon/`,
  taxon: `${API}/taxon/{tax_group}/`,
  speciesList: `${API}/species/`,
  species: `${API}/species/{tax_id}/`,
  releases: `${API}/releases/`,
  release: `${API}/releases/{release}/`,
  sites: `${API}/sites/{matrix_id}/`,
  logo: `${LOGOS}{matrix_id}.svg`,
  logoFile: `${LOGOS}{shard:logos}{matrix_id}.svg`,
  sitesFile: `${SITES_FILES}{matrix_id}.bed`,
  /** An index list (collections, taxon, species, releases) by its endpoint. */
  index: `${API}/{endpoint}/`,
  /** A list view of the matrices without its page: the filters in FILTER_KEYS order, then the page size unless the default. */
  listView: `${LIST}/[collection/{collection}/][tax_group/{tax_group}/][tax_id/{tax_id}/][version/{version}/][page_size/{page_size}/]`,
  listPage: `${LIST}/[collection/{collection}/][tax_group/{tax_group}/][tax_id/{tax_id}/][version/{version}/][page_size/{page_size}/]page/{page}/`,
  indexPage: `${API}/{endpoint}/[page_size/{page_size}/]page/{page}/`,
  /** Another release's whole site (release=<year> is routed there). */
  releaseSite: `${RELEASES_DIR}{year}`,
} as const;
export type PatternName = keyof typeof PATTERNS;

/** PATTERNS compiled, each once. */
export const ROUTES = Object.fromEntries(Object.entries(PATTERNS).map(([name, source]) => [name, compileRoute(source, PARAM_PATTERNS)])) as Record<PatternName, CompiledRoute>;

/** A page size as a list folder has it: none at the default. */
const sizeValue = (pageSize: number | string) => (pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize);

/** Folder of a list view (filters + page size) without its page:
 *  /api/v1/matrix/[collection/C/][tax_group/G/][tax_id/T/][version/V/][page_size/S/].
 *  The unfiltered list at the default page size keeps /api/v1/matrix/page/N/.
 *  A page size may be a placeholder (":page_size", Netlify's rules). */
export function listViewDir(pageSize: number | string = DEFAULT_PAGE_SIZE, filters: Filters = {}): string {
  return ROUTES.listView.build({ ...filters, page_size: sizeValue(pageSize) });
}
export const listDir = (page: number | string, pageSize: number | string = DEFAULT_PAGE_SIZE, filters: Filters = {}) => ROUTES.listPage.build({ ...filters, page_size: sizeValue(pageSize), page });
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
export const sitesPath = (matrixId: string) => ROUTES.sitesFile.build({ matrix_id: matrixId });
/** Folder of an index list (collections, taxon, species, releases) page. */
export const indexDir = (endpoint: string, page: number | string = 1, pageSize: number | string = DEFAULT_PAGE_SIZE) =>
  ROUTES.indexPage.build({ endpoint, page_size: sizeValue(pageSize), page });

/** A filter value with pre-rendered list views: it becomes a folder name and a Netlify placeholder value, so plain characters only (plan/views.ts). */
export const LIST_VALUE = /^[A-Za-z0-9_-]+$/;
