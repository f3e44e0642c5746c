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
  | 'double-slash-list'; // a list query URL with a double slash

export interface Expect {
  status: number;
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
  needs: Ability[];
  expect: Expect;
  /** What a host with the whole API (the Node server: the edge handler) answers instead, where the service's answer is not the file's (default: expect). */
  full?: FullExpect;
  /** What nginx or Caddy with the Node server behind answer, where their own rules answer before it (default: full). */
  behind?: FullExpect;
}

/**
 * An expectation for the whole API; linksAside: the body is the file's but
 * for the values of next and previous, which the service writes from the
 * request (its parameters as asked, page dropped from the link to page 1;
 * edge/README.md) where the file has the static mirror's links.
 */
export type FullExpect = Expect & { linksAside?: true };

/** Facts of the built site the cases depend on (read from the site, not assumed). */
export interface SiteFacts {
  /** Pages of the unfiltered list at page_size 10. */
  lastPage: number;
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
    { id: 'list-default', what: 'the list without parameters: page 1 in JSON', path: `${LIST}/`, needs: ['query'], expect: { status: 200, file: page(1), type: 'application/json' }, full: { status: 200, file: page(1), type: 'application/json', linksAside: true } },
    { id: 'list-no-slash', what: 'no trailing slash, format and page', path: `${LIST}?format=json&page=2`, needs: ['query'], expect: { status: 200, file: page(2) }, full: { status: 200, file: page(2), linksAside: true } },
    { id: 'list-any-order-extra', what: 'parameters in any order, an unknown one ignored', path: `${LIST}/?page=3&foo=bar&format=jaspar`, needs: ['query'], expect: { status: 200, file: page(3, 'index.jaspar.txt') } },
    { id: 'list-type', what: 'a text format with the real Content-Type', path: `${LIST}/?format=transfac&page=2`, needs: ['query', 'api-types'], expect: { status: 200, file: page(2, 'index.transfac.txt'), contentType: 'text/transfac; charset=utf-8' } },
    { id: 'list-yaml-type', what: 'YAML with the real Content-Type', path: `${LIST}/?format=yaml`, needs: ['query', 'api-types'], expect: { status: 200, file: page(1, 'index.yaml'), contentType: 'application/yaml; charset=utf-8' }, full: { status: 200, file: page(1, 'index.yaml'), contentType: 'application/yaml; charset=utf-8', linksAside: true } },
    { id: 'list-page-last', what: 'page=last', path: `${LIST}/?format=yaml&page=last`, needs: ['query'], expect: { status: 200, file: page(site.lastPage, 'index.yaml') }, full: { status: 200, file: page(site.lastPage, 'index.yaml'), linksAside: true } },
    { id: 'list-past-end', what: 'a page past the end: 404 "Invalid page."', path: `${LIST}/?page=99999`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'list-page-not-number', what: 'a page that is not a number: 404 "Invalid page."', path: `${LIST}/?page=abc&format=json`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'list-unknown-format', what: 'an unknown format: 404 "Not found."', path: `${LIST}/?format=xml`, needs: ['query'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'list-double-slash', what: 'a double slash in a list query URL', path: '/api/v1//matrix/?format=json&page=2', needs: ['query', 'double-slash-list'], expect: { status: 200, file: page(2) }, full: { status: 200, file: page(2), linksAside: true } },
    { id: 'filters-bundle', what: 'collection + tax_group + version, page_size 1000, MEME (JASPAR\'s bundles)', path: `${LIST}/?collection=CORE&tax_group=vertebrates&version=latest&page_size=1000&format=meme`, needs: ['query'], expect: { status: 200, file: page(1, 'index.meme.txt', 'collection/CORE/tax_group/vertebrates/version/latest/page_size/1000/') } },
    { id: 'filters-any-order', what: 'filters in any order', path: `${LIST}?version=latest&format=json&tax_group=plants&collection=CORE`, needs: ['query'], expect: { status: 200, file: page(1, 'index.json', 'collection/CORE/tax_group/plants/version/latest/') } },
    { id: 'filters-species', what: 'tax_id, page 2', path: `${LIST}/?tax_id=9606&page=2`, needs: ['query'], expect: { status: 200, file: page(2, 'index.json', 'tax_id/9606/') }, full: { status: 200, file: page(2, 'index.json', 'tax_id/9606/'), linksAside: true } },
    { id: 'release-mirrored', what: 'release=2024 (the mirrored release)', path: `${LIST}/?release=2024&page=2`, needs: ['query'], expect: { status: 200, file: page(2) }, full: { status: 200, file: page(2), linksAside: true } },
    { id: 'filters-unknown-value', what: 'a filter value the release does not hold: 404 "Not found."', path: `${LIST}/?collection=nope`, needs: ['query', 'missing-404'], expect: { status: 404, detail: NOT_FOUND }, full: { status: 200, type: 'application/json', json: { count: 0, results: [] } } },
    { id: 'filters-past-end', what: 'past the end of a filtered list: 404 "Invalid page."', path: `${LIST}/?collection=CORE&page=9999`, needs: ['query', 'invalid-page', 'missing-404'], expect: { status: 404, detail: INVALID_PAGE } },
    { id: 'page-size-over', what: 'page_size above 1000: 301 to page_size=1000, other parameters kept', path: `${LIST}/?page_size=5000&format=json`, needs: ['query'], expect: { status: 301, location: { path: `${LIST}/`, query: { page_size: '1000', format: 'json' } } }, full: { status: 200, type: 'application/json', results: 1000 }, behind: { status: 301, location: { path: `${LIST}/`, query: { page_size: '1000', format: 'json' } } } },
    { id: 'page-size-other', what: 'a page size not pre-rendered: 501', path: `${LIST}/?page_size=37`, needs: ['query', 'unrendered-501'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this page_size' }, full: { status: 200, type: 'application/json', results: 37 } },
    { id: 'format-page-size', what: 'a format not pre-rendered at that page size: 501', path: `${LIST}/?page_size=25&format=meme`, needs: ['query', 'unrendered-501'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this format at this page_size' }, full: { status: 200, contentType: 'text/meme; charset=utf-8' } },
    { id: 'unsupported-param', what: 'search=: 501 with the reason', path: `${LIST}/?search=CTCF`, needs: ['query'], expect: { status: 501, detail: 'This static mirror of the JASPAR API cannot answer the parameter "search"' }, full: { status: 200, type: 'application/json', json: { count: 11 } } },
    { id: 'unsupported-filters', what: 'tax_id with collection: 501', path: `${LIST}/?tax_id=9606&collection=CORE`, needs: ['query'], expect: { status: 501, detail: 'This static mirror has not pre-rendered this combination of filters' }, full: { status: 200, type: 'application/json', json: { count: 1518 } } },
    { id: 'unsupported-release', what: 'another release: 501', path: `${LIST}/?release=2018`, needs: ['query'], expect: { status: 501, detail: 'This static mirror serves JASPAR release' }, full: { status: 404, detail: 'Release "2018" is not available: this mirror serves JASPAR 2024' } },

    // Other list endpoints.
    { id: 'collection-page', what: '/api/v1/collections/CORE/ page 2', path: '/api/v1/collections/CORE/?page=2', needs: ['query'], expect: { status: 200, file: page(2, 'index.json', 'collection/CORE/') }, full: { status: 200, file: page(2, 'index.json', 'collection/CORE/'), linksAside: true } },
    { id: 'taxon-yaml', what: '/api/v1/taxon/plants/ in YAML', path: '/api/v1/taxon/plants/?format=yaml', needs: ['query'], expect: { status: 200, file: page(1, 'index.yaml', 'tax_group/plants/') }, full: { status: 200, file: page(1, 'index.yaml', 'tax_group/plants/'), linksAside: true } },
    { id: 'collections-index', what: '/api/v1/collections (no slash)', path: '/api/v1/collections', needs: ['query', 'folder-json'], expect: { status: 200, file: '/api/v1/collections/index.json' } },
    { id: 'api-root', what: '/api/v1/ answers JSON', path: '/api/v1/', needs: ['folder-json'], expect: { status: 200, file: '/api/v1/index.json' } },

    // One resource.
    { id: 'detail-query', what: 'a matrix with ?format=jaspar', path: `${LIST}/MA0139.1/?format=jaspar`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139.1/index.jaspar.txt` } },
    { id: 'detail-folder-json', what: 'a matrix folder without a format answers JSON', path: `${LIST}/MA0139.1/`, needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json`, type: 'application/json' } },
    { id: 'detail-no-slash', what: 'a matrix without the trailing slash', path: `${LIST}/MA0139.1`, needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'detail-double-slash', what: 'a matrix with a double slash', path: '/api/v1//matrix/MA0139.1/', needs: ['folder-json'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
    { id: 'detail-unknown', what: 'an unknown matrix: 404 "Not found."', path: `${LIST}/MA9999.9/`, needs: ['folder-json', 'missing-404'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'detail-unknown-format', what: 'a matrix in an unknown format: 404 "Not found."', path: `${LIST}/MA0139.1/?format=xml`, needs: ['query'], expect: { status: 404, detail: NOT_FOUND } },
    { id: 'base-id', what: 'a base id: its latest version', path: `${LIST}/MA0139/?format=pfm`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139/index.pfm.txt` }, full: { status: 404, detail: NOT_FOUND }, behind: { status: 200, file: `${LIST}/MA0139/index.pfm.txt` } },
    { id: 'versions', what: 'the versions of a base id in YAML', path: `${LIST}/MA0139/versions/?format=yaml`, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139/versions/index.yaml` } },
    { id: 'sites-bed', what: 'binding sites as BED', path: '/api/v1/sites/MA0014.2/?format=bed', needs: ['query'], expect: { status: 200, file: '/api/v1/sites/MA0014.2/index.bed.txt' } },
    { id: 'release', what: 'the mirrored release', path: '/api/v1/releases/2024/', needs: ['folder-json'], expect: { status: 200, file: '/api/v1/releases/2024/index.json' } },

    // Format suffixes (DRF's format_suffix_patterns on the matrix endpoints).
    { id: 'suffix-detail', what: '/api/v1/matrix/MA0139.1.jaspar', path: `${LIST}/MA0139.1.jaspar`, needs: ['suffix', 'api-types'], expect: { status: 200, file: `${LIST}/MA0139.1/index.jaspar.txt`, contentType: 'text/jaspar; charset=utf-8' } },
    { id: 'suffix-list', what: '/api/v1/matrix.json?page=2', path: `${LIST}.json?page=2`, needs: ['suffix'], expect: { status: 200, file: page(2) }, full: { status: 200, file: page(2), linksAside: true } },
    { id: 'suffix-versions', what: '/api/v1/matrix/MA0139/versions.json', path: `${LIST}/MA0139/versions.json`, needs: ['suffix'], expect: { status: 200, file: `${LIST}/MA0139/versions/index.json` } },

    // The Accept header.
    { id: 'accept-detail', what: 'Accept: text/transfac on a matrix', path: `${LIST}/MA0139.1/`, headers: { accept: 'text/transfac' }, needs: ['accept'], expect: { status: 200, file: `${LIST}/MA0139.1/index.transfac.txt` } },
    { id: 'accept-list', what: 'Accept: application/yaml on the list, page 2', path: `${LIST}/?page=2`, headers: { accept: 'application/yaml' }, needs: ['accept', 'query'], expect: { status: 200, file: page(2, 'index.yaml') }, full: { status: 200, file: page(2, 'index.yaml'), linksAside: true } },
    { id: 'accept-format-wins', what: '?format= wins over Accept', path: `${LIST}/MA0139.1/?format=json`, headers: { accept: 'text/meme' }, needs: ['query'], expect: { status: 200, file: `${LIST}/MA0139.1/index.json` }, full: { status: 406, detail: 'Could not satisfy the request Accept header.' }, behind: { status: 200, file: `${LIST}/MA0139.1/index.json` } },
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
  },
  'http-server': {
    query: 'ignores query strings: answers the folder\'s index.html (whose script moves a browser to the file)',
    'folder-json': 'answers a folder with its index.html (the page for people), not its JSON',
    suffix: 'a static server has no file named MA0139.1.jaspar',
    accept: 'ignores the Accept header',
    'api-types': 'types by the last extension: .txt is text/plain, .yaml text/yaml; no way to set headers',
    cors: 'sends no CORS header unless started with --cors (not what a plain static server does)',
    'security-headers': 'cannot add headers',
  },
};

export function unsupported(host: HostName, c: Case): string | undefined {
  for (const ability of c.needs) {
    const reason = LACKS[host][ability];
    if (reason) return `${ability}: ${reason}`;
  }
  return undefined;
}
