// The edge handler (issue 14): a Fetch API request handler that sits in
// front of the static files where a host runs code (Netlify Edge Functions,
// Cloudflare Workers; adapters in hosts/). It answers the matrix endpoints of
// the JASPAR REST API with the service's semantics (filters, search, order,
// any page size, Accept negotiation, format suffixes, JSONP callbacks, HEAD,
// OPTIONS) and leaves everything else to the static files.
//
// - Every answer a pre-rendered file holds byte for byte is that file
//   (site.next() on the file's path URL): matrices, versions, and list pages
//   whose next/previous links the service would write exactly as the file
//   has them. Other list pages are rendered here with the same renderers
//   (generator/formats/*, resources.ts listItem), so they differ from the
//   file of the same page only in those links, which keep every parameter as
//   the service writes them (DRF: keys sorted, values URL-encoded, the
//   request's path; page dropped from the link to page 1).
// - The release comes from the compact indexes the build writes
//   (indexes.ts), read once per instance through site.readFile; nothing is
//   read outside the site.
// - Errors are the service's JSON ("Invalid page.", "Not found.", 406).
//   What the service would answer with an HTML error page (a tax_id that is
//   not a number) or what this handler declines (an oversized query, a JSONP
//   callback that is not a JavaScript identifier path, another release)
//   gets a JSON error saying why.
// Web-standard APIs only: no node: imports, no file system.
import { DEFAULT_FORMAT, FORMATS, FORMAT_IDS, type FormatId } from '../formats/registry.ts';
import { toJson } from '../formats/json.ts';
import { toYaml } from '../formats/yaml.ts';
import type { FormatContext, Json, Resource } from '../formats/types.ts';
import type { Matrix } from '../dataset/types.ts';
import { SECURITY_HEADERS } from '../hosting/headers.ts';
import { LIST_CRUMB, listChoices, listItem, listPageNav, listViewFormats, pagesNav } from '../plan/resources.ts';
import type { Page } from '../routes/paginate.ts';
import {
  API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, NOT_FOUND_PEOPLE, PAGE_SIZES, detailDir, fileName, indexQueryUrl, listDir, listQueryUrl, logoPath, outputPath, pageHref, pathUrl, sitesPath, versionsDir,
  type FilterKey, type Filters,
} from '../routes/urls.ts';
import { API_CRUMB, INDEX_TITLES } from '../plan/endpoints.ts';
import { ABSENT_ENDPOINTS, absentDetail } from '../routes/urls.ts';
import { FLAT } from '../routes/shard.ts';
import { LAYOUT_KINDS, apiRoutes, apiTarget, type ApiTarget } from './api-routes.ts';
import { FILTER_COMBINATIONS } from '../routes/table.ts';
import { INDEX_PATH, MATRICES_PATH, matrixOf, parseIndex, parseMatrices, recordsOf, unmirroredOf, type EdgeIndex, type EdgeMatrices, type Record_ } from './indexes.ts';
import { MAX_ACCEPT_LENGTH, SERVICE_RENDERERS, negotiate } from './negotiate.ts';
import { QueryTooLarge, lastValue, parseQuery, pyInt, rewriteQuery, type QueryPairs } from './query.ts';
import { renderFile, renderable } from './render-missing.ts';
import { BadParameter, select, selectionOf } from './select.ts';

export interface EdgeSite {
  /** The static file answer for this request (Netlify: context.next(); Cloudflare: env.ASSETS.fetch(request)). */
  next(request: Request): Promise<Response>;
  /** A file of the built site by its URL path ('/api/v1/…'), or null when absent (indexes the build writes). */
  readFile(path: string): Promise<string | null>;
  /** Where this site lies in the host's (a release other than the default one: "/releases/2026"); none: the root. */
  prefix?: string;
}

/** The service caps page_size here (DRF max_page_size). */
export const MAX_PAGE_SIZE = 1000;
/** Longest URL path the handler reads. */
export const MAX_PATH_LENGTH = 512;
/** A JSONP callback: a JavaScript identifier path (a, a.b, $.cb_1), nothing else. */
const CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
const MAX_CALLBACK_LENGTH = 128;
const ALLOW = 'GET, HEAD, OPTIONS';

// ---- The release, read once per instance --------------------------------

