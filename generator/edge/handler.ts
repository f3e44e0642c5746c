// The edge handler (issue 14): a Fetch API request handler that sits in
// front of the static files where a host runs code (Netlify Edge Functions,
// Cloudflare Workers; adapters in hosts/; the Node server, generator/server/).
// It answers the matrix endpoints of the JASPAR REST API with the service's
// semantics (filters, search, order, any page size, Accept negotiation,
// format suffixes, JSONP callbacks, HEAD, OPTIONS) and leaves everything else
// to the static files.
//
// - Every answer a pre-rendered file holds byte for byte is that file
//   (site.next() on the file's path URL): matrices, versions, and list pages
//   whose next/previous links the service would write exactly as the file
//   has them. Other list pages are rendered here with the same renderers
//   (matrix-list.ts, index-lists.ts), so they differ from the file of the
//   same page only in those links, which keep every parameter as the service
//   writes them (DRF: keys sorted, values URL-encoded, the request's path).
// - The release comes from the compact indexes the build writes
//   (indexes.ts), read through site.readFile once per handler and release
//   (state.ts); nothing is read outside the site.
// - Errors are the service's JSON ("Invalid page.", "Not found.", 406).
//   What the service would answer with an HTML error page (a tax_id that is
//   not a number) or what this handler declines (an oversized query, a JSONP
//   callback that is not a JavaScript identifier path, another release)
//   gets a JSON error saying why (responses.ts).
// Web-standard APIs only: no node: imports, no file system.
//
// The modules, by idea: match.ts (which matrix endpoint a path is), site.ts
// (the site behind, a release's site under its path), state.ts (the indexes
// a handler holds), responses.ts (headers, errors, OPTIONS, JSONP, the 404
// page for people), context.ts (a routed request, pre-rendered files,
// paging), matrix-list.ts, index-lists.ts, other-routes.ts (every other API
// URL), other-release.ts (release=), compact.ts (a compact build's missing
// files).
import { DEFAULT_FORMAT, FORMATS } from '../formats/registry.ts';
import { detailDir, pathUrl, versionsDir } from '../routes/urls.ts';
import type { Handle } from './hosts/types.ts';
import { withMissingRendered } from './compact.ts';
import { file, type Ctx } from './context.ts';
import { unmirroredOf } from './indexes.ts';
import { matrixIdOf, releaseOfPath, routeOf } from './match.ts';
import { list } from './matrix-list.ts';
import { negotiate } from './negotiate.ts';
import { otherReleaseOf, releaseRefused } from './other-release.ts';
import { otherRoute } from './other-routes.ts';
import { lastValue } from './query.ts';
import { NOT_FOUND, answer, error, forPeople, jsonpCallback, options, readRequest } from './responses.ts';
import { under, type EdgeSite } from './site.ts';
import { releases as createReleases } from './state.ts';

export type { EdgeSite } from './site.ts';
export type { Handle } from './hosts/types.ts';

/**
 * A handler: handle(request, site) answers a request in front of a site.
 * The site comes with each request (on Netlify and Cloudflare it is the
 * request's own context); what the handler reads of it (the indexes) is kept
 * in this handler, once per release, so one handler serves an instance's
 * requests, and a new one starts cold (tests, the cold-start measurement).
 */
