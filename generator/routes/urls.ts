// The one place that knows the URL layout. Every resource has
//  - a query URL, the address the real JASPAR API uses (bodies carry these);
//  - a path URL, a plain file path that any static server can serve;
//  - an output path, relative to the output folder (the path URL without "/").
// Links in bodies, the redirect rules and the writer all ask this module.
import { FORMATS, type FormatId } from '../formats/registry.ts';
import { API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, ROUTES, indexDir, listDir, queryString, sitesPath, type FilterKey, type Filters } from './paths.ts';
import type { Layout } from './shard.ts';

export * from './paths.ts';


/** File name of a resource in format f inside its folder. The api format is
 *  index.html so that a static server answers the folder URL with the page. */
export function fileName(format: FormatId): string {
  return `index.${FORMATS[format].extension}`;
}

/** Page sizes pre-rendered for every list; the real service caps page_size at 1000. */
export const PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000] as const;

/** The answer to a filter value the release does not hold (collection=DL): the service's empty
 *  list, page 1, in each format; a folder under the API that no route answers by its own URL. */
export const EMPTY_LIST_DIR = `${API}/empty-list/`;
/** A filter value whose missing folder means no match (the service folds collection to upper
 *  case and tax_group to lower case; tax_id is a number; version filters only on "latest"):
 *  for any other spelling the folder may be missing while the service still finds matrices. */
export const NO_MATCH_VALUE: Record<FilterKey, string> = {
  collection: '[A-Z0-9_-]+',
  tax_group: '[a-z0-9_-]+',
  tax_id: '[1-9][0-9]*',
  version: 'latest',
};

/** Folders of a matrix or base id and of a base id's versions, in the site's layout: id folders move into
 *  shard folders only when a release is too large for one folder (shard.ts). */
export const detailDir = (layout: Layout, matrixId: string) => ROUTES.detailDir.build({ matrix_id: matrixId }, layout);
export const versionsDir = (layout: Layout, baseId: string) => ROUTES.versionsDir.build({ base_id: baseId }, layout);

/** Path URL of a resource folder + format: "/api/v1/matrix/page/3/index.json".
 *  The api format is addressed by its folder, which static servers map to index.html. */
export function pathUrl(dir: string, format: FormatId): string {
  return format === 'api' ? dir : `${dir}${fileName(format)}`;
}


/** A folder's page for people as a query URL ("…/MA0004.1/?format=api"). */
export const apiPageUrl = (dir: string) => `${dir}${queryString({ format: 'api' })}`;

/** Where pages for people link to a resource's own page. On Netlify a
 *  matrix or versions folder URL answers JSON (the API's default format),
 *  so those links ask for the page with ?format=api, which static hosts
 *  answer with the folder's index.html as well. List page folders have no
 *  rule and are linked as they are. */
export function pageHref(dir: string): string {
  return isListDir(dir) ? dir : apiPageUrl(dir);
}

export const isListDir = (dir: string) => dir.startsWith(`${LIST}/`) && /\/page\/[0-9]+\/$/.test(dir);

/** Output path (relative, no leading slash) of a resource folder + format. */
export function outputPath(dir: string, format: FormatId): string {
  return `${dir}${fileName(format)}`.slice(1);
}

/**
 * How bodies link to other resources. "query": the service's URLs, as JASPAR
 * writes them (the default; a host answers them with its rules or the edge
 * handler). "path" (--links path): the file that answers each, its path URL,
 * for hosts that ignore query strings (http-server, GitHub Pages, S3), where
 * a client following `next` by its query URL gets page 1's page for people.
 * Bodies then differ from the service's; every builder of a link in a body
 * below takes the style, so that is the one switch.
 */
export const LINK_STYLES = ['query', 'path'] as const;
export type LinkStyle = (typeof LINK_STYLES)[number];

/** A resource's link in path style: its file in `format`, JSON where the service's URL names no format (the API's default). */
const fileLink = (base: string, dir: string, format: FormatId = 'json') => `${base}${pathUrl(dir, format)}`;

// Query URLs, as the real service writes them (keys in alphabetical order), or in path style the files.
export function listQueryUrl(base: string, format: FormatId, page: number, pageSize: number = DEFAULT_PAGE_SIZE, filters: Filters = {}, style: LinkStyle = 'query'): string {
  if (style === 'path') return fileLink(base, listDir(page, pageSize, filters), format);
  const params: [string, string][] = [['format', format], ['page', String(page)]];
  if (pageSize !== DEFAULT_PAGE_SIZE) params.push(['page_size', String(pageSize)]);
  for (const key of FILTER_KEYS) if (filters[key] !== undefined) params.push([key, filters[key]!]);
  return `${base}${LIST}${queryString(params, { sorted: true })}`;
}
/** A matrix's url; in path style its JSON file in the site's layout. */
export const detailUrl = (base: string, matrixId: string, style: LinkStyle = 'query', layout?: Layout) =>
  (style === 'path' ? fileLink(base, detailDir(needLayout(layout), matrixId)) : `${base}${ROUTES.detail.build({ matrix_id: matrixId })}`);
export const detailQueryUrl = (base: string, matrixId: string, format: FormatId) => `${detailUrl(base, matrixId)}${queryString({ format })}`;
/** The real service writes versions_url without a trailing slash. */
export const versionsUrl = (base: string, baseId: string, style: LinkStyle = 'query', layout?: Layout) =>
  (style === 'path' ? fileLink(base, versionsDir(needLayout(layout), baseId)) : `${base}${ROUTES.versionsUrl.build({ base_id: baseId })}`);
export const versionsQueryUrl = (base: string, baseId: string, format: FormatId) => `${base}${ROUTES.versions.build({ base_id: baseId })}${queryString({ format })}`;

