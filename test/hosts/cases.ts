// The conformance cases every host is checked against (conformance.test.ts),
// and what each host declares it cannot do, with the reason. A case names
// the abilities it needs; a host lists the abilities it lacks. Nothing here
// is inferred from a failure: a case a host does not declare unsupported
// must pass on it.

/** What a case needs from a host beyond serving files by path. */
export type Ability =
  | 'query' // routes by the query string (?format=, ?page=, filters, page sizes)
  | 'folder-json' // answers a resource folder without ?format= with its JSON, as the real API
  | 'suffix' // format suffix URLs (/api/v1/matrix/MA0139.1.jaspar), DRF's format_suffix_patterns
  | 'accept' // format chosen by the Accept header
  | 'api-types' // the real service's Content-Types for the text formats and YAML
  | 'cors' // Access-Control-Allow-Origin on the API
  | 'security-headers' // CSP, nosniff, Referrer-Policy, X-Frame-Options
  | 'missing-404' // a query URL whose file does not exist answers status 404 (not 200)
  | 'invalid-page' // "Invalid page." for a page past the end or not a number (not "Not found.")
  | 'unrendered-501' // a page size, or a format at a page size, that is not pre-rendered answers 501 saying so (not "Not found.")
  | 'double-slash-list' // a list query URL with a double slash
  | 'methods' // OPTIONS 200 and other methods 405, with Allow: GET, HEAD, OPTIONS
  | 'accept-html' // a browser's Accept gets the page for people where the service shows its browsable API
  | 'control-chars' // a path with a null byte answers 400 or 404
  | 'no-match' // a filter value the release does not hold answers the service's empty list
  | 'malformed-escape' // survives a path with an invalid percent-escape (overlong UTF-8)
  | 'releases'; // answers release=<year> of another release of the site from that release's files

export interface Expect {
  status?: number;
  /** The status is one of these (hostile requests: what a server may answer, never a 5xx). */
  statusIn?: number[];
  /** Allow lists exactly GET, HEAD, OPTIONS (empty entries aside: Apache adds an empty Allow to its 405). */
  allow?: boolean;
  /** Text that appears nowhere in the answer, status line, headers or body (case-insensitive): a forged Host, an echo, a file outside the site. */
  absent?: string[];
  /** Headers the answer does not have (a CRLF in the query turned into a header). */
  noHeaders?: string[];
  /** The body is byte for byte this file of the site. */
  file?: string;
  /** The body is JSON whose detail starts with this. */
  detail?: string;
  /** The Content-Type header, exactly (the real service's types for the text formats and YAML). */
  contentType?: string;
  /** The media type, parameters aside (servers add "; charset=utf-8" to JSON, the real service does not). */
  type?: string;
  /** Other headers, exactly. */
  headers?: Record<string, string>;
  /** The Vary header lists this (among others). */
  varies?: string;
  /** JSON body: these top-level fields equal. */
  json?: Record<string, unknown>;
  /** JSON body: this many results. */
  results?: number;
  /** A redirect: the Location's path and these query parameters (others kept as sent). */
  location?: { path: string; query: Record<string, string> };
}

export interface Case {
  id: string;
  what: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as raw bytes on a socket (what fetch would refuse or clean up): the method, the request target as written (default: path), header lines (default: Host of the server). */
  raw?: { method?: string; target?: string; headers?: string[] };
  needs: Ability[];
  expect: Expect;
  /** What a host with the whole API (the Node server: the edge handler) answers instead, where the service's answer is not the file's (default: expect). */
  full?: Expect;
  /** What nginx or Caddy with the Node server behind answer, where their own rules answer before it (default: full). */
  behind?: Expect;
}

/** Facts of the built site the cases depend on (read from the site, not assumed). */
export interface SiteFacts {
  /** Pages of the unfiltered list at page_size 10. */
  lastPage: number;
  /** Matrices of the default release (5,278 in JASPAR 2024). */
  matrices: number;
  /** Its matrices whose name, base id or collection holds "ctcf", any case (the service's search=CTCF: 11 in JASPAR 2024). */
  searchCtcf: number;
  /** Its CORE matrices of Homo sapiens (tax_id=9606&collection=CORE: 1,518 in JASPAR 2024). */
  humanCore: number;
}