interface Loaded {
  index: EdgeIndex;
  records: Record_[];
  byId: Map<string, Record_>;
  context: FormatContext;
  /** Counts and the rest, read when first needed. */
  matrices?: Promise<EdgeMatrices>;
}

/** Each release's indexes by the path its site lives under ("" for the default release). */
const loaded = new Map<string, Promise<Loaded>>();

/** Forgets the indexes (tests and the cold-start measurement). */
export function forgetIndexes(): void {
  loaded.clear();
}

function load(site: EdgeSite): Promise<Loaded> {
  const key = site.prefix ?? '';
  let state = loaded.get(key);
  if (state) return state;
  state = (async () => {
    const text = await site.readFile(INDEX_PATH);
    if (text === null) throw new Error(`${INDEX_PATH} is missing: the site was built without the edge indexes`);
    const index = parseIndex(text);
    const records = recordsOf(index);
    return {
      index,
      records,
      byId: new Map(records.map((r) => [r.matrixId, r])),
      // The site's layout comes with its index: the handler names files as the build that wrote them did.
      context: { release: index.release, logoHref: (id: string) => logoPath(index.layout, id), detailHref: (id: string) => pageHref(detailDir(index.layout, id)) },
    };
  })().catch((error: unknown) => {
    loaded.delete(key); // a failed read is tried again by the next request
    throw error;
  });
  loaded.set(key, state);
  return state;
}

function matricesOf(state: Loaded, site: EdgeSite): Promise<EdgeMatrices> {
  state.matrices ??= (async () => {
    const text = await site.readFile(MATRICES_PATH);
    if (text === null) throw new Error(`${MATRICES_PATH} is missing: the site was built without the edge indexes`);
    return parseMatrices(text, state.records.length);
  })().catch((error: unknown) => {
    state.matrices = undefined;
    throw error;
  });
  return state.matrices;
}

// ---- Routes ---------------------------------------------------------------

const SUFFIX = `\\.(${SERVICE_RENDERERS.map((r) => r.format).join('|')})`;
type Route =
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

