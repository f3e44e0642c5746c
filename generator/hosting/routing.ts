// What a server that can read the query string, test whether a file exists
// and build a path from pieces (nginx, Caddy, Apache httpd) needs to answer
// the real API's URLs from the site's files: host-independent data, printed
// by hosting/nginx.ts, caddy.ts and apache.ts (STYLE.md habit 7).
//
// Unlike Netlify's _redirects (hosting/rules.ts), these servers compose the
// answering file's path from the parameters (the filters in their folder
// order, the page size, the page, the format's file name) and then ask the
// file system: no rule per value, so the size of the config does not grow
// with the release. What the file system then says decides the error: the
// file exists → 200; the view's first page exists → the page is past the end
// ("Invalid page.", as DRF); neither → "Not found.".
//
// Every path piece is read off the compiled routes of generator/routes/
// (paths.ts ROUTES, compile.ts templateOf and partAround), so the printed
// configs follow the URL layout, sharded or flat, instead of spelling it again.
import { DEFAULT_FORMAT, FORMAT_IDS, FORMATS, type FormatId } from '../formats/registry.ts';
import { partAround, templateOf, type Template } from '../routes/compile.ts';
import type { Layout } from '../routes/shard.ts';
import { FILTER_COMBINATIONS, INDEX_FORMATS, MAX_PAGE_SIZE, SITES_FORMATS, UNSUPPORTED_PARAMS, VIEW_FORMAT_SIZES } from '../routes/table.ts';
import {
  API, DEFAULT_PAGE_SIZE, EMPTY_LIST_DIR, FILTER_KEYS, LIST, LOGOS, NO_MATCH_VALUE, NOT_FOUND_PAGE, NOT_FOUND_PEOPLE, PAGE_SIZES, ROOT_DIR, ROUTES, errorPaths, fileName,
  ABSENT_ENDPOINTS, absentPath, unsupportedPath, type FilterKey,
} from '../routes/urls.ts';
import { CACHE_CONTROL, headerRules } from './headers.ts';

export type { Template } from '../routes/compile.ts';

export interface ServerRoutingInput {
  /** Path prefix the site is served under ("" or "/jaspar"; no trailing slash). */
  prefix: string;
  /** Folder layout of the release (routes/shard.ts). */
  layout: Layout;
  /** Pages of the unfiltered list at the default page size (page=last). */
  pageCount: number;
  /** The mirrored release (release=<year>). */
  year: number;
  /** The site's other releases, each a whole site under its path ("/releases/2026"): release=<year> is answered there. */
  releases?: readonly ReleaseRoute[];
}

/** Another release of the site: where its files lie, and what it lacks. */
export interface ReleaseRoute {
  year: number;
  /** Path of its site ("/releases/2026"; no trailing slash). */
  path: string;
  /** Pages of its unfiltered list at the default page size (page=last). */
  lastPage: number;
  /** Collections of JASPAR's release that it does not hold: a request naming one (filter, or an id with one of the prefixes) gets the file saying why, 404. */
  unmirrored: { collection: string; idPrefixes: string[]; file: string }[];
}

/** A list endpoint: its path, and how a request's parameters become the answering folder. */
export interface ListRoute {
  name: string;
  /** Path (no prefix, no trailing slash) with at most one captured segment. */
  path: string;
  /** The filter the captured segment stands for (/api/v1/collections/CORE → collection=CORE). */
  pathFilter?: FilterKey;
  kind: 'matrix' | 'index';
  /** Folder of page 1 at the default page size, no filter. */
  base: string;
  /** Formats a list of this kind has at all. */
  formats: readonly FormatId[];
}

/** A resource at one id: path with one captured segment, its folder, its formats. */
export interface KeyedRoute {
  name: string;
  /** Path before and after the id segment (no prefix, no trailing slash). */
  before: string;
  after: string;
  /** Folder template with slots id and shard (the id's first shardLength characters). */
  dir: Template;
  formats: readonly FormatId[];
  /** Error file for a known format this resource does not have (else "Not found."). */
  unsupported?: string;
  /** The real service's format suffix (/api/v1/matrix/MA0004.1.json) applies. */
  suffix: boolean;
}

