// The edge handler's URL matching: which of the matrix endpoints a request's
// path is (the list, a collection's, group's or species' list, a matrix, a
// base id's versions, with DRF's format suffixes), and a release other than
// the default one asked for by its path. Every other API URL is matched by
// api-routes.ts from the route table.
import type { FormatId } from '../formats/registry.ts';
import { LIST, ROUTES, type FilterKey } from '../routes/urls.ts';
import { SERVICE_RENDERERS } from './negotiate.ts';

/** Longest URL path the handler reads. */
export const MAX_PATH_LENGTH = 512;

/** The formats a suffix may name (/api/v1/matrix/MA0139.1.jaspar). */
const SUFFIX = SERVICE_RENDERERS.map((r) => r.format).join('|');

export type Route =
  | { kind: 'list'; suffix?: FormatId; /** /api/v1/collections/CORE/ and the like: a filter the path names. */ pathFilter?: [FilterKey, string] }
  | { kind: 'detail'; id: string; suffix?: FormatId }
  | { kind: 'versions'; baseId: string; suffix?: FormatId };

// The service's URL patterns (DRF's format_suffix_patterns added the suffix
// forms), read off the compiled routes (routes/paths.ts ROUTES); tried in the
// service's order: the versions route comes before the detail one. The ids
// are any segment here (the handler answers an unknown one "Not found.").
const suffix = { pattern: SUFFIX };
const ROUTE_MATCHERS: [RegExp, (g: Record<string, string | undefined>) => Route][] = [
  [ROUTES.list.regex(undefined, { optionalSlash: true }), () => ({ kind: 'list' })],
  [ROUTES.list.regex(undefined, { suffix: { ...suffix, slashBefore: true } }), (g) => ({ kind: 'list', suffix: g.suffix as FormatId })],
  [ROUTES.versions.regex(undefined, { params: { base_id: '\\w+' } }), (g) => ({ kind: 'versions', baseId: g.base_id! })],
  [ROUTES.versions.regex(undefined, { params: { base_id: '\\w+' }, suffix }), (g) => ({ kind: 'versions', baseId: g.base_id!, suffix: g.suffix as FormatId })],
  [ROUTES.detail.regex(undefined, { params: { matrix_id: '[^/]+' } }), (g) => ({ kind: 'detail', id: g.matrix_id! })],
  [ROUTES.detail.regex(undefined, { params: { matrix_id: '[^/]+' }, suffix }), (g) => ({ kind: 'detail', id: g.matrix_id!, suffix: g.suffix as FormatId })],
];

/** The matrices of one collection, taxonomic group or species (the mirror's endpoints, as the real service has them): the filter each names. */
const PATH_FILTERS: [RegExp, FilterKey][] = ([['collection', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const)
  .map(([route, key]) => [ROUTES[route].regex(undefined, { params: { [key]: '[^/]+' } }), key]);

/** The matrix endpoint a URL path is, or null (another API URL, a page, an asset, a path too long or not UTF-8). */
export function routeOf(pathname: string): Route | null {
  if (pathname.length > MAX_PATH_LENGTH) return null;
  for (const [pattern, key] of PATH_FILTERS) {
    const byPath = pattern.exec(pathname);
    if (!byPath) continue;
    try {
      return { kind: 'list', pathFilter: [key, decodeURIComponent(byPath.groups![key])] };
    } catch {
      return null;
    }
  }
  if (!pathname.startsWith(LIST)) return null;
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  for (const [pattern, route] of ROUTE_MATCHERS) {
    const m = pattern.exec(path);
    if (m) return route(m.groups ?? {});
  }
  return null;
}

/** The service's split_id: base id, a dot, a number ("MA0139.01" is MA0139.1); null when the id has no version (a base id, or no id). */
export function matrixIdOf(id: string): string | null {
  const m = /^(.+)\.([0-9]+)$/.exec(id);
  return m ? `${m[1]}.${Number(m[2])}` : null;
}

/** A release other than the default one by its path: /releases/<year>/… (the route of the release's whole site). */
const RELEASE_PATH = ROUTES.releaseSite.regex(undefined, { prefix: true });

/** The release a path names (/releases/2026/api/v1/…): the path its site lies under and the path inside it; null for the default release's. */
export function releaseOfPath(pathname: string): { prefix: string; inner: string } | null {
  const m = RELEASE_PATH.exec(pathname);
  return m ? { prefix: ROUTES.releaseSite.build({ year: m.groups!.year }), inner: m.groups!.rest ?? '/' } : null;
}
