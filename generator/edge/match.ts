// The edge handler's URL matching: which of the matrix endpoints a request's
// path is (the list, a collection's, group's or species' list, a matrix, a
// base id's versions, with DRF's format suffixes), and a release other than
// the default one asked for by its path. Every other API URL is matched by
// api-routes.ts from the route table.
import type { FormatId } from '../formats/registry.ts';
import { API, LIST, type FilterKey } from '../routes/urls.ts';
import { SERVICE_RENDERERS } from './negotiate.ts';

/** Longest URL path the handler reads. */
export const MAX_PATH_LENGTH = 512;

const SUFFIX = `\\.(${SERVICE_RENDERERS.map((r) => r.format).join('|')})`;

export type Route =
  | { kind: 'list'; suffix?: FormatId; /** /api/v1/collections/CORE/ and the like: a filter the path names. */ pathFilter?: [FilterKey, string] }
  | { kind: 'detail'; id: string; suffix?: FormatId }
  | { kind: 'versions'; baseId: string; suffix?: FormatId };

// The service's URL patterns (DRF's format_suffix_patterns added the suffix
// forms); tried in its order: the versions route comes before the detail one.
const ROUTES: [RegExp, (m: RegExpExecArray) => Route][] = [
  [new RegExp(`^${LIST}/?$`), () => ({ kind: 'list' })],
  [new RegExp(`^${LIST}/?${SUFFIX}/?$`), (m) => ({ kind: 'list', suffix: m[1] as FormatId })],
  [new RegExp(`^${LIST}/(\\w+)/versions/$`), (m) => ({ kind: 'versions', baseId: m[1] })],
  [new RegExp(`^${LIST}/(\\w+)/versions${SUFFIX}/?$`), (m) => ({ kind: 'versions', baseId: m[1], suffix: m[2] as FormatId })],
  [new RegExp(`^${LIST}/([^/]+)/$`), (m) => ({ kind: 'detail', id: m[1] })],
  [new RegExp(`^${LIST}/([^/]+)${SUFFIX}/?$`), (m) => ({ kind: 'detail', id: m[1], suffix: m[2] as FormatId })],
];

/** The matrices of one collection, taxonomic group or species (the mirror's endpoints, as the real service has them). */
const PATH_FILTERS: Record<string, FilterKey> = { collections: 'collection', taxon: 'tax_group', species: 'tax_id' };
const PATH_FILTER_ROUTE = new RegExp(`^${API}/(collections|taxon|species)/([^/]+)/$`);

/** The matrix endpoint a URL path is, or null (another API URL, a page, an asset, a path too long or not UTF-8). */
export function routeOf(pathname: string): Route | null {
  if (pathname.length > MAX_PATH_LENGTH) return null;
  const byPath = PATH_FILTER_ROUTE.exec(pathname);
  if (byPath) {
    try {
      return { kind: 'list', pathFilter: [PATH_FILTERS[byPath[1]], decodeURIComponent(byPath[2])] };
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
  for (const [pattern, route] of ROUTES) {
    const m = pattern.exec(path);
    if (m) return route(m);
  }
  return null;
}

/** The service's split_id: base id, a dot, a number ("MA0139.01" is MA0139.1); null when the id has no version (a base id, or no id). */
export function matrixIdOf(id: string): string | null {
  const m = /^(.+)\.([0-9]+)$/.exec(id);
  return m ? `${m[1]}.${Number(m[2])}` : null;
}

/** A release other than the default one by its path: /releases/<year>/… */
const RELEASE_PATH = /^\/releases\/([0-9]{4})(\/.*)?$/;

/** The release a path names (/releases/2026/api/v1/…): the path its site lies under and the path inside it; null for the default release's. */
export function releaseOfPath(pathname: string): { prefix: string; inner: string } | null {
  const m = RELEASE_PATH.exec(pathname);
  return m ? { prefix: `/releases/${m[1]}`, inner: m[2] ?? '/' } : null;
}