export interface ServerRouting {
  prefix: string;
  /** Characters of an id that name its shard folder (routes/shard.ts; 0 when flat). */
  shardLength: number;
  api: string;
  list: string;
  root: string;
  formats: { id: FormatId; file: string; mediaType: string }[];
  defaultFormat: FormatId;
  /** Accept media types in the order they are looked for; ?format= and a suffix win. */
  accept: { mediaType: string; format: FormatId }[];
  pageSizes: readonly number[];
  defaultPageSize: number;
  maxPageSize: number;
  filterKeys: readonly FilterKey[];
  /** Folder segment of each filter: literal text around the value ("collection/" + value + "/"). */
  filterSegment: Record<FilterKey, [string, string]>;
  /** Folder segment of a page size other than the default, around the size. */
  pageSizeSegment: [string, string];
  /** Folder segment of a page, around the page number. */
  pageSegment: [string, string];
  /** Pre-rendered filter sets, as signatures: one 0/1 per filter key in filterKeys order ("1001"). */
  filterSets: string[];
  /** Formats pre-rendered for filtered lists and page sizes other than the default, by page size. */
  viewFormats: Record<number, FormatId[]>;
  unsupportedParams: { param: string; file: string }[];
  errors: {
    notFound: string; invalidPage: string; filters: string;
    /** The site's 404 for programs outside the API ({"detail":"Not found."}), and the file of the 404 for people (a browser's Accept). */
    sitePage: string; people: string; pageSize: string; formatPageSize: string; bedList: string; release: string;
  };
  year: number;
  lastPage: number;
  /** A filter value the release does not hold (collection=DL): page 1 of the matrix list is the
   *  service's empty list, in this folder (file: the format's), later pages "Invalid page.". Only
   *  for values spelled as the service folds them (`values`, regular expressions per filter key). */
  emptyList: { dir: string; values: Record<FilterKey, string> };
  lists: ListRoute[];
  keyed: KeyedRoute[];
  /** Formats of the API root. */
  rootFormats: readonly FormatId[];
  /** Formats with a suffix URL (/api/v1/matrix.json): DRF's format_suffix_patterns on the matrix endpoints. */
  suffixFormats: readonly FormatId[];
  headers: { pattern: string; values: Record<string, string> }[];
  /** Cache-Control by the path of the file served, the first matching pattern wins; the last one matches every path. */
  cache: { pattern: string; value: string }[];
  /** The path of this release's site: "" for the default release, "/releases/2026" for another (releaseVariants). */
  releasePath: string;
  /** The site's other releases (in the default release's routing): release=<year> on its routes is answered by theirs. */
  releases: readonly ReleaseRoute[];
  /** Collections this release lacks (ReleaseRoute.unmirrored). */
  unmirrored: ReleaseRoute['unmirrored'];
  /** Endpoints of the service with no data here (routes/urls.ts ABSENT_ENDPOINTS): the path and everything under it answer 404 with the file. */
  absent: { path: string; file: string }[];
}

/**
 * The routing of every release of the site, the default one first: the same
 * routes, each other release's under its path, with its own release year,
 * last page and lacking collections. The printers print each release's
 * routes from this list; the default release's routes hand release=<year>
 * of another to that one's path.
 */
export function releaseVariants(r: ServerRouting): ServerRouting[] {
  return [r, ...r.releases.map((rel): ServerRouting => {
    const at = (text: string) => `${rel.path}${text}`;
    return {
      ...r,
      releasePath: rel.path,
      releases: [],
      unmirrored: rel.unmirrored,
      absent: r.absent.map((a) => ({ ...a, path: at(a.path) })),
      year: rel.year,
      lastPage: rel.lastPage,
      api: at(r.api),
      list: at(r.list),
      root: at(r.root),
      lists: r.lists.map((l) => ({ ...l, path: at(l.path), base: at(l.base) })),
      keyed: r.keyed.map((k) => ({ ...k, before: at(k.before), dir: typeof k.dir[0] === 'string' ? [at(k.dir[0]), ...k.dir.slice(1)] : [rel.path, ...k.dir] })),
    };
  })];
}

/** A pattern on the served path ("^/api/…") that also matches the same path in another release's site ("^/releases/2026/api/…"). */
export function inAnyRelease(pattern: string, releases: readonly Pick<ReleaseRoute, 'path'>[]): string {
  if (releases.length === 0 || !pattern.startsWith('^/')) return pattern;
  return `^(?:${releases.map((rel) => rel.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('|')})?${pattern.slice(1)}`;
}

