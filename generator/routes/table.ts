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
import { compileRoute, partAround, type CompiledRoute } from './compile.ts';
import type { Layout } from './shard.ts';
import { API, DEFAULT_PAGE_SIZE, DOCS_DIR, FILTER_KEYS, NOT_FOUND_PEOPLE, OPENAPI_JSON, OPENAPI_YAML, PAGE_SIZES, PARAM_PATTERNS, PATTERNS, ROUTES, errorPaths, fileName, type FilterKey, type PatternName } from './urls.ts';

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
/** The largest page size the service answers (DRF's max_page_size); larger ones are cut to it. */
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
  /** The OpenAPI operationId of its GET (client generators name their methods by it); none for the site's own files and pages. */
  operationId?: string;
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
  /** `path` and `dir` compiled once (compile.ts): the builder and the matcher of each. */
  url: CompiledRoute;
  out: CompiledRoute;
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

/** The folder of the matrix list filtered by one key, page aside, as the list view pattern nests it ("/api/v1/matrix/collection/{collection}/"). */
const filteredList = (key: FilterKey) => PATTERNS.listView.replace(/\[([^\]]*)\]/g, (_, inner: string) => (inner.includes(`{${key}}`) ? inner : ''));

/** The list view's folders as templates, read off its pattern (paths.ts); every filter's folder has one shape. */
const LIST_VIEW: RouteTable['listView'] = (() => {
  const shape = (key: string) => partAround(ROUTES.listView, key).join('{value}');
  const filter = shape(FILTER_KEYS[0]).replace(FILTER_KEYS[0], '{key}');
  for (const key of FILTER_KEYS) if (shape(key) !== filter.replace('{key}', key)) throw new Error(`routes/paths.ts: the folder of ${key} is not "${filter}" as the other filters'`);
  return { filter, pageSize: partAround(ROUTES.listView, 'page_size').join('{size}'), page: partAround(ROUTES.listPage, 'page').join('{page}') };
})();

const LIST_QUERY = ['format', 'page', 'page_size', 'release', ...FILTER_KEYS] as const;
const INDEX_QUERY = ['format', 'page', 'page_size', 'release'] as const;

/** The route table of a site: its layout (a parameter, never a default: the
 *  output folders follow it) and the path it lives under. */
export function routeTable(layout: Layout, root = ''): RouteTable {
  // A pattern of routes/paths.ts (or a fixed path) under the site's path; in `dir`, a shard folder the
  // layout does not make is left out, so that `dir` says where this site's files lie.
  const pattern = (name: PatternName | string) => (name in PATTERNS ? PATTERNS[name as PatternName] : name);
  const r = (kind: RouteKind, operationId: string | undefined, path: PatternName | string, dir: PatternName | string, query: readonly string[], formats: readonly FormatId[], paginated = false): Route => {
    const url = compileRoute(`${root}${pattern(path)}`, PARAM_PATTERNS);
    const out = compileRoute(`${root}${pattern(dir)}`, PARAM_PATTERNS);
    const shown = out.source
      .replace(/\{shard\}/g, layout.idFolders ? '{shard}' : '')
      .replace(/\{shard:logos\}/g, layout.logos ? '{shard}' : '');
    const params = url.params.map((name) => ({ name, pattern: PARAM_PATTERNS[name] }));
    return { kind, ...(operationId ? { operationId } : {}), path: url.source, dir: shown, params, query, formats, paginated, url, out };
  };
  const routes: Route[] = [
    r('root', 'root', 'root', 'root', ['format'], INDEX_FORMATS),
    r('list', 'matrix_list', 'list', 'list', LIST_QUERY, FORMAT_IDS, true),
    r('detail', 'matrix_read', 'detail', 'detailDir', ['format'], FORMAT_IDS),
    r('base', undefined, 'base', 'baseDir', ['format'], FORMAT_IDS),
    r('versions', 'matrix_versions_list', 'versions', 'versionsDir', ['format'], FORMAT_IDS),
    r('collections', 'collections_list', 'collections', 'collections', INDEX_QUERY, INDEX_FORMATS, true),
    r('collection', 'collections_read', 'collection', filteredList('collection'), LIST_QUERY.filter((q) => q !== 'collection' && q !== 'tax_id'), FORMAT_IDS, true),
    r('taxa', 'taxon_list', 'taxa', 'taxa', INDEX_QUERY, INDEX_FORMATS, true),
    r('taxon', 'taxon_read', 'taxon', filteredList('tax_group'), LIST_QUERY.filter((q) => q !== 'tax_group' && q !== 'tax_id'), FORMAT_IDS, true),
    r('species-list', 'species_list', 'speciesList', 'speciesList', INDEX_QUERY, INDEX_FORMATS, true),
    r('species', 'species_read', 'species', filteredList('tax_id'), LIST_QUERY.filter((q) => q !== 'tax_id' && q !== 'collection' && q !== 'tax_group'), FORMAT_IDS, true),
    r('releases', 'releases_list', 'releases', 'releases', INDEX_QUERY, INDEX_FORMATS, true),
    r('release', 'releases_read', 'release', 'release', ['format'], INDEX_FORMATS),
    r('sites', 'sites_read', 'sites', 'sites', ['format'], SITES_FORMATS),
    r('openapi', undefined, OPENAPI_JSON, OPENAPI_JSON, [], []),
    r('openapi', undefined, OPENAPI_YAML, OPENAPI_YAML, [], []),
    r('docs', undefined, DOCS_DIR, DOCS_DIR, [], ['api']),
    r('logo', undefined, 'logo', 'logoFile', [], []),
    r('sites-file', undefined, 'sitesFile', 'sitesFile', [], []),
    r('downloads', undefined, '/download/', '/download/', [], ['api']),
    r('search', undefined, '/search/', '/search/', ['q'], ['api']),
    r('home', undefined, '/', '/', [], ['api']),
    r('error', undefined, '/404.html', '/404.html', [], []),
    r('error', undefined, NOT_FOUND_PEOPLE, NOT_FOUND_PEOPLE, [], ['api']),
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
    listView: LIST_VIEW,
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
