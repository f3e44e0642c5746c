// Every API URL of the route table (generator/routes/table.ts) mapped to the
// file of the site that answers it, for the edge handler (issue 14).
//
// Why: on Netlify the files are reached through _redirects (query URLs →
// files, hosting/rules.ts); Cloudflare Workers' static assets have no query
// rules, so every request the handler passed on as it was got the folder's
// index.html (the page for people where the API's default is JSON), or a 404:
// /api/v1/collections/?format=json, /api/v1/species/?page=2,
// /api/v1/releases/2024/, /api/v1/sites/MA0004.1/?format=bed, the API root, a
// sharded logo. The handler now answers them itself from this mapping, on
// every host, with the service's semantics where the rules could not have
// them (any page size, page=last, "Invalid page.", Accept).
//
// Nothing here spells a URL: the patterns, folders, formats, parameters and
// error files all come from routeTable(layout, root), so a sharded layout or
// a site under a path maps the same way the host rules do. Pure functions,
// web-standard only (the handler runs on Deno and workerd).
import { FORMATS, type FormatId } from '../formats/registry.ts';
import { FLAT, type Layout } from '../routes/shard.ts';
import { fill, routeTable, type Route, type RouteKind, type RouteTable } from '../routes/table.ts';
import { negotiate } from './negotiate.ts';
import { lastValue, pageNumberOf, pageSizeOf, type QueryPairs } from './query.ts';

/** Resource kinds the handler answers with its own list and matrix logic (handler.ts routeOf). */
export const MATRIX_KINDS: readonly RouteKind[] = ['list', 'detail', 'base', 'versions', 'collection', 'taxon', 'species'];

/** What answers a request. */
export type ApiTarget =
  /** A file or page of the site as it is (its path URL, with the site's path): served untouched. */
  | { kind: 'file'; route: RouteKind; path: string }
  /** A resource in one format: its file in the resource's folder. */
  | { kind: 'resource'; route: RouteKind; path: string; format: FormatId }
  /** A page of an index list (collections, taxa, species, releases): a file when the page size is pre-rendered, else rendered from the items. */
  | { kind: 'index-page'; route: RouteKind; formats: readonly FormatId[]; endpoint: string; format: FormatId; pageSize: number; page: number | 'last' | null; file: (page: number) => string | null; /** Page n of the list's JSON at the largest page size: every item, in few files. */ itemsFile: (page: number) => string; largest: number }
  /** An error: the service's JSON (detail) or one of the site's error files (file, with the rules' status). */
  | { kind: 'error'; route: RouteKind; status: 404 | 406 | 501; detail?: string; file?: string }
  /** The list and matrix endpoints: answered by the handler's own routes. */
  | { kind: 'matrix'; route: RouteKind };

export interface ApiRoutes {
  table: RouteTable;
  /** Every path under here that no route takes is the API's "Not found.". */
  apiPrefix: string;
}

const cache = new Map<string, ApiRoutes>();

/** The mapping of a site: its folder layout and the path it lives under ("" at the host's root). */
export function apiRoutes(layout: Layout = FLAT, root = ''): ApiRoutes {
  const key = JSON.stringify([layout.idFolders, layout.logos, layout.shard, root]);
  let routes = cache.get(key);
  if (routes === undefined) {
    const table = routeTable(layout, root);
    const apiRoot = table.routes.find((r) => r.kind === 'root');
    if (!apiRoot) throw new Error('routes/table.ts: no root route');
    routes = { table, apiPrefix: apiRoot.path };
    cache.set(key, routes);
  }
  return routes;
}

/** Route kinds whose files lie elsewhere than their public path in some layout (ids in shard folders). */
export const LAYOUT_KINDS: ReadonlySet<RouteKind> = new Set(routeTable({ idFolders: true, logos: true, shard: 2 }).routes.filter((r) => r.dir.includes('{shard}')).map((r) => r.kind));