const LIST = '/api/v1/matrix';
const page = (n: number | string, file = 'index.json', view = '') => `${LIST}/${view}page/${n}/${file}`;
const NOT_FOUND = 'Not found.';
const INVALID_PAGE = 'Invalid page.';

export function cases(site: SiteFacts): Case[] {
  return [
    // Path URLs: every static server.
    { id: 'path-list-page', what: 'a list page by its path URL', path: page(3), needs: [], expect: { status: 200, file: page(3), type: 'application/json' } },
    { id: 'path-logo', what: 'a logo', path: '/static/logos/svg/MA0139.1.svg', needs: [], expect: { status: 200, file: '/static/logos/svg/MA0139.1.svg', type: 'image/svg+xml' } },
    { id: 'path-missing', what: 'a missing file under /api/: 404, the real "Not found." body', path: '/api/v1/no/such/file.json', needs: [], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'path-page-for-people', what: 'a matrix page for people (folder URL with ?format=api, as the pages link)', path: `${LIST}/MA0139.1/?format=api`, needs: [], expect: { status: 200, file: `${LIST}/MA0139.1/index.html` } },
    { id: 'path-text-type', what: 'a text format by its path URL, with the real Content-Type', path: `${LIST}/MA0139.1/index.meme.txt`, needs: ['api-types'], expect: { status: 200, file: `${LIST}/MA0139.1/index.meme.txt`, contentType: 'text/meme; charset=utf-8' } },
    { id: 'cors', what: 'CORS on an API body', path: `${LIST}/MA0139.1/index.json`, needs: ['cors'], expect: { status: 200, headers: { 'access-control-allow-origin': '*', vary: 'Accept' } }, full: { status: 200, headers: { 'access-control-allow-origin': '*' }, varies: 'Accept' } },
    { id: 'security-headers', what: 'security headers on the home page', path: '/', needs: ['security-headers'], expect: { status: 200, file: '/index.html', headers: { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' } } },

    // The list's query URLs.
    { id: 'list-default', what: 'the list without parameters: page 1 in JSON', path: `${LIST}/`, needs: ['query'], expect: { status: 200, file: page(1), type: 'application/json' } },
    { id: 'list-no-slash', what: 'no trailing slash, format and page', path: `${LIST}?format=json&page=2`, needs: ['query'], expect: { status: 200, file: page(2) } },
    { id: 'list-any-order-extra', what: 'parameters in any order, an unknown one ignored', path: `${LIST}/?page=3&foo=bar&format=jaspar`, needs: ['query'], expect: { status: 200, file: page(3, 'index.jaspar.txt') } },
    { id: 'list-type', what: 'a text format with the real Content-Type', path: `${LIST}/?format=transfac&page=2`, needs: ['query', 'api-types'], expect: { status: 200, file: page(2, 'index.transfac.txt'), contentType: 'text/transfac; charset=utf-8' } },
    { id: 'list-yaml-type', what: 'YAML with the real Content-Type', path: `${LIST}/?format=yaml`, needs: ['query', 'api-types'], expect: { status: 200, file: page(1, 'index.yaml'), contentType: 'application/yaml; charset=utf-8' } },
    { id: 'list-page-last', what: 'page=last', path: `${LIST}/?format=yaml&page=last`, needs: ['query'], expect: { status: 200, file: page(site.lastPage, 'index.yaml') } },
    { id: 'list-past-end', what: 'a page past the end: 404 "Invalid page."', path: `${LIST}/?page=99999`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'list-page-not-number', what: 'a page that is not a number: 404 "Invalid page."', path: `${LIST}/?page=abc&format=json`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'list-unknown-format', what: 'an unknown format: 404 "Not found."', path: `${LIST}/?format=xml`, needs: ['query'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'list-double-slash', what: 'a double slash in a list query URL', path: '/api/v1//matrix/?format=json&page=2', needs: ['query', 'double-slash-list'], expect: { status: 200, file: page(2) } },
    { id: 'filters-bundle', what: 'collection + tax_group + version, page_size 1000, MEME (JASPAR\'s bundles)', path: `${LIST}/?collection=CORE&tax_group=vertebrates&version=latest&page_size=1000&format=meme`, needs: ['query'], expect: { status: 200, file: page(1, 'index.meme.txt', 'collection/CORE/tax_group/vertebrates/version/latest/page_size/1000/') } },
    { id: 'filters-any-order', what: 'filters in any order', path: `${LIST}?version=latest&format=json&tax_group=plants&collection=CORE`, needs: ['query'], expect: { status: 200, file: page(1, 'index.json', 'collection/CORE/tax_group/plants/version/latest/') } },
    { id: 'filters-species', what: 'tax_id, page 2', path: `${LIST}/?tax_id=9606&page=2`, needs: ['query'], expect: { status: 200, file: page(2, 'index.json', 'tax_id/9606/') } },
    { id: 'release-mirrored', what: 'release=2024 (the mirrored release)', path: `${LIST}/?release=2024&page=2`, needs: ['query'], expect: { status: 200, file: page(2) } },
    { id: 'filters-unknown-value', what: 'a filter value not spelled as the service folds it (collection=nope, the service: NOPE): 404 "Not found." (a server cannot fold case, and core would be CORE)', path: `${LIST}/?collection=nope`, needs: ['query', 'missing-404'], expect: { status: 404, detail: NOT_FOUND }, full: { status: 200, type: 'application/json', json: { count: 0, results: [] } } },
    { id: 'filters-no-match', what: 'a filter value the release does not hold (collection=DL): the service\'s empty list', path: `${LIST}/?collection=DL&format=json`, needs: ['query', 'no-match'], expect: { status: 200, file: '/api/v1/empty-list/index.json', type: 'application/json' } },
    { id: 'filters-no-match-yaml', what: 'no match with other filters, in YAML', path: `${LIST}/?tax_group=martians&version=latest&format=yaml`, needs: ['query', 'no-match'], expect: { status: 200, file: '/api/v1/empty-list/index.yaml' } },
    { id: 'filters-no-match-page-2', what: 'past page 1 of no match: 404 "Invalid page."', path: `${LIST}/?tax_id=123456789&page=2`, needs: ['query', 'no-match', 'invalid-page'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'filters-past-end', what: 'past the end of a filtered list: 404 "Invalid page."', path: `${LIST}/?collection=CORE&page=9999`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'page-size-over', what: 'page_size above 1000: 301 to page_size=1000, other parameters kept', path: `${LIST}/?page_size=5000&format=json`, needs: ['query'], expect: { status: 301, location: { path: `${LIST}/`, query: { page_size: '1000', format: 'json' } } }, full: { status: 200, type: 'application/json', results: Math.min(1000, site.matrices) }, behind: { status: 301, location: { path: `${LIST}/`, query: { page_size: '1000', format: 'json' } } } },
    { id: 'page-size-other', what: 'a page size not pre-rendered: 501', path: `${LIST}/?page_size=37`, needs: ['query', 'unrendered-501'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this page_size' }, full: { status: 200, type: 'application/json', results: 37 } },
    { id: 'format-page-size', what: 'a format not pre-rendered at that page size: 501', path: `${LIST}/?page_size=25&format=meme`, needs: ['query', 'unrendered-501'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this format at this page_size' }, full: { status: 200, contentType: 'text/meme; charset=utf-8' } },
    { id: 'unsupported-param', what: 'search=: 501 with the reason', path: `${LIST}/?search=CTCF`, needs: ['query'], expect: { status: 501, detail: 'This static mirror of the JASPAR API cannot answer the parameter "search"' }, full: { status: 200, type: 'application/json', json: { count: site.searchCtcf } } },
    { id: 'unsupported-filters', what: 'tax_id with collection: 501', path: `${LIST}/?tax_id=9606&collection=CORE`, needs: ['query'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this combination of filters' }, full: { status: 200, type: 'application/json', json: { count: site.humanCore } } },
    { id: 'unsupported-release', what: 'a release the site does not hold: 501', path: `${LIST}/?release=2018`, needs: ['query'], expect: { status: 501, detail: 'This static mirror serves JASPAR releases 2024 and 2026 only (release=2024, release=2026).' }, full: { status: 404, detail: 'Release "2018" is not available: this mirror serves JASPAR 2024 (release=2024) and JASPAR 2026 (release=2026).' } },

    // The site's other release (JASPAR 2026, under /releases/2026/): release=2026 answers from its files.
    { id: 'release-path-file', what: 'a 2026 list page by its path URL', path: `/releases/2026${page(2)}`, needs: [], expect: { status: 200, file: `/releases/2026${page(2)}`, type: 'application/json' } },
    { id: 'release-list', what: 'release=2026, page 2', path: `${LIST}/?release=2026&page=2`, needs: ['query', 'releases'], expect: { status: 200, file: `/releases/2026${page(2)}` } },
    { id: 'release-filters', what: 'release=2026 with collection=CORE and version=latest', path: `${LIST}/?version=latest&release=2026&collection=CORE&format=yaml`, needs: ['query', 'releases'], expect: { status: 200, file: `/releases/2026${page(1, 'index.yaml', 'collection/CORE/version/latest/')}` } },
    { id: 'release-detail', what: 'a matrix of release=2026 (its 2026 annotations)', path: `${LIST}/MA0139.1/?format=json&release=2026`, needs: ['query', 'releases'], expect: { status: 200, file: `/releases/2026${LIST}/MA0139.1/index.json` } },
    { id: 'release-by-path', what: 'the 2026 list\'s query URL under its path (as its bodies link it)', path: `/releases/2026${LIST}?format=json&page=3`, needs: ['query', 'releases'], expect: { status: 200, file: `/releases/2026${page(3)}` } },
    { id: 'release-unmirrored', what: 'release=2026 with collection=UNVALIDATED: 404 saying why', path: `${LIST}/?release=2026&collection=UNVALIDATED`, needs: ['query', 'releases', 'missing-404'], expect: { status: 404, detail: 'JASPAR 2026\'s UNVALIDATED collection is not mirrored' } },
    { id: 'release-unmirrored-id', what: 'an UNVALIDATED matrix with release=2026: 404 saying why', path: `${LIST}/UN0001.1/?release=2026`, needs: ['query', 'releases', 'missing-404'], expect: { status: 404, detail: 'JASPAR 2026\'s UNVALIDATED collection is not mirrored' } },
    { id: 'release-new-matrix', what: 'a matrix new in 2026 without release=', path: `${LIST}/MA2593.1/?format=jaspar`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA2593.1/index.jaspar.txt` } },

    // Other list endpoints.
    { id: 'collection-page', what: '/api/v1/collections/CORE/ page 2', path: '/api/v1/collections/CORE/?page=2', needs: ['query'], expect: { status: 200, file: page(2, 'index.json', 'collection/CORE/') } },
    { id: 'taxon-yaml', what: '/api/v1/taxon/plants/ in YAML', path: '/api/v1/taxon/plants/?format=yaml', needs: ['query'], expect: { status: 200, file: page(1, 'index.yaml', 'tax_group/plants/') } },
    { id: 'collections-index', what: '/api/v1/collections (no slash)', path: '/api/v1/collections', needs: ['query', 'folder-json'], expect: { status: 200, file: '/api/v1/collections/index.json' } },
    { id: 'api-root', what: '/api/v1/ answers JSON', path: '/api/v1/', needs: ['folder-json'], expect: { status: 200, file: '/api/v1/index.json' } },

    // One resource.
    { id: 'detail-query', what: 'a matrix with ?format=jaspar', path: `${LIST}/MA0139.1/?format=jaspar`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139.1/index.jaspar.txt` } },
    { id: 'detail-folder-json', what: 'a matrix folder without a format answers JSON', path: `${LIST}/MA0139.1/`, needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json`, type: 'application/json' } },
    { id: 'detail-no-slash', what: 'a matrix without the trailing slash', path: `${LIST}/MA0139.1`, needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'detail-double-slash', what: 'a matrix with a double slash', path: '/api/v1//matrix/MA0139.1/', needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'detail-unknown', what: 'an unknown matrix: 404 "Not found."', path: `${LIST}/MA9999.9/`, needs: ['folder-json', 'missing-404'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'detail-unknown-format', what: 'a matrix in an unknown format: 404 "Not found."', path: `${LIST}/MA0139.1/?format=xml`, needs: ['query'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'base-id', what: 'a base id: its latest version', path: `${LIST}/MA0139/?format=pfm`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139/index.pfm.txt` } },
    { id: 'versions', what: 'the versions of a base id in YAML', path: `${LIST}/MA0139/versions/?format=yaml`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139/versions/index.yaml` } },
    { id: 'sites-bed', what: 'binding sites as BED', path: '/api/v1/sites/MA0014.2/?format=bed', needs: ['query'], expect: { status: 200, file: '/api/v1/sites/MA0014.2/index.bed.txt' } },
    { id: 'release', what: 'the mirrored release', path: '/api/v1/releases/2024/', needs: ['folder-json'], expect: { status: 200, file: '/api/v1/releases/2024/index.json' } },

    // Format suffixes (DRF's format_suffix_patterns on the matrix endpoints).
    { id: 'suffix-detail', what: '/api/v1/matrix/MA0139.1.jaspar', path: `${LIST}/MA0139.1.jaspar`, needs: ['suffix', 'api-types'], expect: { status: 200, file: `${LIST}/MA0139.1/index.jaspar.txt`, contentType: 'text/jaspar; charset=utf-8' } },
    { id: 'suffix-list', what: '/api/v1/matrix.json?page=2', path: `${LIST}.json?page=2`, needs: ['suffix'], expect: { status: 200, file: page(2) } },
    { id: 'suffix-versions', what: '/api/v1/matrix/MA0139/versions.json', path: `${LIST}/MA0139/versions.json`, needs: ['suffix'], expect: { status: 200, file: `${LIST}/MA0139/versions/index.json` } },

    // The Accept header.
    { id: 'accept-detail', what: 'Accept: text/transfac on a matrix', path: `${LIST}/MA0139.1/`, headers: { accept: 'text/transfac' }, needs: ['accept'], expect: { status: 200, file: `${LIST}/MA0139.1/index.transfac.txt` } },
    { id: 'accept-list', what: 'Accept: application/yaml on the list, page 2', path: `${LIST}/?page=2`, headers: { accept: 'application/yaml' }, needs: ['accept', 'query'], expect: { status: 200, file: page(2, 'index.yaml') } },
    { id: 'accept-format-wins', what: '?format= wins over Accept', path: `${LIST}/MA0139.1/?format=json`, headers: { accept: 'text/meme' }, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` }, full: { status: 406, detail: 'Could not satisfy the request Accept header.' }, behind: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
  ];
}

/** Where a redirect may point: a path of this site (not //host or /\\host, which browsers follow off-site) or this origin. */
export function locationStaysOnSite(location: string, origin: string): boolean {
  if (/^[/\\]{2}/.test(location) || /^\/\\/.test(location)) return false;
  try {
    return new URL(location, origin).origin === origin;
  } catch {
    return false;
  }
}

const EVIL = 'evil.example';
/** Bytes of /etc/passwd, should a traversal reach it. */
const PASSWD = 'root:x:0:0';
const SAFE = [200, 301, 400, 404, 405, 414, 431];
/** Node's HTTP parser refuses a method it does not know (400) before the server sees it; a known one the server answers 405 with Allow. */
const allowed = (id: string, what: string, method: string, path: string): Case =>
  ({ id, what, path, raw: { method }, needs: ['methods'], expect: { status: 405, allow: true, detail: `Method "${method}" not allowed.` }, ...(/^(PUT|DELETE|POST|PATCH|PROPFIND)$/.test(method) ? {} : { full: { statusIn: [400, 405] } }) });

/** Hostile requests (issue 19): every host answers them without a 5xx, an off-site redirect, a reflected Host, an echo or a file outside the site. */
export function hostileCases(): Case[] {
  return [
    { id: 'redirect-backslash', what: 'no open redirect: /%5cevil.example/..%2f before a page_size redirect', path: `/%5c${EVIL}/..%2fapi/v1/matrix?page_size=5000`, raw: {}, needs: [], expect: { statusIn: [301, 302, 400, 404] } },
    { id: 'redirect-slashes', what: 'no open redirect: /%2f%2fevil.example/..%2f before a page_size redirect', path: `/%2f%2f${EVIL}/..%2fapi/v1/matrix?page_size=5000`, raw: {}, needs: [], expect: { statusIn: [301, 302, 400, 404] } },
    { id: 'redirect-collection', what: 'no open redirect through the collection route', path: `/%5c${EVIL}/..%2fapi/v1/collections/CORE?page_size=5000`, raw: {}, needs: [], expect: { statusIn: [301, 302, 400, 404] } },
    { id: 'null-byte-file', what: 'a null byte in a file name: 400 or 404, not 500', path: '/index.html%00.json', raw: {}, needs: ['control-chars'], expect: { statusIn: [400, 404] } },
    { id: 'null-byte-id', what: 'a null byte as a matrix id: 400 or 404, not 500', path: `${LIST}/%00/`, raw: {}, needs: ['control-chars'], expect: { statusIn: [400, 404] } },
    allowed('method-put', 'PUT: 405 with Allow', 'PUT', `${LIST}/MA0139.1/`),
    allowed('method-delete', 'DELETE: 405 with Allow', 'DELETE', `${LIST}/MA0139.1/`),
    allowed('method-post', 'POST: 405 with Allow', 'POST', `${LIST}/?format=json`),
    allowed('method-patch', 'PATCH: 405 with Allow', 'PATCH', `${LIST}/MA0139.1/`),
    allowed('method-propfind', 'PROPFIND: 405 with Allow', 'PROPFIND', '/'),
    allowed('method-made-up', 'a made-up method: 405 with Allow', 'JASPARIZE', `${LIST}/MA0139.1/`),
    { id: 'method-trace', what: 'TRACE: 405, the request never echoed', path: `${LIST}/MA0139.1/index.json`, raw: { method: 'TRACE', headers: ['X-Probe: secret-probe-value'] }, needs: [], expect: { statusIn: [405], absent: ['secret-probe-value'] } },
    { id: 'options', what: 'OPTIONS: 200 with Allow: GET, HEAD, OPTIONS', path: `${LIST}/MA0139.1/`, raw: { method: 'OPTIONS' }, needs: ['methods'], expect: { status: 200, allow: true } },
    { id: 'host-localhost', what: 'any Host on the port (a person opening http://localhost:PORT)', path: `${LIST}/MA0139.1/index.json`, raw: { headers: ['Host: localhost'] }, needs: [], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'host-forged-redirect', what: 'a forged Host never in Location (page_size redirect)', path: `${LIST}/?page_size=5000`, raw: { headers: [`Host: ${EVIL}`] }, needs: ['query'], expect: { status: 301, absent: [EVIL] }, full: { statusIn: [200, 301], absent: [EVIL] } },
    { id: 'host-forged-slash', what: 'a forged Host never in Location (the server\'s own slash redirect)', path: '/api', raw: { headers: [`Host: ${EVIL}`] }, needs: [], expect: { statusIn: [301, 302, 404], absent: [EVIL] } },
    { id: 'encoded-slashes', what: 'encoded slashes and backslashes', path: '/api%2fv1%2fmatrix%5cMA0139.1%2f', raw: {}, needs: [], expect: { statusIn: SAFE, absent: [EVIL] } },
    { id: 'dot-dot', what: '.. past the root, as sent', path: '/../../../../etc/passwd', raw: {}, needs: [], expect: { statusIn: [400, 404], absent: [PASSWD] } },
    { id: 'dot-dot-encoded', what: '%2e%2e past the root', path: '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', raw: {}, needs: [], expect: { statusIn: [400, 404], absent: [PASSWD] } },
    { id: 'double-encoding', what: 'double-encoded ..', path: '/%252e%252e/%252e%252e/etc/passwd', raw: {}, needs: [], expect: { statusIn: [400, 404], absent: [PASSWD] } },
    { id: 'filter-traversal', what: 'a filter value with ../', path: `${LIST}/?collection=..%2f..%2f..%2fetc&format=json`, raw: {}, needs: [], expect: { statusIn: [200, 400, 404], absent: [PASSWD] } },
    { id: 'crlf-query', what: 'CRLF in the query never becomes a header', path: `${LIST}/?format=json%0d%0aSet-Cookie:%20jaspar=1`, raw: {}, needs: [], expect: { statusIn: SAFE, noHeaders: ['set-cookie'] } },
    { id: 'crlf-redirect', what: 'CRLF in a redirected query stays escaped in Location', path: `${LIST}/?page_size=5000&x=%0d%0aSet-Cookie:%20jaspar=1`, raw: {}, needs: [], expect: { statusIn: [200, 301, 404], noHeaders: ['set-cookie'] } },
    { id: 'huge-url', what: 'a 20 KB URL', path: `${LIST}/?format=json&x=${'a'.repeat(20_000)}`, raw: {}, needs: [], expect: { statusIn: SAFE } },
    { id: 'huge-header', what: 'a 40 KB header', path: `${LIST}/MA0139.1/index.json`, raw: { headers: [`X-Big: ${'b'.repeat(40_000)}`] }, needs: [], expect: { statusIn: SAFE } },
    { id: 'absolute-form', what: 'an absolute-form target naming another host', path: `${LIST}/?page_size=5000`, raw: { target: `http://${EVIL}${LIST}/?page_size=5000` }, needs: [], expect: { statusIn: [200, 301, 400, 404], absent: [`//${EVIL}`] } },
    { id: 'duplicate-host', what: 'two Host headers', path: `${LIST}/MA0139.1/index.json`, raw: { headers: ['Host: localhost', `Host: ${EVIL}`] }, needs: [], expect: { statusIn: [200, 400], absent: [EVIL] } },
    // Last: on a host that dies of it, the cases before still ran.
    { id: 'overlong-utf8', what: 'an overlong UTF-8 escape (%c0%ae%c0%ae: "..")', path: '/%c0%ae%c0%ae/etc/passwd', raw: {}, needs: ['malformed-escape'], expect: { statusIn: [400, 404], absent: [PASSWD] } },
  ];
}

/** Browsers (issue 20): the page for people where the service shows its browsable API; no server 403 page. */
export function browserCases(): Case[] {
  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  return [
    { id: 'browser-matrix', what: 'a browser opening a matrix gets its page for people', path: `${LIST}/MA0139.1/`, headers: browser, needs: ['accept-html'], expect: { status: 200, file: `${LIST}/MA0139.1/index.html`, headers: { vary: 'Accept' } } },
    { id: 'browser-list', what: 'a browser opening the list, page 2', path: `${LIST}/?page=2`, headers: browser, needs: ['accept-html', 'query'], expect: { status: 200, file: page(2, 'index.html') }, full: { status: 200, type: 'text/html' } },
    { id: 'browser-versions', what: 'a browser opening the versions', path: `${LIST}/MA0139/versions/`, headers: browser, needs: ['accept-html'], expect: { status: 200, file: `${LIST}/MA0139/versions/index.html` } },
    { id: 'browser-base', what: 'a browser opening a base id', path: `${LIST}/MA0139/`, headers: browser, needs: ['accept-html'], expect: { status: 200, file: `${LIST}/MA0139/index.html` } },
    { id: 'program-json', what: 'a program (Accept: application/json) still gets JSON', path: `${LIST}/MA0139.1/`, headers: { accept: 'application/json' }, needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'browser-404', what: 'a browser\'s 404 is the page for people (404)', path: '/nope/', headers: browser, needs: ['accept-html'], expect: { status: 404, file: '/404/index.html' } },
    { id: 'browser-404-api', what: 'a browser\'s 404 under the API (an unknown matrix) is the page for people', path: `${LIST}/MA9999.9/`, headers: browser, needs: ['accept-html', 'missing-404'], expect: { status: 404, file: '/404/index.html' } },
    { id: 'program-404', what: 'a program\'s 404 stays {"detail":"Not found."}', path: '/nope/', needs: [], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'api-folder', what: '/api/: 404 "Not found.", never the server\'s 403 page', path: '/api/', needs: [], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'sites-folder', what: '/api/v1/sites/: 404 "Not found.", never the server\'s 403 page', path: '/api/v1/sites/', needs: [], expect: { status: 404, detail: NOT_FOUND } },
  ];
}

export type HostName = 'node' | 'nginx+node' | 'caddy+node' | 'apache+node' | 'netlify' | 'nginx' | 'caddy' | 'apache' | 'http-server';

/** Hosts that answer with the edge handler (the Node server, alone or behind a server: --with-node): a case's `full` applies. */
export const FULL_API_HOSTS: ReadonlySet<HostName> = new Set(['node', 'nginx+node', 'caddy+node', 'apache+node']);
/** Servers whose own rules answer before the Node server behind them (their 404s and 501s go to it): a case's `behind` applies. Apache passes every API query to it first. */
export const RULES_FIRST: ReadonlySet<HostName> = new Set(['nginx+node', 'caddy+node']);

/** What each host lacks, and why (documented or tested behaviour of the host, not a test result). */
export const LACKS: Record<HostName, Partial<Record<Ability, string>>> = {
  node: {},
  'nginx+node': {},
  'caddy+node': {},
  'apache+node': {},
  nginx: {},
  caddy: {},
  apache: {},
  netlify: {
    suffix: 'a _redirects placeholder takes a whole path segment: MA0139.1.jaspar cannot be split into id and format',
    accept: '_redirects conditions are Country, Language, Role and Cookie only; no Accept header',
    'api-types': 'netlify dev keeps the file extension\'s type (text/plain, text/yaml); production Netlify sends the _headers types',
    'missing-404': 'netlify dev answers a rewrite to a missing file with status 200 and the 404 body; production Netlify sends 404',
    'invalid-page': 'pages are a placeholder in the rules (page=:page → …/page/:page/…): a page with no file answers the site\'s /404.html, "Not found."; "Invalid page." needs a literal rule per page and format (5,300 for JASPAR 2024, 52,000 for a release ten times larger; Netlify advises under 1,000). The edge function answers it',
    'unrendered-501': 'page sizes and the text formats are placeholders in the rules (page_size=:size, format=:format → index.:format.txt), so a page size or a format at a page size with no file answers "Not found."; a 501 saying why needs a rule per page size and format (thousands of rules). The edge function answers it',
    'double-slash-list': 'netlify dev matches a double slash only by placeholder rules; the unfiltered list\'s rules are literal',
    releases: 'one rule answers a request (no chaining): release=2026 would need every rule again under /releases/2026/ (twice the 1,000 Netlify advises); it answers 501 naming the 2026 path URLs. The edge function answers it',
    methods: 'no method rules in _redirects or _headers: netlify dev answers other methods 200 with the text "Method Not Allowed" and OPTIONS without Allow. The edge function answers them (405, Allow; test/edge/hostile.test.ts)',
    'accept-html': '_redirects conditions have no Accept header: a folder URL answers what its rule names. The edge function answers Accept',
    'no-match': 'filter values are placeholders in the rules (collection=:value → …/collection/:value/…): a value the release does not hold answers the site\'s /404.html ("Not found."); the empty list needs to know every value that is not held. The edge function answers it',
    'control-chars': 'a _redirects placeholder takes %00 as a matrix id and rewrites to a file that does not exist, which netlify dev answers with status 200 (missing-404 above). The edge function answers 404',
    'malformed-escape': 'netlify dev (netlify-cli 26.2.0, and the newest source read, src/utils/rules-proxy.ts) calls decodeURIComponent on the path unguarded in its rules proxy: a malformed escape throws URIError and the process dies, answering nothing after. Production Netlify is another engine',
  },
  'http-server': {
    query: 'ignores query strings: answers the folder\'s index.html (whose script moves a browser to the file)',
    'folder-json': 'answers a folder with its index.html (the page for people), not its JSON',
    suffix: 'a static server has no file named MA0139.1.jaspar',
    accept: 'ignores the Accept header',
    'api-types': 'types by the last extension: .txt is text/plain, .yaml text/yaml; no way to set headers',
    cors: 'sends no CORS header unless started with --cors (not what a plain static server does)',
    'security-headers': 'cannot add headers',
    methods: 'http-server 14 answers other methods and OPTIONS 405 without Allow; no way to set headers',
    'accept-html': 'ignores the Accept header',
    'control-chars': 'http-server 14.1.1 answers 500 to a path with %00 (the file system call refuses a null byte and it reports that as a server error)',
  },
};

export function unsupported(host: HostName, c: Case): string | undefined {
  for (const ability of c.needs) {
    const reason = LACKS[host][ability];
    if (reason) return `${ability}: ${reason}`;
  }
  return undefined;
}