/** The methods the service allows (DRF's Allow on the API's views); every host answers OPTIONS with it and any other method 405. */
export const ALLOW = 'GET, HEAD, OPTIONS';

/** Media types (parameters aside) a server compresses: the pages, the API's text formats, scripts, styles, SVG logos. */
export const COMPRESSED_TYPES: readonly string[] = [
  ...new Set(['text/html', 'text/css', 'text/plain', 'application/javascript', 'image/svg+xml', ...FORMAT_IDS.map((f) => FORMATS[f].mediaType.split(';')[0])]),
].sort();

/** A _headers path ("/api/" + "*" + "/index.json") → an anchored regular expression on the served path (Netlify's splat matches across folders). */
export function globToRegex(glob: string): string {
  return `^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`;
}

export function serverRouting(input: ServerRoutingInput): ServerRouting {
  const prefix = input.prefix.replace(/\/+$/, '');
  const releases = input.releases ?? [];
  for (const rel of releases) if (!/^(\/[a-z0-9_-]+)+$/.test(rel.path)) throw new Error(`routing: release path "${rel.path}" must look like /releases/2026`);
  if (prefix !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) throw new Error(`routing: path prefix "${input.prefix}" must look like /jaspar (letters, digits, . _ ~ -)`);
  const listBase = ROUTES.list.build({});
  const filterSegment = Object.fromEntries(FILTER_KEYS.map((key) => [key, partAround(ROUTES.listView, key)])) as Record<FilterKey, [string, string]>;
  const pageSizeSegment = partAround(ROUTES.listView, 'page_size');
  const pageSegment = partAround(ROUTES.listPage, 'page');
  // The index lists must share the matrix list's page and page size segments (the printers compose both alike).
  for (const param of ['page', 'page_size']) {
    const [index, list] = [partAround(ROUTES.indexPage, param), partAround(ROUTES.listPage, param)];
    if (index.join() !== list.join()) throw new Error(`routing: the index lists' {${param}} folder (${index.join('…')}) is not the matrix list's (${list.join('…')}), which the server configs compose alike`);
  }
  const signature = (keys: readonly FilterKey[]) => FILTER_KEYS.map((k) => (keys.includes(k) ? '1' : '0')).join('');
  const viewFormats: Record<number, FormatId[]> = {};
  for (const size of PAGE_SIZES) viewFormats[size] = FORMAT_IDS.filter((f) => VIEW_FORMAT_SIZES[f].includes(size));

  const noSlash = (path: string) => path.replace(/\/$/, '');
  const lists: ListRoute[] = [{ name: 'matrix-list', path: noSlash(listBase), kind: 'matrix', base: listBase, formats: FORMAT_IDS }];
  for (const [endpoint, pathFilter] of [['collections', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const) {
    lists.push({ name: `${endpoint}-matrices`, path: noSlash(ROUTES.index.build({ endpoint })), pathFilter, kind: 'matrix', base: listBase, formats: FORMAT_IDS });
  }
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    lists.push({ name: endpoint, path: noSlash(ROUTES.index.build({ endpoint })), kind: 'index', base: ROUTES.index.build({ endpoint }), formats: INDEX_FORMATS });
  }
  // A keyed resource: its public path around the key (no trailing slash), its folder as a template with slots id (and shard).
  const keyedRoute = (name: string, path: keyof typeof ROUTES, dir: keyof typeof ROUTES, key: string, formats: readonly FormatId[], suffix: boolean, unsupported?: string): KeyedRoute => {
    const [before, after] = partAround(ROUTES[path], key);
    return { name, before, after: noSlash(after), dir: templateOf(ROUTES[dir], input.layout, { [key]: 'id' }), formats, ...(unsupported ? { unsupported } : {}), suffix };
  };
  const keyed: KeyedRoute[] = [
    keyedRoute('release', 'release', 'release', 'release', INDEX_FORMATS, false),
    keyedRoute('sites', 'sites', 'sites', 'matrix_id', SITES_FORMATS, false, unsupportedPath('sites-format')),
    keyedRoute('versions', 'versions', 'versionsDir', 'base_id', FORMAT_IDS, true),
    keyedRoute('matrix', 'detail', 'detailDir', 'matrix_id', FORMAT_IDS, true),
  ];

  return {
    shardLength: input.layout.idFolders ? input.layout.shard : 0,
    prefix,
    api: API,
    list: LIST,
    root: ROOT_DIR,
    formats: FORMAT_IDS.map((id) => ({ id, file: fileName(id), mediaType: FORMATS[id].mediaType })),
    defaultFormat: DEFAULT_FORMAT,
    // DRF picks the renderer by the Accept header when no format is asked for;
    // text/html last: a browser (whose Accept names none of the others) gets
    // the page for people where the service shows its browsable API, a
    // program naming JSON as well still gets JSON.
    accept: (['jaspar', 'meme', 'transfac', 'pfm', 'yaml', 'json', 'api'] as const).map((format) => ({ mediaType: FORMATS[format].mediaType.split(';')[0], format })),
    pageSizes: PAGE_SIZES,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    maxPageSize: MAX_PAGE_SIZE,
    filterKeys: FILTER_KEYS,
    filterSegment,
    pageSizeSegment,
    pageSegment,
    filterSets: FILTER_COMBINATIONS.map(signature),
    viewFormats,
    unsupportedParams: UNSUPPORTED_PARAMS.map((param) => ({ param, file: unsupportedPath(`param-${param}`) })),
    errors: {
      notFound: errorPaths.notFound,
      invalidPage: errorPaths.invalidPage,
      sitePage: NOT_FOUND_PAGE,
      people: `${NOT_FOUND_PEOPLE}${fileName('api')}`,
      filters: unsupportedPath('filters'),
      pageSize: unsupportedPath('page-size'),
      formatPageSize: unsupportedPath('format-page-size'),
      bedList: unsupportedPath('bed-list'),
      release: unsupportedPath('release'),
    },
    year: input.year,
    lastPage: input.pageCount,
    emptyList: { dir: EMPTY_LIST_DIR, values: NO_MATCH_VALUE },
    lists,
    keyed,
    rootFormats: INDEX_FORMATS,
    suffixFormats: FORMAT_IDS,
    // Cache-Control is printed from `cache` (one value per path; Netlify's glob rules cannot tell a version from a base id).
    // Headers and caching by the served path, in every release's site alike.
    headers: headerRules()
      .map((rule) => ({ pattern: inAnyRelease(globToRegex(rule.for), releases), values: Object.fromEntries(Object.entries(rule.values).filter(([name]) => name !== 'Cache-Control')) }))
      .filter((rule) => Object.keys(rule.values).length > 0),
    cache: cacheRules(keyed.find((k) => k.name === 'matrix')!.dir).map((c) => ({ ...c, pattern: inAnyRelease(c.pattern, releases) })),
    releasePath: '',
    releases,
    unmirrored: [],
    absent: ABSENT_ENDPOINTS.map((e) => ({ path: e.path, file: absentPath(e.path) })),
  };
}

/** A matrix id with its version: the folder whose data files never change within a release (MA0139 names the latest one). */
const VERSIONED_ID = '[A-Z]{2}[0-9]{4}\\.[0-9]+';

function cacheRules(matrixDir: Template): ServerRouting['cache'] {
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const folder = matrixDir.map((p) => (typeof p === 'string' ? escape(p) : p.slot === 'id' ? VERSIONED_ID : '[A-Za-z0-9_-]+')).join('');
  // The page for people (index.html) is left out: its layout changes with the site.
  const data = FORMAT_IDS.filter((f) => f !== 'api').map((f) => escape(fileName(f)));
  return [
    { pattern: `^${folder}(${data.join('|')})$`, value: CACHE_CONTROL.fixed },
    { pattern: `^${escape(LOGOS)}`, value: CACHE_CONTROL.fixed },
    { pattern: '^/download/', value: CACHE_CONTROL.download },
    { pattern: '^/', value: CACHE_CONTROL.release },
  ];
}

/** Regular expression of the filter values (joined by ":" in filterKeys order, absent ones empty) for which a missing list means no match. */
export function noMatchRegex(r: ServerRouting): string {
  return `^${r.filterKeys.map((k) => `(${r.emptyList.values[k]})?`).join(':')}$`;
}

/** Regular expression of a page size above the real maximum (answered by a 301 to the maximum). */
export function aboveMaxRegex(max: number): string {
  // Integers with more digits, or as many digits and larger: built digit by digit.
  const digits = String(max);
  const alternatives = [`[1-9][0-9]{${digits.length},}`];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    if (d === 9) continue;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}[${d + 1}-9]${rest ? `[0-9]{${rest}}` : ''}`);
  }
  return `^(${alternatives.join('|')})$`;
}