const needLayout = (layout: Layout | undefined): Layout => {
  if (!layout) throw new Error('a path-style link names a file in the site\'s layout; pass it');
  return layout;
};

/** A matrix's logo file, in the site's layout (in a shard folder past the folder limit); bodies link the file itself. */
export const logoPath = (layout: Layout, matrixId: string) => ROUTES.logoFile.build({ matrix_id: matrixId }, layout);
export const logoUrl = (base: string, layout: Layout, matrixId: string) => `${base}${logoPath(layout, matrixId)}`;
export const sitesUrl = (base: string, matrixId: string) => `${base}${sitesPath(matrixId)}`;

export const errorPaths = {
  notFound: `${API}/errors/not-found.json`,
  invalidPage: `${API}/errors/invalid-page.json`,
} as const;
/**
 * Endpoints of the real service that hold no matrix data of the mirror's
 * releases (TFFM hidden Markov models, protein-sequence inference): every
 * host answers them 404 with why, from this file, never a page of the site.
 */
export const ABSENT_ENDPOINTS = [
  { path: `${API}/tffm`, what: 'TFFM profiles (JASPAR\'s transcription factor flexible models)' },
  { path: `${API}/infer`, what: 'profile inference from a protein sequence' },
] as const;
export const absentPath = (endpoint: string) => `${API}/errors/absent/${endpoint.slice(endpoint.lastIndexOf('/') + 1)}.json`;
export const absentDetail = (what: string) => `This mirror answers the matrix profiles of /api/v1/matrix/ and the lists around them; it holds no ${what}. Ask JASPAR itself (https://jaspar.elixir.no/api/v1/).`;
export const absentBody = (what: string) => `${JSON.stringify({ detail: absentDetail(what) })}\n`;

/** The JSON error answering a request for a collection JASPAR's release has and the mirror does not (404, in that release's site). */
export const unmirroredPath = (collection: string) => `${API}/errors/unmirrored/${collection}.json`;
/** The JSON error answering a request the mirror cannot answer (501). */
export const unsupportedPath = (what: string) => `${API}/errors/unsupported/${what}.json`;

/** Output path (relative, no leading slash) of a root-relative file or folder path (a folder's index.html). */
export const outputFile = (urlPath: string) => (urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath).slice(1);

// The other endpoints of the real service.
export const ROOT_DIR = ROUTES.root.build({});
/** An index list's URL; in path style its first page's JSON file. */
export const indexUrl = (base: string, endpoint: string, style: LinkStyle = 'query') =>
  (style === 'path' ? fileLink(base, indexDir(endpoint, 1)) : `${base}${ROUTES.index.build({ endpoint })}`);
export function indexQueryUrl(base: string, endpoint: string, format: FormatId, page: number, pageSize: number = DEFAULT_PAGE_SIZE, style: LinkStyle = 'query'): string {
  if (style === 'path') return fileLink(base, indexDir(endpoint, page, pageSize), format);
  return `${base}${indexRequest(endpoint, format, page, pageSize)}`;
}
/** The matrices of a collection, taxonomic group or species as an index list's item links them
 *  (/api/v1/collections/CORE/, or the list with the filter); in path style the list view's first page as JSON. */
export function filteredListUrl(base: string, key: FilterKey, value: string, style: LinkStyle = 'query', form: 'item' | 'query' = 'item'): string {
  if (style === 'path') return fileLink(base, listDir(1, DEFAULT_PAGE_SIZE, { [key]: value }));
  if (form === 'query') return `${base}${ROUTES.list.build({})}${queryString({ [key]: value })}`;
  const endpoint = { collection: 'collections', tax_group: 'taxon', tax_id: 'species', version: null }[key];
  if (endpoint === null) throw new Error(`filteredListUrl: ${key} has no endpoint of its own`);
  return `${base}${ROUTES.index.build({ endpoint })}${value}/`;
}
/** A release's URL; in path style its JSON file. */
export const releaseUrl = (base: string, year: number | string, style: LinkStyle = 'query') => (style === 'path' ? fileLink(base, releaseDir(year)) : `${base}${releaseDir(year)}`);
/** The matrix list's URL; in path style its first page as JSON. */
export const listUrl = (base: string, style: LinkStyle = 'query') => (style === 'path' ? fileLink(base, listDir(1)) : `${base}${ROUTES.list.build({})}`);
/** An index list's page as the real API is asked for it (format, page, then page_size unless the default). */
export function indexRequest(endpoint: string, format: FormatId, page: number, pageSize: number = DEFAULT_PAGE_SIZE): string {
  return `${ROUTES.index.build({ endpoint })}${queryString([['format', format], ['page', String(page)], ...(pageSize === DEFAULT_PAGE_SIZE ? [] : [['page_size', String(pageSize)] as const])])}`;
}
export const releaseDir = (year: number | string) => ROUTES.release.build({ release: year });
export const sitesApiDir = (matrixId: string) => ROUTES.sites.build({ matrix_id: matrixId });
export const OPENAPI_JSON = `${API}/openapi.json`;
export const OPENAPI_YAML = `${API}/openapi.yaml`;

/** The path a base URL puts the site under, without a trailing slash: "" at the
 *  host's root, "/jaspar" for https://example.org/jaspar/. Every root-relative
 *  href, asset and rule starts with it (a GitHub Pages project site lives under
 *  /<repository>/). */
export function basePathOf(base: string): string {
  return new URL(normaliseBaseUrl(base)).pathname.replace(/\/+$/, '');
}

/** Base URL without a trailing slash; rejects anything that is not http(s). */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--base-url "${raw}" is not an absolute URL (e.g. https://jaspar-mirror.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--base-url "${raw}" must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new Error(`--base-url "${raw}" must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
