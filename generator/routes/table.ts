// The API surface as data: every resource kind the mirror answers, with its
// public path, the folder its files lie in, its parameters, formats (file,
// extension, media type), page sizes, pre-rendered filter combinations and
// error answers. Host printers (hosting/rules.ts for Netlify; nginx, Caddy,
// Apache configs) and the documentation read it instead of spelling URLs.
// Like Astro's route manifest, a route is parsed once into segments from
// which both the public path and the output folder are derived; like
// Eleventy's permalinks, the same record gives the href and the file.
//
// Patterns use {name} for a parameter; {shard} stands for the shard folder
// of the id that follows it ("MA/" when sharded by two characters, "" when
// flat; see shard.ts). The output folder of a format is dir + files[format].
import { FORMAT_IDS, FORMATS, DEFAULT_FORMAT, type FormatId } from '../formats/registry.ts';
import type { Layout } from './shard.ts';
import { API, DEFAULT_PAGE_SIZE, DOCS_DIR, FILTER_KEYS, LIST, LOGOS, NOT_FOUND_PEOPLE, OPENAPI_JSON, OPENAPI_YAML, PAGE_SIZES, SITES_FILES, errorPaths, fileName, type FilterKey } from './urls.ts';

/** Formats of resources that are not matrices: the real service's text formats print matrices only. */
export const INDEX_FORMATS: readonly FormatId[] = ['api', 'json', 'jsonp', 'yaml'];
/** Binding sites: JSON and the release's BED file (the sites of one matrix run to thousands of lines). */
export const SITES_FORMATS: readonly FormatId[] = ['json', 'bed'];

/** The page sizes each format is pre-rendered at for the filtered lists and
 *  the unfiltered list beyond the default page size. Each page size repeats
 *  every record, so only JSON (what clients such as rbioapi ask for) has them
 *  all; the other formats have the default page and the largest (the whole
 *  list in a few files), pages for people also 100 a page. BED lists repeat
 *  every site of every matrix shown: the unfiltered list only (the sites of
 *  one matrix: /api/v1/sites/<id>/ or its BED file). Other pairs answer 501. */
export const VIEW_FORMAT_SIZES: Record<FormatId, readonly number[]> = {
  api: [10, 100],
  json: PAGE_SIZES,
  jsonp: [10, 1000],
  jaspar: [10, 1000],
  meme: [10, 1000],
  transfac: [10, 1000],
  pfm: [10, 1000],
  yaml: [10, 1000],
  bed: [],
};

/** Pre-rendered filter combinations of the matrix list; any other combination is answered with an error. */
export const FILTER_COMBINATIONS: readonly (readonly FilterKey[])[] = [
  [],
  ['collection'],
  ['tax_group'],
  ['tax_id'],
  ['version'],
  ['collection', 'version'],
  ['collection', 'tax_group'],
  ['tax_group', 'version'],
  ['collection', 'tax_group', 'version'],
  ['tax_id', 'version'],
];

/** Query parameters of the real service that a static mirror cannot answer. */
export const UNSUPPORTED_PARAMS = ['search', 'order', 'name', 'tf_class', 'tf_family', 'data_type', 'class', 'family', 'type'] as const;
/** JASPAR's releases by year. A release= value among them other than the
 *  mirrored release's answers 501 (Netlify: one literal rule per year and
 *  list endpoint, hosting/rules.ts); 2026 is the latest and rbioapi's default. */
export const JASPAR_RELEASE_YEARS = [2004, 2006, 2008, 2010, 2014, 2016, 2018, 2020, 2022, 2024, 2026] as const;
/** page_size values above the real maximum (1000) that are redirected to page_size=1000. */
export const PAGE_SIZE_ALIASES = ['2000', '5000', '10000'] as const;
export const MAX_PAGE_SIZE = PAGE_SIZES[PAGE_SIZES.length - 1];

export type RouteKind =
  | 'root' | 'list' | 'detail' | 'base' | 'versions' | 'collections' | 'collection' | 'taxa' | 'taxon' | 'species-list' | 'species'
  | 'releases' | 'release' | 'sites' | 'openapi' | 'docs' | 'logo' | 'sites-file' | 'downloads' | 'search' | 'home' | 'error';