/** The route a path names, with its parameters; null when none. */
export function matchRoute(routes: ApiRoutes, pathname: string): { route: Route; values: Record<string, string> } | null {
  for (const route of routes.table.routes) {
    // The route's own compiled matcher; a folder also without its slash (as Netlify's rules and the service's redirect take it).
    const found = route.url.regex(undefined, { optionalSlash: true }).exec(pathname);
    if (found) return { route, values: { ...found.groups } };
  }
  return null;
}

/** A page's folder of an index list, from the table's list view segments ("page_size/{size}/" unless the default, "page/{page}/"). */
function indexPageDir(table: RouteTable, route: Route, page: number, pageSize: number): string {
  const size = pageSize === table.defaultPageSize ? '' : table.listView.pageSize.replace('{size}', String(pageSize));
  return `${route.dir}${size}${table.listView.page.replace('{page}', String(page))}`;
}

const fileIn = (table: RouteTable, dir: string, format: FormatId) => `${dir}${table.formats.find((f) => f.id === format)!.file}`;

/**
 * What answers `pathname` with this query and Accept header; null for a
 * path that is no API resource (pages, assets, files by their path URL).
 */
export function apiTarget(routes: ApiRoutes, pathname: string, pairs: QueryPairs, accept: string | null): ApiTarget | null {
  const { table } = routes;
  const matched = matchRoute(routes, pathname);
  if (matched === null) return null;
  const { route, values } = matched;
  if (MATRIX_KINDS.includes(route.kind)) return { kind: 'matrix', route: route.kind };
  // Files by their public path (the same file, or a sharded logo's in its
  // shard folder), and the site's own pages (home, search, downloads, the
  // documentation): as they are, whatever the query.
  if (route.formats.length === 0 || route.query.length === 0 || !route.path.startsWith(routes.apiPrefix)) {
    return { kind: 'file', route: route.kind, path: route.dir.endsWith('/') ? pathname : fill(route.dir, values, table.layout) };
  }

  const get = (key: string) => lastValue(pairs, key);
  // The formats the resource has; a known format it lacks is the rules' 501 (binding sites: JSON and BED only).
  const asked = get('format') || undefined;
  if (asked !== undefined && !route.formats.includes(asked as FormatId) && asked in FORMATS) {
    return { kind: 'error', route: route.kind, status: 501, file: fill(table.errors.unsupported, { what: route.kind === 'sites' ? 'sites-format' : 'format-page-size' }) };
  }
  const negotiated = negotiate(asked, accept, route.formats);
  if (!negotiated.ok) return { kind: 'error', route: route.kind, status: negotiated.status, detail: negotiated.status === 404 ? 'Not found.' : 'Could not satisfy the request Accept header.' };
  const format = negotiated.format;
  const dir = fill(route.dir, values, table.layout);
  if (!route.paginated) return { kind: 'resource', route: route.kind, path: fileIn(table, dir, format), format };

  // An index list: parameters the rules refuse are refused alike (a JSON error file saying why).
  for (const param of table.unsupportedParams) {
    if (get(param) !== undefined) return { kind: 'error', route: route.kind, status: 501, file: fill(table.errors.unsupported, { what: `param-${param}` }) };
  }
  if (table.filters.some((key) => get(key) !== undefined)) return { kind: 'error', route: route.kind, status: 501, file: fill(table.errors.unsupported, { what: 'filters' }) };
  const pageSize = pageSizeOf(get('page_size'), table.defaultPageSize, table.maxPageSize);
  const page = pageNumberOf(get('page'));
  const preRendered = table.pageSizes.includes(pageSize);
  const largest = table.pageSizes[table.pageSizes.length - 1];
  return {
    kind: 'index-page',
    route: route.kind,
    formats: route.formats,
    endpoint: route.dir.slice(routes.apiPrefix.length).replace(/\/$/, ''),
    format,
    pageSize,
    page,
    file: (n) => (preRendered ? fileIn(table, indexPageDir(table, route, n, pageSize), format) : null),
    itemsFile: (n) => fileIn(table, indexPageDir(table, route, n, largest), 'json'),
    largest,
  };
}