function routeOf(pathname: string): Route | null {
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

// ---- Responses ------------------------------------------------------------

function headers(contentType: string, extra: Record<string, string> = {}): Headers {
  return new Headers({
    ...SECURITY_HEADERS,
    'Content-Type': contentType,
    Vary: 'Accept',
    Allow: ALLOW,
    'Access-Control-Allow-Origin': '*',
    ...extra,
  });
}

function answer(request: Request, status: number, contentType: string, body: string | ArrayBuffer): Response {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  // HEAD: the GET answer's headers and length, no body (as the service).
  return new Response(request.method === 'HEAD' ? null : bytes, { status, headers: headers(contentType, { 'Content-Length': String(bytes.byteLength) }) });
}

/** The service's JSON error; JSONP wraps it in the callback, as the service does. */
function error(request: Request, status: number, detail: string, jsonp?: string): Response {
  const json = toJson({ detail });
  if (jsonp !== undefined) return answer(request, status, FORMATS.jsonp.mediaType, `${jsonp}(${json});`);
  return answer(request, status, 'application/json', json);
}

const NOT_FOUND = 'Not found.';

// ---- The handler ----------------------------------------------------------

/** The query's pairs and the Accept header, or the error for one over its size limit. */
function readRequest(request: Request, url: URL): { pairs: QueryPairs; accept: string | null } | Response {
  let pairs: QueryPairs;
  try {
    pairs = parseQuery(url.search);
  } catch (e) {
    if (e instanceof QueryTooLarge) return error(request, 400, `This mirror reads at most a query of limited size: ${e.message}.`);
    throw e;
  }
  const accept = request.headers.get('Accept');
  if (accept !== null && accept.length > MAX_ACCEPT_LENGTH) return error(request, 400, `The Accept header is longer than ${MAX_ACCEPT_LENGTH} characters.`);
  return { pairs, accept };
}

/** The indexes; null for a site built without them (or one that cannot be read): the static files answer, as without the handler. */
async function loadedOrNull(site: EdgeSite): Promise<Loaded | null> {
  try {
    return await load(site);
  } catch (e) {
    console.error(`edge handler: ${(e as Error).message}; the static files answer`);
    return null;
  }
}

/** The JSONP callback name, or the 400 for one that is not a JavaScript identifier path. */
function jsonpCallback(request: Request, get: (key: string) => string | undefined): string | Response {
  const callback = get('callback') ?? 'callback';
  // The real service echoes any callback (callback=alert(1)// runs script); this mirror does not.
  if (callback.length > MAX_CALLBACK_LENGTH || !CALLBACK.test(callback)) return error(request, 400, 'callback must be a JavaScript identifier path such as cb, jQuery_123 or app.cb.');
  return callback;
}

/** The 404 for a release= the site does not hold; null when the release is this one or not asked. */
function releaseRefused(request: Request, state: Loaded, get: (key: string) => string | undefined, callback: string | undefined): Response | null {
  const release = get('release');
  if (!release || release === String(state.index.release.year)) return null;
  const held = state.index.releases ?? [{ year: state.index.release.year, name: state.index.release.name, prefix: '' }];
  const names = held.map((r) => `${r.name} (release=${r.year})`).join(' and ');
  return error(request, 404, `Release "${release}" is not available: this mirror serves ${names}.`, callback);
}

/** Another release held by the site that release= asks for: where its site lies, or null (this one, none asked, or one not held). */
function otherReleaseOf(state: Loaded, get: (key: string) => string | undefined): string | null {
  const release = get('release');
  if (!release || release === String(state.index.release.year)) return null;
  return state.index.releases?.find((r) => String(r.year) === release && r.prefix !== '')?.prefix ?? null;
}

/** The site of a release under a path of the host's ("/releases/2026"): its files and indexes are the host's with the path in front. */
function under(host: EdgeSite, prefix: string): EdgeSite {
  return {
    prefix,
    readFile: (path) => host.readFile(`${prefix}${path}`),
    next(request) {
      const url = new URL(request.url);
      url.pathname = `${prefix}${url.pathname}`;
      return host.next(new Request(url, request));
    },
  };
}

/** A release other than the default one by its path: /releases/<year>/… */
const RELEASE_PATH = /^\/releases\/([0-9]{4})(\/.*)?$/;

export async function handle(request: Request, host: EdgeSite): Promise<Response> {
  const response = await respond(request, host);
  return response.status === 404 ? forPeople(request, response, host) : response;
}

/** A 404 "Not found." asked by a browser (Accept, or ?format=api): the 404 page for people, as nginx, Caddy and Apache answer it. */
async function forPeople(request: Request, response: Response, site: EdgeSite): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return response;
  const url = new URL(request.url);
  const asked = url.searchParams.getAll('format').pop();
  const negotiated = negotiate(asked || undefined, request.headers.get('Accept'));
  if (!negotiated.ok || negotiated.format !== 'api') return response;
  // Only "Not found." ("Invalid page." and the others stay the API's errors, as on the servers).
  const body = await response.clone().text();
  if (body !== toJson({ detail: NOT_FOUND })) return response;
  const page = await site.readFile(`${NOT_FOUND_PEOPLE}${fileName('api')}`);
  if (page === null) return response;
  await response.body?.cancel();
  return answer(request, 404, FORMATS.api.mediaType, page);
}

async function respond(request: Request, host: EdgeSite): Promise<Response> {
  // The method first: a request is copied below (new Request(url, request)), and
  // the Fetch API throws on TRACE, CONNECT and TRACK (a 500 with Deno's stack trace).
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
    return error(request, 405, `Method "${request.method}" not allowed.`);
  }
  // A release other than the default one, asked for by its path: the same API over its site (the build's
  // /releases/<year>/ folder, whose bodies link within it). Its indexes say whether it is one.
  const url = new URL(request.url);
  const byPath = host.prefix === undefined ? RELEASE_PATH.exec(url.pathname) : null;
  if (byPath) {
    const inner = new URL(url);
    inner.pathname = byPath[2] ?? '/';
    return handleSite(new Request(inner, request), under(host, `/releases/${byPath[1]}`));
  }
  return handleSite(request, host);
}