export interface FormatRoute {
  id: FormatId;
  /** File answering this format in a resource folder ("index.json"; "index.html" for api, which the folder URL also answers). */
  file: string;
  extension: string;
  /** The Content-Type the real service sends. */
  mediaType: string;
}

export interface Route {
  kind: RouteKind;
  /** Public path as the real API has it, with the site's path in front: "/api/v1/matrix/{matrix_id}/". */
  path: string;
  /** Folder (or file, for files) of the output, with the site's path: "/api/v1/matrix/{shard}{matrix_id}/". */
  dir: string;
  /** Path parameters, with a pattern of the values the release may hold. */
  params: { name: string; pattern: string }[];
  /** Query parameters answered (besides unknown ones, which are ignored). */
  query: readonly string[];
  /** Formats pre-rendered (an empty list for plain files). */
  formats: readonly FormatId[];
  /** List resources: {count,next,previous,results} with page and page_size. */
  paginated: boolean;
}

export interface RouteTable {
  /** The path the site lives under ("" at the host's root). */
  root: string;
  layout: Layout;
  formats: FormatRoute[];
  defaultFormat: FormatId;
  pageSizes: readonly number[];
  defaultPageSize: number;
  maxPageSize: number;
  /** Redirected (301) to maxPageSize, every other parameter kept. */
  pageSizeAliases: readonly string[];
  /** Page sizes each format is pre-rendered at beyond the unfiltered list at the default size. */
  viewFormatSizes: Record<FormatId, readonly number[]>;
  filters: readonly FilterKey[];
  filterCombinations: readonly (readonly FilterKey[])[];
  /** A list view's folder: the list's, then "{key}/{value}/" per filter in `filters` order, "page_size/{size}/" unless the default, "page/{page}/". */
  listView: { filter: string; pageSize: string; page: string };
  unsupportedParams: readonly string[];
  /** The JSON bodies errors answer with (paths with the site's path). */
  errors: { notFound: string; invalidPage: string; unsupported: string };
  routes: Route[];
}

const ID = '[A-Z]{2}[0-9]{4}\\.[0-9]+';
const BASE_ID = '[A-Z]{2}[0-9]{4}';
const VALUE = '[A-Za-z0-9_-]+';
const LIST_QUERY = ['format', 'page', 'page_size', 'release', ...FILTER_KEYS] as const;
const INDEX_QUERY = ['format', 'page', 'page_size', 'release'] as const;

/** The route table of a site: its layout (a parameter, never a default: the
 *  output folders follow it) and the path it lives under. */
