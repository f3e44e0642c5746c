// Every other URL of the route table (api-routes.ts): the API root, the index
// lists, a release, binding sites, a logo in its shard folder, a matrix or
// list URL without its trailing slash, the endpoints with no data here.
//
// Cloudflare's static assets have no query rules: what the handler passed on
// as it was (the API root, the index lists, a release, binding sites, with
// their query) got the folder's page for people or a 404 there. These are
// answered here on every host, from the files, with the service's semantics
// (any page size, page=last, "Invalid page.", Accept); pages and assets go to
// the files untouched.
import { toJson } from '../formats/json.ts';
import { FLAT } from '../routes/shard.ts';
import { ABSENT_ENDPOINTS, API, absentDetail } from '../routes/urls.ts';
import { LAYOUT_KINDS, apiRoutes, apiTarget } from './api-routes.ts';
import { file, type Ctx } from './context.ts';
import { indexPage, indexTitle } from './index-lists.ts';
import { otherReleaseOf, releaseRefused } from './other-release.ts';
import { lastValue } from './query.ts';
import { NOT_FOUND, answer, error, jsonpCallback, metadata, readRequest } from './responses.ts';
import { under, type EdgeSite } from './site.ts';
import type { Releases } from './state.ts';

/** The handler's answer for a request on a site (another path of the same request, another release's site). */
export type HandleSite = (request: Request, host: EdgeSite) => Promise<Response>;

/**
 * A request no matrix route takes. `site` is the host's with a compact
 * build's missing files rendered, `host` the host's as it is; `again`
 * answers another request as the handler does (a URL completed with its
 * slash, the same request on another release's site).
 */
export async function otherRoute(request: Request, url: URL, site: EdgeSite, host: EdgeSite, releases: Releases, again: HandleSite): Promise<Response> {
  // Endpoints of the service with no data here (TFFM, inference): 404 with why.
  const absent = ABSENT_ENDPOINTS.find((a) => url.pathname === a.path || url.pathname.startsWith(`${a.path}/`));
  if (absent) return error(request, 404, absentDetail(absent.what));
  // Matched first in the flat layout, so that pages and assets never wait for the indexes.
  const flat = apiTarget(apiRoutes(FLAT), url.pathname, [], null);
  if (flat === null ? !url.pathname.startsWith(`${API}/`) : flat.kind === 'file' && !LAYOUT_KINDS.has(flat.route)) return site.next(request);
  const state = await releases.loadedOrNull(site);
  if (state === null) return site.next(request);
  const read = readRequest(request, url);
  if (read instanceof Response) return read;
  const { pairs, accept } = read;
  const target = apiTarget(apiRoutes(state.index.layout), url.pathname, pairs, accept);
  if (target === null) {
    // Under the API, a path no route takes: its file by path URL, else the API's "Not found." (JSON, as the service).
    const response = await site.next(request);
    if (response.status !== 404 || request.method === 'OPTIONS') return response;
    await response.body?.cancel();
    return error(request, 404, NOT_FOUND);
  }
  if (target.kind === 'file') {
    return target.path === url.pathname ? site.next(request) : site.next(new Request(new URL(`${target.path}${url.search}`, url), request));
  }
  if (target.kind === 'matrix') {
    // The list and matrix endpoints without their trailing slash: answered as with it (Netlify's rules take both; the service redirects).
    if (url.pathname.endsWith('/')) return site.next(request);
    return again(new Request(new URL(`${url.pathname}/${url.search}`, url), request), host);
  }
  const get = (key: string) => lastValue(pairs, key);
  if (target.kind === 'error') {
    if (target.file === undefined) return error(request, target.status, target.detail ?? NOT_FOUND);
    const body = await site.readFile(target.file);
    return body === null ? error(request, target.status, NOT_FOUND) : answer(request, target.status, 'application/json', body);
  }
  const callback = target.format === 'jsonp' ? jsonpCallback(request, get) : undefined;
  if (callback instanceof Response) return callback;
  const elsewhere = otherReleaseOf(state, get);
  if (elsewhere !== null) return again(request, under(host, elsewhere));
  const otherRelease = releaseRefused(request, state, get, callback);
  if (otherRelease) return otherRelease;
  const format = target.format;
  if (request.method === 'OPTIONS') {
    const body = metadata(target.kind === 'index-page' ? indexTitle(target.endpoint) : target.route);
    return answer(request, 200, 'application/json', toJson(body));
  }
  const ctx: Ctx = { request, url, site, state, pairs, get, format, callback };
  if (target.kind === 'index-page') return indexPage(ctx, target);
  return file(ctx, target.path.slice(0, target.path.lastIndexOf('/') + 1));
}