async function handleSite(request: Request, host: EdgeSite): Promise<Response> {
  // Every file asked of the site below, also the request's own: in a compact build, the missing ones rendered.
  const site = withMissingRendered(host);
  const url = new URL(request.url);
  const route = routeOf(url.pathname);
  if (route === null) return otherRoute(request, url, site, host);
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
  const state = await loadedOrNull(site);
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
      // The service's split_id: base id, a dot, a number ("MA0139.01" is MA0139.1).
      const m = /^(.+)\.([0-9]+)$/.exec(route.id);
      const id = m ? `${m[1]}.${Number(m[2])}` : '';
      // A matrix only another release has (new there) answers from its files at the root, as without the handler.
      if (!state.byId.has(id) && state.index.elsewhere?.[id] === undefined) return error(request, 404, unmirroredOf(state.index, { id: route.id })?.detail ?? NOT_FOUND, callback);
      return file(ctx, detailDir(state.index.layout, id));
    }
    case 'versions': {
      const lacking = unmirroredOf(state.index, { id: route.baseId });
      if (lacking) return error(request, 404, lacking.detail, callback);
      return file(ctx, versionsDir(state.index.layout, route.baseId));
    }
  }
}

// ---- A compact build's missing files --------------------------------------

/** The site's files, and where the host has none and the index says the build is compact, the full build's file rendered (render-missing.ts). */
function withMissingRendered(site: EdgeSite): EdgeSite {
  return {
    prefix: site.prefix,
    readFile: (path) => site.readFile(path),
    async next(request) {
      const response = await site.next(request);
      if (response.status !== 404 || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
      const rendered = await renderMissing(request, site);
      if (rendered === null) return response;
      await response.body?.cancel();
      return rendered;
    },
  };
}

async function renderMissing(request: Request, site: EdgeSite): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (pathname.length > MAX_PATH_LENGTH) return null;
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null; // a path that is not UTF-8: the host's 404
  }
  // A missing page or asset is the host's 404 at once: it never waits for the indexes.
  if (!renderable(path)) return null;
  let state: Loaded;
  try {
    state = await load(site);
  } catch {
    return null; // no indexes (the handler says why when it needs them): the host's 404
  }
  if (!state.index.compact) return null;
  const file = await renderFile(path, {
    index: state.index,
    records: state.records,
    context: state.context,
    matrices: () => matricesOf(state, site),
    readFile: (p) => site.readFile(p),
  });
  if (file === null) return null;
  return answer(request, 200, file.format === undefined ? 'image/svg+xml' : FORMATS[file.format].mediaType, file.body);
}

interface Ctx {
  request: Request;
  url: URL;
  site: EdgeSite;
  state: Loaded;
  pairs: QueryPairs;
  get: (key: string) => string | undefined;
  format: FormatId;
  callback?: string;
  pathFilter?: [FilterKey, string];
}

const VIEW_NAMES = {
  list: ['Matrix List', 'REST API endpoint that returns a list of all matrix profiles.'],
  detail: ['Matrix Details', 'API endpoint that returns the matrix profile detail information.'],
  versions: ['Matrix Versions', 'API endpoint that returns matrix model versions based on base_id.'],
} as const;

/** OPTIONS as DRF's SimpleMetadata: the view's name and description, what it renders and parses. */
function options(request: Request, route: Route, format: FormatId, callback?: string): Response {
  const [name, description] = VIEW_NAMES[route.kind];
  const body: Json = { name, description, renders: SERVICE_RENDERERS.map((r) => r.mediaType), parses: ['application/yaml'] };
  if (format === 'yaml') return answer(request, 200, FORMATS.yaml.mediaType, toYaml(body));
  if (callback !== undefined) return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${toJson(body)});`);
  return answer(request, 200, 'application/json', toJson(body));
}

/** A pre-rendered file of the site (one format of a resource folder), through the static files. */
async function staticFile(ctx: Ctx, path: string): Promise<Response | null> {
  const response = await ctx.site.next(new Request(new URL(path, ctx.url), { method: 'GET', headers: ctx.request.headers }));
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  return response;
}

/** A matrix or a base id's versions: its file in the negotiated format. */
async function file(ctx: Ctx, dir: string): Promise<Response> {
  const { request, format, callback } = ctx;
  if (callback !== undefined && callback !== 'callback') {
    // The file holds callback(…); another name wraps the JSON file.
    const json = await staticFile(ctx, `/${outputPath(dir, 'json')}`);
    if (json === null) return error(request, 404, NOT_FOUND, callback);
    return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${await json.text()});`);
  }
  const response = await staticFile(ctx, `/${outputPath(dir, format)}`);
  if (response === null) return error(request, 404, NOT_FOUND, callback);
  return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
}