export function routeTable(layout: Layout, root = ''): RouteTable {
  const shard = layout.idFolders ? '{shard}' : '';
  const logoShard = layout.logos ? '{shard}' : '';
  const r = (kind: RouteKind, path: string, dir: string, params: Route['params'], query: readonly string[], formats: readonly FormatId[], paginated = false): Route =>
    ({ kind, path: `${root}${path}`, dir: `${root}${dir}`, params, query, formats, paginated });
  const routes: Route[] = [
    r('root', `${API}/`, `${API}/`, [], ['format'], INDEX_FORMATS),
    r('list', `${LIST}/`, `${LIST}/`, [], LIST_QUERY, FORMAT_IDS, true),
    r('detail', `${LIST}/{matrix_id}/`, `${LIST}/${shard}{matrix_id}/`, [{ name: 'matrix_id', pattern: ID }], ['format'], FORMAT_IDS),
    r('base', `${LIST}/{base_id}/`, `${LIST}/${shard}{base_id}/`, [{ name: 'base_id', pattern: BASE_ID }], ['format'], FORMAT_IDS),
    r('versions', `${LIST}/{base_id}/versions/`, `${LIST}/${shard}{base_id}/versions/`, [{ name: 'base_id', pattern: BASE_ID }], ['format'], FORMAT_IDS),
    r('collections', `${API}/collections/`, `${API}/collections/`, [], INDEX_QUERY, INDEX_FORMATS, true),
    r('collection', `${API}/collections/{collection}/`, `${LIST}/collection/{collection}/`, [{ name: 'collection', pattern: VALUE }], LIST_QUERY.filter((q) => q !== 'collection' && q !== 'tax_id'), FORMAT_IDS, true),
    r('taxa', `${API}/taxon/`, `${API}/taxon/`, [], INDEX_QUERY, INDEX_FORMATS, true),
    r('taxon', `${API}/taxon/{tax_group}/`, `${LIST}/tax_group/{tax_group}/`, [{ name: 'tax_group', pattern: VALUE }], LIST_QUERY.filter((q) => q !== 'tax_group' && q !== 'tax_id'), FORMAT_IDS, true),
    r('species-list', `${API}/species/`, `${API}/species/`, [], INDEX_QUERY, INDEX_FORMATS, true),
    r('species', `${API}/species/{tax_id}/`, `${LIST}/tax_id/{tax_id}/`, [{ name: 'tax_id', pattern: '[0-9]+' }], LIST_QUERY.filter((q) => q !== 'tax_id' && q !== 'collection' && q !== 'tax_group'), FORMAT_IDS, true),
    r('releases', `${API}/releases/`, `${API}/releases/`, [], INDEX_QUERY, INDEX_FORMATS, true),
    r('release', `${API}/releases/{release}/`, `${API}/releases/{release}/`, [{ name: 'release', pattern: '[0-9]+' }], ['format'], INDEX_FORMATS),
    r('sites', `${API}/sites/{matrix_id}/`, `${API}/sites/{matrix_id}/`, [{ name: 'matrix_id', pattern: ID }], ['format'], SITES_FORMATS),
    r('openapi', OPENAPI_JSON, OPENAPI_JSON, [], [], []),
    r('openapi', OPENAPI_YAML, OPENAPI_YAML, [], [], []),
    r('docs', DOCS_DIR, DOCS_DIR, [], [], ['api']),
    r('logo', `${LOGOS}{matrix_id}.svg`, `${LOGOS}${logoShard}{matrix_id}.svg`, [{ name: 'matrix_id', pattern: ID }], [], []),
    r('sites-file', `${SITES_FILES}{matrix_id}.bed`, `${SITES_FILES}{matrix_id}.bed`, [{ name: 'matrix_id', pattern: ID }], [], []),
    r('downloads', '/download/', '/download/', [], [], ['api']),
    r('search', '/search/', '/search/', [], ['q'], ['api']),
    r('home', '/', '/', [], [], ['api']),
    r('error', '/404.html', '/404.html', [], [], []),
    r('error', NOT_FOUND_PEOPLE, NOT_FOUND_PEOPLE, [], [], ['api']),
  ];
  return {
    root,
    layout,
    formats: FORMAT_IDS.map((id) => ({ id, file: fileName(id), extension: FORMATS[id].extension, mediaType: FORMATS[id].mediaType })),
    defaultFormat: DEFAULT_FORMAT,
    pageSizes: PAGE_SIZES,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    maxPageSize: MAX_PAGE_SIZE,
    pageSizeAliases: PAGE_SIZE_ALIASES,
    viewFormatSizes: VIEW_FORMAT_SIZES,
    filters: FILTER_KEYS,
    filterCombinations: FILTER_COMBINATIONS,
    listView: { filter: '{key}/{value}/', pageSize: 'page_size/{size}/', page: 'page/{page}/' },
    unsupportedParams: UNSUPPORTED_PARAMS,
    errors: { notFound: `${root}${errorPaths.notFound}`, invalidPage: `${root}${errorPaths.invalidPage}`, unsupported: `${root}${API}/errors/unsupported/{what}.json` },
    routes,
  };
}

/** A route pattern filled in: {name} from `values`, {shard} from the id that follows it in the site's
 *  layout. Public paths have no {shard}; an output folder pattern with one needs the layout. */
export function fill(pattern: string, values: Record<string, string>, layout?: Layout): string {
  if (!layout && pattern.includes('{shard}')) throw new Error(`fill: "${pattern}" is an output folder in shard folders; pass the site's layout`);
  return pattern.replace(/\{shard\}\{(\w+)\}/g, (_, name: string) => `${values[name].slice(0, layout!.shard)}/{${name}}`).replace(/\{(\w+)\}/g, (m, name: string) => values[name] ?? m);
}
