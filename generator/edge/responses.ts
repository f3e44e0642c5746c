// The edge handler's answers: headers, the service's JSON errors, HEAD and
// OPTIONS as DRF answers them, JSONP callbacks, the request's size limits,
// and the site's 404 page for people where a browser asked.
import { FORMATS, type FormatId } from '../formats/registry.ts';
import { toJson } from '../formats/json.ts';
import { toYaml } from '../formats/yaml.ts';
import type { Json } from '../formats/types.ts';
import { SECURITY_HEADERS } from '../hosting/headers.ts';
import { NOT_FOUND_PEOPLE, fileName } from '../routes/urls.ts';
import type { Route } from './match.ts';
import { MAX_ACCEPT_LENGTH, SERVICE_RENDERERS, negotiate } from './negotiate.ts';
import { QueryTooLarge, parseQuery, type QueryPairs } from './query.ts';
import type { EdgeSite } from './site.ts';

/** The methods the service allows on every endpoint. */
export const ALLOW = 'GET, HEAD, OPTIONS';
export const NOT_FOUND = 'Not found.';
/** A JSONP callback: a JavaScript identifier path (a, a.b, $.cb_1), nothing else. */
const CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
const MAX_CALLBACK_LENGTH = 128;

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

export function answer(request: Request, status: number, contentType: string, body: string | ArrayBuffer): Response {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  // HEAD: the GET answer's headers and length, no body (as the service).
  return new Response(request.method === 'HEAD' ? null : bytes, { status, headers: headers(contentType, { 'Content-Length': String(bytes.byteLength) }) });
}

/** The service's JSON error; JSONP wraps it in the callback, as the service does. */
export function error(request: Request, status: number, detail: string, jsonp?: string): Response {
  const json = toJson({ detail });
  if (jsonp !== undefined) return answer(request, status, FORMATS.jsonp.mediaType, `${jsonp}(${json});`);
  return answer(request, status, 'application/json', json);
}

/** A JSON body in the format asked: the JSONP of another callback than the file's, else null (the format's renderer prints it). */
export function otherCallback(request: Request, body: Json, callback: string | undefined): Response | null {
  return callback !== undefined && callback !== 'callback' ? answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${toJson(body)});`) : null;
}

/** The query's pairs and the Accept header, or the error for one over its size limit. */
export function readRequest(request: Request, url: URL): { pairs: QueryPairs; accept: string | null } | Response {
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

/** The JSONP callback name, or the 400 for one that is not a JavaScript identifier path. */
export function jsonpCallback(request: Request, get: (key: string) => string | undefined): string | Response {
  const callback = get('callback') ?? 'callback';
  // The real service echoes any callback (callback=alert(1)// runs script); this mirror does not.
  if (callback.length > MAX_CALLBACK_LENGTH || !CALLBACK.test(callback)) return error(request, 400, 'callback must be a JavaScript identifier path such as cb, jQuery_123 or app.cb.');
  return callback;
}

/** A 404 "Not found." asked by a browser (Accept, or ?format=api): the 404 page for people, as nginx, Caddy and Apache answer it. */
export async function forPeople(request: Request, response: Response, site: EdgeSite): Promise<Response> {
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

const VIEW_NAMES = {
  list: ['Matrix List', 'REST API endpoint that returns a list of all matrix profiles.'],
  detail: ['Matrix Details', 'API endpoint that returns the matrix profile detail information.'],
  versions: ['Matrix Versions', 'API endpoint that returns matrix model versions based on base_id.'],
} as const;

/** The metadata DRF's SimpleMetadata answers OPTIONS with (the view's name; what it renders and parses). */
export function metadata(name: string, description?: string): Json {
  return { name, ...(description === undefined ? {} : { description }), renders: SERVICE_RENDERERS.map((r) => r.mediaType), parses: ['application/yaml'] };
}

/** OPTIONS on a matrix endpoint as DRF's SimpleMetadata: the view's name and description, what it renders and parses. */
export function options(request: Request, route: Route, format: FormatId, callback?: string): Response {
  const [name, description] = VIEW_NAMES[route.kind];
  const body = metadata(name, description);
  if (format === 'yaml') return answer(request, 200, FORMATS.yaml.mediaType, toYaml(body));
  if (callback !== undefined) return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${toJson(body)});`);
  return answer(request, 200, 'application/json', toJson(body));
}