export function createHandler(): Handle {
  const releases = createReleases();

  const handleSite = async (request: Request, host: EdgeSite): Promise<Response> => {
    // Every file asked of the site below, also the request's own: in a compact build, the missing ones rendered.
    const site = withMissingRendered(host, releases);
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    if (route === null) return otherRoute(request, url, site, host, releases, handleSite);
    // A collection's, group's or species' folder URL as such: the copy of its
    // first page the build writes in that folder answers it (as Netlify's rule
    // does; a static server would give the folder's page for people).
    // Only for a plain path: the file is asked by the request's own path, and
    // an escaped one (%26, %2F) must not reach the site (every value the
    // release holds is a plain segment; the list answers the others).
    if (route.kind === 'list' && route.pathFilter && url.search === '' && !url.pathname.includes('%') && [null, '*/*'].includes(request.headers.get('Accept')) && request.method === 'GET') {
      const copy = await site.next(new Request(new URL(pathUrl(url.pathname, DEFAULT_FORMAT), url), request));
      if (copy.ok) return answer(request, 200, FORMATS[DEFAULT_FORMAT].mediaType, await copy.arrayBuffer());
      await copy.body?.cancel(); // a value the release lacks: the list answers "Not found."
    }

    const read = readRequest(request, url);
    if (read instanceof Response) return read;
    const { pairs, accept } = read;
    const get = (key: string) => lastValue(pairs, key);
    const negotiated = negotiate(route.suffix ?? (get('format') || undefined), accept);
    if (!negotiated.ok) return error(request, negotiated.status, negotiated.status === 404 ? NOT_FOUND : 'Could not satisfy the request Accept header.');
    if (negotiated.withParams) {
      // DRF hands media type parameters to the renderer (Accept: application/json; indent=4 indents); not reproduced.
      return error(request, 501, 'This mirror does not answer media type parameters in the Accept header (such as indent=); ask without them.');
    }
    const format = negotiated.format;
    const callback = format === 'jsonp' ? jsonpCallback(request, get) : undefined;
    if (callback instanceof Response) return callback;
    const state = await releases.loadedOrNull(site);
    if (state === null) return site.next(request);
    const elsewhere = otherReleaseOf(state, get);
    if (elsewhere !== null) return handleSite(request, under(host, elsewhere));
    const otherRelease = releaseRefused(request, state, get, callback);
    if (otherRelease) return otherRelease;
    if (request.method === 'OPTIONS') return options(request, route, format, callback);

    const ctx: Ctx = { request, url, site, state, pairs, get, format, callback, pathFilter: route.kind === 'list' ? route.pathFilter : undefined };
    switch (route.kind) {
      case 'list':
        return list(ctx);
      case 'detail': {
        // A base id without a version is its latest version: the build writes that file
        // (plan/resources.ts planBaseId), which every host without the handler serves, so
        // the handler (and Apache, which passes a path that is no file to the Node server)
        // answers it too. The service's split_id finds no version there (the oracle: 404).
        const id = matrixIdOf(route.id) ?? route.id;
        const held = state.byId.has(id) || state.baseIds.has(id);
        // A matrix or base id only another release has (new there) answers from its files at the root, as without the handler.
        if (!held && state.index.elsewhere?.[id] === undefined) return error(request, 404, unmirroredOf(state.index, { id: route.id })?.detail ?? NOT_FOUND, callback);
        return file(ctx, detailDir(state.index.layout, id));
      }
      case 'versions': {
        const lacking = unmirroredOf(state.index, { id: route.baseId });
        if (lacking) return error(request, 404, lacking.detail, callback);
        return file(ctx, versionsDir(state.index.layout, route.baseId));
      }
    }
  };

  const respond = async (request: Request, host: EdgeSite): Promise<Response> => {
    // The method first: a request is copied below (new Request(url, request)), and
    // the Fetch API throws on TRACE, CONNECT and TRACK (a 500 with Deno's stack trace).
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      return error(request, 405, `Method "${request.method}" not allowed.`);
    }
    // A release other than the default one, asked for by its path: the same API over its site (the build's
    // /releases/<year>/ folder, whose bodies link within it). Its indexes say whether it is one.
    const url = new URL(request.url);
    const byPath = host.prefix === undefined ? releaseOfPath(url.pathname) : null;
    if (byPath) {
      const inner = new URL(url);
      inner.pathname = byPath.inner;
      return handleSite(new Request(inner, request), under(host, byPath.prefix));
    }
    return handleSite(request, host);
  };

  return async (request, host) => {
    const response = await respond(request, host);
    return response.status === 404 ? forPeople(request, response, host) : response;
  };
}