/** The link to another page: the request's URL (the build's host) with page replaced. DRF drops
 *  page from the link to page 1; the pre-rendered files and the list contract (../shared/spec/)
 *  keep page=1, and the handler writes what the files have, so that both give one body. */
function pageLink(ctx: Ctx, page: number | null): string | null {
  if (page === null) return null;
  const query = rewriteQuery(ctx.pairs, 'page', String(page));
  return `${ctx.state.index.base}${ctx.url.pathname}${query ? `?${query}` : ''}`;
}

async function list(ctx: Ctx): Promise<Response> {
  const { request, state, get, format, callback } = ctx;
  // A collection of JASPAR's release that the mirror does not hold: why, not an empty list.
  const lacking = unmirroredOf(state.index, { collection: ctx.pathFilter?.[0] === 'collection' ? ctx.pathFilter[1] : get('collection') });
  if (lacking) return error(request, 404, lacking.detail, callback);
  let records: Record_[];
  try {
    let from = state.records;
    if (ctx.pathFilter) {
      const [key, value] = ctx.pathFilter;
      // The path names one value the release holds (case-folded as the filter); another is not found, as on the static mirror.
      if (key === 'tax_id' && (value.includes(',') || pyInt(value) === null)) return error(request, 404, NOT_FOUND, callback);
      from = select(from, selectionOf((k) => (k === key ? value : undefined)));
      if (from.length === 0) return error(request, 404, NOT_FOUND, callback);
    }
    // The query's filters over what the path left (version=latest among those).
    records = select(from, selectionOf(get));
  } catch (e) {
    if (e instanceof BadParameter) return error(request, 400, e.message, callback);
    throw e;
  }
  // DRF: a page_size that is not a positive integer is the default; above the maximum, the maximum.
  const askedSize = pyInt(get('page_size') ?? '');
  const pageSize = askedSize === null || askedSize <= 0 ? DEFAULT_PAGE_SIZE : Math.min(askedSize, MAX_PAGE_SIZE);
  const last = Math.max(1, Math.ceil(records.length / pageSize));
  // DRF: no page is page 1; an empty one is not a number ("Invalid page.").
  const askedPage = get('page') ?? '1';
  const number = askedPage === 'last' ? last : pyInt(askedPage);
  if (number === null || number < 1 || number > last) return error(request, 404, 'Invalid page.', callback);
  const page: Page<Record_> = {
    number,
    items: records.slice((number - 1) * pageSize, number * pageSize),
    previous: number > 1 ? number - 1 : null,
    next: number < last ? number + 1 : null,
    last,
  };
  const next = pageLink(ctx, page.next);
  const previous = pageLink(ctx, page.previous);

  const view = ownView(ctx, pageSize);
  if (view !== null) {
    // The request is a pre-rendered page's own query URL. Its file is the
    // answer when its links are the ones written here (not when the request
    // has a parameter the file's links lack: the links keep it). Without the file (a
    // compact build) the page is rendered here, with the file's navigation for people.
    const own = (n: number | null) => (n === null ? null : listQueryUrl(state.index.base, format, n, pageSize, view));
    if (own(page.next) === next && own(page.previous) === previous) {
      const response = await staticFile(ctx, `/${outputPath(listDir(page.number, pageSize, view), format)}`);
      if (response !== null) return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
    }
  }
  const base = state.index.base;
  const body: Json = { count: records.length, next, previous, results: page.items.map((r) => listItem(r, base, state.index.layout)) };
  if (callback !== undefined && callback !== 'callback') return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${toJson(body)});`);
  const needsMatrices = format !== 'json' && format !== 'jsonp' && format !== 'yaml';
  const matrices = needsMatrices ? await fullMatrices(ctx, page.items) : [];
  const resource: Resource = {
    // The page for people of a list that is not pre-rendered links its
    // pages and formats by query URL, and is not one of the site's list
    // folders: 'index' keeps site.js (which moves query URLs to list files
    // on static hosts) from moving it.
    kind: format === 'api' && view === null ? 'index' : 'list',
    body,
    matrices,
    nav: format !== 'api' ? { title: '', dir: '', request: '', formats: [], breadcrumbs: [] } : view !== null ? listPageNav(view, pageSize, page, base, listChoices(ctx.state.index.filterValues)) : listNav(ctx, page),
  };
  return answer(request, 200, FORMATS[format].mediaType, FORMATS[format].render(resource, state.context));
}

/** The matrices the text formats print, with their binding sites for BED. */
async function fullMatrices(ctx: Ctx, items: Record_[]): Promise<Matrix[]> {
  const rest = await matricesOf(ctx.state, ctx.site);
  const matrices = items.map((r) => matrixOf(r, rest.rows[r.position]));
  if (ctx.format === 'bed') {
    await Promise.all(matrices.map(async (m) => {
      if (m.sites !== null) m.sites = (await ctx.site.readFile(sitesPath(m.matrixId))) ?? '';
    }));
  }
  return matrices;
}

/** Navigation of a rendered page for people: query URLs of this request, other page or format. */
function listNav(ctx: Ctx, page: Page<Record_>): Resource['nav'] {
  const path = ctx.url.pathname;
  const href = (key: string, value: string) => `${path}?${rewriteQuery(ctx.pairs, key, value)}`;
  const shown = ctx.pairs.filter(([k]) => k !== 'format' && k !== 'page').map(([k, v]) => `${k}=${v}`).join(', ');
  return {
    title: `Matrix List${shown ? ` (${shown})` : ''}`,
    dir: path,
    request: `${path}${ctx.url.search}`,
    formats: FORMAT_IDS.map((f) => ({ format: f, href: href('format', f) })),
    pages: pagesNav(page, (n) => href('page', String(n))),
    breadcrumbs: [LIST_CRUMB],
  };
}

/** The filters of the pre-rendered list view whose own query URL this request is (any page of it), or null. */
function ownView(ctx: Ctx, pageSize: number): Filters | null {
  const { pairs, format, callback, state, url } = ctx;
  if (url.pathname !== LIST || ctx.pathFilter || (callback !== undefined && callback !== 'callback')) return null;
  const filters: Filters = {};
  for (const [key, value] of pairs) if ((FILTER_KEYS as readonly string[]).includes(key)) filters[key as FilterKey] = value;
  const keys = FILTER_KEYS.filter((k) => filters[k] !== undefined);
  if (!FILTER_COMBINATIONS.some((c) => c.length === keys.length && c.every((k) => keys.includes(k)))) return null;
  if (!keys.every((k) => state.index.filterValues[k].includes(filters[k]!))) return null;
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize) || !listViewFormats(pageSize, filters).includes(format)) return null;
  // The same parameters, written the same way, as the view's query URL (which always names its format and page).
  const asked = `${state.index.base}${url.pathname}?${rewriteQuery(pairs, 'page', '1')}`;
  if (asked !== listQueryUrl(state.index.base, format, 1, pageSize, filters)) return null;
  // The build's views select as the service does (plan/views.ts viewMatrices:
  // version=latest among what the other filters keep), so the file holds
  // the service's answer.
  return filters;
}

// ---- Every other URL of the route table (api-routes.ts) --------------------
//
// Cloudflare's static assets have no query rules: what the handler passed on
// as it was (the API root, the index lists, a release, binding sites, with
// their query) got the folder's page for people or a 404 there. These are
// answered here on every host, from the files, with the service's semantics
// (any page size, page=last, "Invalid page.", Accept); pages and assets go to
// the files untouched.

type IndexPage = Extract<ApiTarget, { kind: 'index-page' }>;

/** Items of an index list, read once per instance from its largest pre-rendered page size. */
const indexItems = new WeakMap<Loaded, Map<string, Promise<Json[]>>>();

async function otherRoute(request: Request, url: URL, site: EdgeSite, host: EdgeSite): Promise<Response> {
  // Endpoints of the service with no data here (TFFM, inference): 404 with why.
  const absent = ABSENT_ENDPOINTS.find((a) => url.pathname === a.path || url.pathname.startsWith(`${a.path}/`));
  if (absent) return error(request, 404, absentDetail(absent.what));
  // Matched first in the flat layout, so that pages and assets never wait for the indexes.
  const flat = apiTarget(apiRoutes(FLAT), url.pathname, [], null);
  if (flat === null ? !url.pathname.startsWith(`${API}/`) : flat.kind === 'file' && !LAYOUT_KINDS.has(flat.route)) return site.next(request);
  const state = await loadedOrNull(site);
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
    return handleSite(new Request(new URL(`${url.pathname}/${url.search}`, url), request), host);
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
  if (elsewhere !== null) return handleSite(request, under(host, elsewhere));
  const otherRelease = releaseRefused(request, state, get, callback);
  if (otherRelease) return otherRelease;
  const format = target.format;
  if (request.method === 'OPTIONS') {
    const body: Json = { name: target.kind === 'index-page' ? INDEX_TITLES[target.endpoint as keyof typeof INDEX_TITLES] ?? target.endpoint : target.route, renders: SERVICE_RENDERERS.map((r) => r.mediaType), parses: ['application/yaml'] };
    return answer(request, 200, 'application/json', toJson(body));
  }
  const ctx: Ctx = { request, url, site, state, pairs, get, format, callback };
  if (target.kind === 'index-page') return indexPage(ctx, target);
  return file(ctx, target.path.slice(0, target.path.lastIndexOf('/') + 1));
}

/** Every item of an index list (the largest page size's pages, in order). */
function itemsOf(ctx: Ctx, target: IndexPage): Promise<Json[]> {
  let lists = indexItems.get(ctx.state);
  if (lists === undefined) indexItems.set(ctx.state, (lists = new Map()));
  let items = lists.get(target.endpoint);
  if (items === undefined) {
    items = (async () => {
      const all: Json[] = [];
      for (let n = 1; ; n++) {
        const text = await ctx.site.readFile(target.itemsFile(n));
        if (text === null) throw new Error(`${target.itemsFile(n)} is missing: the site was built without it`);
        const page = JSON.parse(text) as { count: number; results: Json[] };
        all.push(...page.results);
        if (all.length >= page.count || page.results.length === 0) return all;
      }
    })();
    items.catch(() => lists.delete(target.endpoint));
    lists.set(target.endpoint, items);
  }
  return items;
}

/** A page of an index list: its file where the page size is pre-rendered and the file's links are the service's, else rendered with the same renderers. */
async function indexPage(ctx: Ctx, target: IndexPage): Promise<Response> {
  const { request, state, format, callback } = ctx;
  const items = await itemsOf(ctx, target);
  const last = Math.max(1, Math.ceil(items.length / target.pageSize));
  const number = target.page === 'last' ? last : target.page;
  if (number === null || number > last) return error(request, 404, 'Invalid page.', callback);
  const page: Page<Json> = {
    number,
    items: items.slice((number - 1) * target.pageSize, number * target.pageSize),
    previous: number > 1 ? number - 1 : null,
    next: number < last ? number + 1 : null,
    last,
  };
  const next = pageLink(ctx, page.next);
  const previous = pageLink(ctx, page.previous);
  const own = (n: number | null) => (n === null ? null : indexQueryUrl(state.index.base, target.endpoint, format, n, target.pageSize));
  const path = target.file(number);
  if (path !== null && own(page.next) === next && own(page.previous) === previous && (callback === undefined || callback === 'callback')) {
    const response = await staticFile(ctx, path);
    if (response !== null) return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
  }
  const body: Json = { count: items.length, next, previous, results: page.items };
  if (callback !== undefined && callback !== 'callback') return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${toJson(body)});`);
  const title = INDEX_TITLES[target.endpoint as keyof typeof INDEX_TITLES] ?? target.endpoint;
  const path_ = ctx.url.pathname;
  const href = (key: string, value: string) => `${path_}?${rewriteQuery(ctx.pairs, key, value)}`;
  const resource: Resource = {
    kind: 'index',
    body,
    matrices: [],
    nav: {
      title,
      dir: path_,
      request: `${path_}${ctx.url.search}`,
      formats: target.formats.map((f) => ({ format: f, href: href('format', f) })),
      pages: pagesNav(page, (n) => href('page', String(n))),
      breadcrumbs: [API_CRUMB, { label: title, href: path_ }],
    },
  };
  return answer(request, 200, FORMATS[format].mediaType, FORMATS[format].render(resource, state.context));
}
