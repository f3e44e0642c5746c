// The grid of requests the handler is checked on against the DRF oracle, and
// the comparison. Request shapes: every parameter alone, pairs, odd values,
// Accept headers, format suffixes, case variants, page sizes from 1 to 1000
// (and above), out-of-range pages, repeated parameters, HEAD and OPTIONS,
// JSONP callbacks, the matrix and versions endpoints.
//
// Each answer is one of:
//  - same: status, media type and body equal, host names aside (the
//    oracle's origin stands for the build's base URL; the MEME URL line
//    names each one's host);
//  - by design: a difference the project chose and documents, each with its
//    reason (DESIGN below); the handler's answer still holds the oracle's data;
//  - refused: the handler answers a JSON error saying why (400/501, or an
//    unknown release) where the oracle answers something else;
//  - different: anything else. Must be 0.

export interface GridRequest {
  /** Path and query, e.g. "/api/v1/matrix/?search=sox". */
  target: string;
  method?: 'GET' | 'HEAD' | 'OPTIONS';
  accept?: string;
  /** The oracle knows class/family/type only: ask it this target instead (the real service's tf_class, tf_family, data_type). */
  oracleTarget?: string;
}

const L = '/api/v1/matrix/';
const q = (params: string) => `${L}?${params}`;

/** Filter values worth trying, by parameter: canonical, case variants, odd ones. */
const VALUES: Record<string, string[]> = {
  search: ['sox', 'SOX', 'Sox2', 'MA0139', 'ma01', 'core', 'UNVAL', 'zzzz', '%25', '_', '::', 'ahr%3A%3Aarnt', 'a+b', '.', 'hox'],
  name: ['CTCF', 'ctcf', 'Ahr::Arnt', 'AHR::ARNT', 'sox2', 'nothing', 'ABF1'],
  collection: ['CORE', 'core', 'Core', 'UNVALIDATED', 'unvalidated', 'CNE', 'x'],
  tax_group: ['vertebrates', 'Vertebrates', 'PLANTS', 'plants', 'insects', 'fungi', 'nematodes', 'urochordates', 'diatoms', 'trematodes', 'cnidaria', 'x'],
  tax_id: ['9606', '10090', '9606,10090', '3702', '7227,6239', '0', '9606,', '+9606', '%209606'],
  class: ['zinc', 'Zipper', 'homeo', 'C2H2', 'basic helix-loop-helix factors (bHLH)', 'xyz'],
  family: ['homeo', 'SOX', 'Forkhead', 'ets', 'xyz'],
  type: ['SELEX', 'chip-seq', 'ChIP', 'PBM', 'HT-SELEX', 'xyz'],
  tf_class: ['Zipper-Type', 'zinc'],
  tf_family: ['Forkhead', 'sox'],
  data_type: ['ChIP-seq', 'selex'],
  version: ['latest', 'LATEST', '1', '2', ''],
  order: ['name', '-name', 'collection', '-collection', 'base_id', '-base_id', 'version', '-version', '-version,name', 'name,-version', 'matrix_id', 'bogus', '', 'collection,-base_id', '%20-version%20,%20name'],
  release: ['2024', '', '2026', '2020'],
  page_size: ['1', '2', '5', '20', '200', '600', '800', '1000', '1001', '1300', '10000', '0', '-1', 'abc', '1.5', '%2020', '1_0', '+7'],
  page: ['2', '3', 'last', '0', '-1', '1.0', 'abc', '%2B3', '%202', '9999', ''],
  format: ['json', 'JSON', 'yaml', 'api', 'jsonp', 'xml', ''],
};

const FORMATS = ['json', 'jsonp', 'jaspar', 'meme', 'transfac', 'pfm', 'yaml', 'bed', 'api'];

export function grid(): GridRequest[] {
  const out: GridRequest[] = [];
  const add = (target: string, extra: Omit<GridRequest, 'target'> = {}) => out.push({ target, ...extra });
  const aliasTarget = (t: string) => t.replace(/([?&])tf_class=/g, '$1class=').replace(/([?&])tf_family=/g, '$1family=').replace(/([?&])data_type=/g, '$1type=');

  // Every parameter alone (JSON, the default format, 5 a page so bodies stay small).
  for (const [key, values] of Object.entries(VALUES)) {
    for (const v of values) {
      const target = key === 'page_size' || key === 'page' ? q(`${key}=${v}`) : q(`${key}=${v}&page_size=5`);
      add(target, key.startsWith('tf_') || key === 'data_type' ? { oracleTarget: aliasTarget(target) } : {});
    }
  }
  // Pairs of filters, at 100 a page, first and last page.
  const pairKeys = ['search', 'name', 'collection', 'tax_group', 'tax_id', 'class', 'family', 'type', 'version', 'order'];
  const pairValues: Record<string, string[]> = {
    search: ['sox', 'MA0'], name: ['CTCF', 'ahr::arnt'], collection: ['CORE', 'unvalidated'], tax_group: ['vertebrates', 'Plants'],
    tax_id: ['9606', '10090,9606'], class: ['zinc'], family: ['homeo'], type: ['ChIP-seq'], version: ['latest'], order: ['-version', 'collection,-name'],
  };
  for (let i = 0; i < pairKeys.length; i++) {
    for (let j = i + 1; j < pairKeys.length; j++) {
      for (const a of pairValues[pairKeys[i]]) {
        for (const b of pairValues[pairKeys[j]]) {
          add(q(`${pairKeys[i]}=${a}&${pairKeys[j]}=${b}&page_size=100`));
          add(q(`${pairKeys[j]}=${b}&${pairKeys[i]}=${a}&page_size=100&page=last`));
        }
      }
    }
  }
  // The example: 875 plants matrices among the latest versions, as the service counts them.
  add(q('tax_group=plants&version=latest'));
  add(q('tax_group=plants&version=latest&page_size=1000&page=1'));
  add(q('collection=CORE&tax_group=vertebrates&version=latest&page_size=250&page=3'));
  add(q('tax_id=9606&collection=CORE&version=latest&page_size=50&page=2'));
  // Three or more filters.
  add(q('search=sox&collection=core&tax_group=vertebrates&version=latest&order=-name&page_size=7&page=2'));
  add(q('class=zinc&family=C2H2&tax_id=9606,10090&type=ChIP-seq&page_size=20&page=last'));

  // Page sizes from 1 to 1000, sampled, each at its first, second and last page and one past the end.
  for (const size of [1, 2, 3, 7, 13, 20, 33, 64, 99, 128, 200, 256, 333, 500, 600, 777, 800, 999, 1000]) {
    const pages = Math.ceil(5278 / size);
    for (const page of [1, 2, pages, pages + 1]) add(q(`page_size=${size}&page=${page}`));
  }
  for (const size of [3, 17, 600]) add(q(`tax_group=insects&page_size=${size}&page=last`));
  // Out-of-range pages of filtered lists.
  for (const page of ['0', '2', '99', 'last', 'x']) add(q(`name=CTCF&page=${page}`));
  add(q('search=zzzz&page=2'));
  add(q('search=zzzz&page=1'));

  // Every format on lists (filtered, searched, pre-rendered and not) and on a matrix and a base id's versions.
  const formatLists = ['search=sox&page_size=3', 'tax_group=fungi&version=latest&page=2', 'page=3', 'collection=CORE&tax_group=nematodes&page_size=5', 'name=ABF1', 'search=zzzz'];
  for (const format of FORMATS) {
    for (const list of formatLists) add(q(`${list}&format=${format}`));
    add(`${L}MA0139.1/?format=${format}`);
    add(`${L}MA0139/versions/?format=${format}`);
  }
  // The pre-rendered pages themselves, by their own query URL (served as files).
  for (const format of FORMATS) for (const page of [1, 2, 3, 528]) add(`/api/v1/matrix?format=${format}&page=${page}`);
  add('/api/v1/matrix?format=json&page=3&page_size=25');
  add('/api/v1/matrix?collection=CORE&format=json&page=3&tax_group=vertebrates&version=latest');
  add('/api/v1/matrix?format=yaml&page=2&page_size=1000');
  // Pre-rendered views whose files keep the whole release's latest versions (the service filters first).
  add('/api/v1/matrix?format=json&page=1&tax_group=plants&version=latest');
  add('/api/v1/matrix?format=json&page=2&page_size=50&tax_id=9606&version=latest');
  add('/api/v1/matrix?format=json&page=3&tax_id=10090&version=latest');
  // The matrices of a collection, a taxonomic group, a species (the oracle has no such endpoints: compared with its filtered list, links aside).
  for (const [path, filter, query, accept] of [
    ['/api/v1/collections/CORE/', 'collection=CORE', 'page_size=5&page=2&search=sox', undefined],
    ['/api/v1/collections/UNVALIDATED/', 'collection=UNVALIDATED', 'page_size=1000&release=2024', undefined],
    ['/api/v1/taxon/plants/', 'tax_group=plants', 'version=latest&page_size=100&page=last', undefined],
    ['/api/v1/taxon/vertebrates/', 'tax_group=vertebrates', 'page_size=3&order=-version', 'text/meme'],
    ['/api/v1/species/9606/', 'tax_id=9606', 'order=-version&page_size=20&version=latest', undefined],
    ['/api/v1/species/10090/', 'tax_id=10090', 'page_size=2&format=transfac', undefined],
  ] as const) {
    add(`${path}?${query}`, { oracleTarget: `${L}?${filter}&${query}`, ...(accept ? { accept } : {}) });
  }
  // Errors in every format.
  for (const format of FORMATS) {
    add(q(`format=${format}&page=9999`));
    add(`${L}MA9999.1/?format=${format}`);
  }

  // Accept headers, with and without format=, on the list, a matrix and its versions.
  const accepts = [
    'text/meme', 'text/jaspar', 'text/transfac', 'text/pfm', 'application/yaml', 'application/json', 'application/javascript', 'text/bed',
    'text/html', 'text/*', 'application/*', '*/*', 'image/png', 'application/json, text/html', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'TEXT/MEME', 'text/meme;q=0.5', 'application/xml', 'text/plain',
  ];
  for (const accept of accepts) {
    add(q('search=ctcf&page_size=2'), { accept });
    add(`${L}MA0139.1/`, { accept });
    add(`${L}MA0139/versions/`, { accept });
  }
  for (const [format, accept] of [['json', 'text/html'], ['jaspar', 'application/json'], ['meme', 'text/meme'], ['yaml', '*/*'], ['api', 'text/html'], ['json', 'text/*']]) {
    add(q(`format=${format}&search=ctcf&page_size=2`), { accept });
  }

  // Format suffixes.
  for (const format of FORMATS) {
    add(`/api/v1/matrix.${format}?page_size=2&search=gata`);
    add(`${L}MA0139.1.${format}`);
    add(`${L}MA0139/versions.${format}`);
  }
  add('/api/v1/matrix/.jaspar?page_size=1');
  add('/api/v1/matrix.json/?page_size=1');
  add(`${L}MA0139.1.jaspar?format=json`);
  add(`${L}MA0139.1.JSON`);
  add(`${L}MA0139.json`);

  // Matrices and base ids that do not exist; a version with a leading zero.
  add(`${L}MA9999.1/`);
  add(`${L}MA0139/`);
  add(`${L}MA0139.01/`);
  add(`${L}MA0139.1`);
  add(`${L}MA0139.1?format=jaspar`);
  add(`${L}MA0139.1/?format=xml`);

  // Case variants of keys and values, repeated parameters, unknown parameters, links without a trailing slash.
  add(q('Search=sox&page_size=2'));
  add(q('FORMAT=yaml&page_size=2'));
  add(q('format=json&format=yaml&page_size=2'));
  add(q('page=1&page=2&page_size=2'));
  add(q('search=sox&search=gata&page_size=2'));
  add(q('foo=bar&page_size=2&page=2&x&z=%C3%A9+%F0%9F%A7%AC'));
  add('/api/v1/matrix?search=sox&page=2&page_size=4');
  add('/api/v1/matrix?page=2');

  // JSONP callbacks.
  for (const cb of ['cb', 'jQuery_123', 'app.handlers.cb', '$', 'callback', 'alert(1)//', '', '1abc', 'a-b']) {
    add(q(`format=jsonp&page_size=2&page=2&callback=${encodeURIComponent(cb)}`));
    add(`${L}MA0004.1/?format=jsonp&callback=${encodeURIComponent(cb)}`);
  }

  // HEAD and OPTIONS.
  for (const target of [q('search=sox'), `${L}MA0139.1/`, `${L}MA0139/versions/`, q('page_size=3&format=jaspar')]) {
    add(target, { method: 'HEAD' });
    add(target, { method: 'OPTIONS' });
  }
  add(q('format=yaml'), { method: 'OPTIONS' });
  add(q('format=jsonp&callback=cb'), { method: 'OPTIONS' });

  // Random combinations (a fixed seed: the same grid every run) of two to four parameters, a page size, a page and a format.
  let seed = 20241;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const keys = ['search', 'name', 'collection', 'tax_group', 'tax_id', 'class', 'family', 'type', 'version', 'order'];
  for (let i = 0; i < RANDOM_COMBINATIONS; i++) {
    const chosen = new Set<string>();
    const wanted = 2 + random(3);
    while (chosen.size < wanted) chosen.add(keys[random(keys.length)]);
    // Values the service fails on (tax_id=9606,) are checked alone above.
    const params = [...chosen].map((k) => VALUES[k].filter((v) => v !== '9606,')).map((values, j) => `${[...chosen][j]}=${values[random(values.length)]}`);
    params.push(`page_size=${[1, 3, 10, 25, 99, 250][random(6)]}`);
    if (random(3) === 0) params.push(`page=${['2', 'last', '3'][random(3)]}`);
    const format = ['json', 'json', 'yaml', 'jsonp', 'jaspar', 'meme', 'transfac', 'pfm'][random(8)];
    if (random(4) === 0) add(q(params.join('&')), { accept: FORMAT_TYPES[format] });
    else add(q([...params, `format=${format}`].join('&')));
  }
  return out;
}

const RANDOM_COMBINATIONS = 300;
const FORMAT_TYPES: Record<string, string> = {
  json: 'application/json', yaml: 'application/yaml', jsonp: 'application/javascript', jaspar: 'text/jaspar', meme: 'text/meme', transfac: 'text/transfac', pfm: 'text/pfm',
};

/** Why an answer differs by design, recognised from the two answers. */
export const DESIGN = {
  otherRelease: 'release=2026: the mirror answers from its JASPAR 2026 site (CORE, its bodies linking within /releases/2026/); the oracle holds JASPAR 2024 only and ignores release=',
  textError: 'an error in a text or YAML format: the service fails to render its error (500 HTML); the mirror answers the JSON error',
  emptyText: 'an empty list in a text format: the service writes "No PFM data available"; the mirror renders the empty list as its static files do',
  bedLayout: 'BED of several matrices: the mirror marks each matrix with a "#" line and pads BED4 lines to six columns (generator/formats/bed.ts); same sites',
  bedType: 'BED media type: the service guesses text/bed, the mirror sends text/plain as its static files do',
  apiPage: 'format=api: the mirror\'s own page for people; the JSON it shows is the service\'s',
  versionsShape: 'versions: the oracle guesses the 2018 shape (integer version, url without slash); the mirror\'s static files carry list items',
  versionsUnknown: 'versions of an unknown base id: the oracle guesses 200 with an empty list; the mirror\'s static files answer 404',
  baseId: 'a base id without a version: the service\'s split_id finds no version (404); the mirror answers the latest version, the file its build writes there, as every host serves it',
  noSlash: 'a matrix URL without its trailing slash: the service redirects (301) to the URL with the slash; the mirror\'s static files answer it (the matrix, or 404 where the slashed URL is 404 too)',
  apiError: 'an error asked as format=api: the service shows it on its browsable page (404); the mirror answers the JSON error (404)',
  optionsText: 'OPTIONS in a text format: the service fails to render its metadata (500 HTML); the mirror answers the metadata as JSON',
  pageOneLink: 'page 2: the service drops page=1 from the link to page 1; the mirror keeps it, as its pre-rendered files and the list contract write it',
  notFoundPage: '"Not found." asked as the page for people (format=api, a browser\'s Accept): the service shows the error on its browsable page; the mirror answers its 404 page for people (as nginx, Caddy and Apache do)',
  specLinks: 'a page of a pre-rendered list view: the mirror answers its file, as every host serves it, whose next and previous are in the list contract\'s form ({base}/api/v1/matrix?format=F&page=N, keys sorted); the service builds them from the request (its path\'s slash, its parameters\' order, unknown ones kept)',
} as const;

/** The next and previous links' values put aside (JSON, JSONP or YAML): a body compared with another but for those. */
export function linksAside(text: string): string {
  return text.replace(/"(next|previous)":(null|"[^"]*")/g, '"$1":_').replace(/^(next|previous): .*$/gm, '$1: _');
}

/** The mirror's list links are the contract's (the list's path without its slash), and the bodies differ only in their links. */
const specLinks = (mirror: string, oracle: string) =>
  !/"(?:next|previous)":"[^"]*\/api\/v1\/matrix\/\?|^(?:next|previous): \S*\/api\/v1\/matrix\/\?/m.test(mirror) && linksAside(mirror) === linksAside(oracle);

/** The link to page 1 as the service writes it: without page=1. */
const servicePageOne = (body: string) => body.replace(/([?&])page=1(&|(?=["'\s<]|$))/gm, (_, before: string, after: string) => (after === '&' ? before : ''));
export type Verdict = { kind: 'same' } | { kind: 'design'; reason: keyof typeof DESIGN } | { kind: 'refused'; reason: string } | { kind: 'different'; why: string };

export interface Answer {
  status: number;
  type: string;
  body: string;
  length?: string | null;
}

/** The oracle's answer with its origin replaced by the build's base URL (and its MEME URL lines by the mirror's). */
export function normaliseOracle(body: string, oracleOrigin: string, base: string): string {
  return body
    .replace(new RegExp(`^URL ${escapeRegExp(oracleOrigin)}/matrix/`, 'gm'), 'URL http://jaspar.genereg.net/matrix/')
    .split(`${oracleOrigin}/`).join(`${base}/`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TEXT_TYPES = ['text/jaspar', 'text/meme', 'text/transfac', 'text/pfm', 'application/yaml', 'text/bed'];

export function compare(request: GridRequest, mirror: Answer, oracle: Answer): Verdict {
  const target = request.target;
  if ((mirror.status === 400 || mirror.status === 501) || (mirror.status === 404 && mirror.body.includes('is not available: this mirror serves'))) {
    return { kind: 'refused', reason: JSON.parse(mirror.body).detail as string };
  }
  // Another release the site holds: its own answer, which the oracle (one release) cannot give.
  if (/[?&]release=2026(&|$)/.test(target) && mirror.status === 200) return { kind: 'design', reason: 'otherRelease' };
  if (oracle.status === 500 && mirror.status === 404 && mirror.type === 'application/json') return { kind: 'design', reason: 'textError' };
  if (oracle.status === 404 && oracle.type === 'text/html' && mirror.status === 404 && mirror.type === 'application/json' && shownJson(oracle.body) === mirror.body) return { kind: 'design', reason: 'apiError' };
  if (oracle.status === 500 && request.method === 'OPTIONS' && mirror.status === 200 && mirror.body.startsWith('{"name":')) return { kind: 'design', reason: 'optionsText' };
  if (oracle.status === 301 && /^\/api\/v1\/matrix\/[^/?]+(\?|$)/.test(target)) return { kind: 'design', reason: 'noSlash' };
  const baseId = /^\/api\/v1\/matrix\/([A-Z]{2}[0-9]{4})(\.[a-z]+)?\/?(\?|$)/.exec(target);
  if (baseId && oracle.status === 404 && mirror.status === 200 && mirror.body.includes(`${baseId[1]}.`)) return { kind: 'design', reason: 'baseId' };
  if (/\/versions(\/|\.)/.test(target)) {
    if (oracle.status === 200 && mirror.status === 404 && oracle.body.includes('"count":0')) return { kind: 'design', reason: 'versionsUnknown' };
    if (oracle.status === mirror.status && oracle.status === 200 && request.method !== 'OPTIONS') return versions(mirror, oracle);
  }
  if (mirror.status !== oracle.status) return { kind: 'different', why: `status ${mirror.status}, oracle ${oracle.status}` };
  if (request.method === 'HEAD') {
    if (mirror.body !== '' || mirror.length !== oracle.length) return { kind: 'different', why: `HEAD length ${mirror.length}, oracle ${oracle.length}` };
    return mirror.type === oracle.type || (oracle.type === 'text/bed' && mirror.type === 'text/plain') ? { kind: 'same' } : { kind: 'different', why: `type ${mirror.type}, oracle ${oracle.type}` };
  }
  if (oracle.type === 'text/html' && mirror.type === 'text/html') {
    if (mirror.status === 404 && mirror.body.includes('<h1>Page not found</h1>') && shownJson(oracle.body)?.includes('"Not found."')) return { kind: 'design', reason: 'notFoundPage' };
    const a = shownJson(mirror.body);
    const b = shownJson(oracle.body);
    if (a !== null && a === b) return { kind: 'design', reason: 'apiPage' };
    if (a !== null && b !== null && servicePageOne(a) === b) return { kind: 'design', reason: 'pageOneLink' };
    return a !== null && b !== null && specLinks(a, b) ? { kind: 'design', reason: 'specLinks' } : { kind: 'different', why: `api page JSON:\n${a?.slice(0, 300)}\n${b?.slice(0, 300)}` };
  }
  if (oracle.type === 'text/bed') {
    if (mirror.type !== 'text/plain') return { kind: 'different', why: `type ${mirror.type}, oracle text/bed` };
    if (mirror.body === oracle.body) return { kind: 'design', reason: 'bedType' };
    return bedLines(mirror.body) === bedLines(oracle.body) ? { kind: 'design', reason: 'bedLayout' } : { kind: 'different', why: 'BED sites differ' };
  }
  if (mirror.type !== oracle.type) return { kind: 'different', why: `type ${mirror.type}, oracle ${oracle.type}` };
  if (mirror.body === oracle.body) return { kind: 'same' };
  if (mirror.status === 200 && servicePageOne(mirror.body) === oracle.body) return { kind: 'design', reason: 'pageOneLink' };
  if (mirror.status === 200 && /^\/api\/v1\/matrix\/?\?/.test(target) && specLinks(mirror.body, oracle.body)) return { kind: 'design', reason: 'specLinks' };
  if (TEXT_TYPES.includes(oracle.type) && oracle.body === 'No PFM data available' && /^(MEME version 4[^]*)?$/.test(mirror.body)) return { kind: 'design', reason: 'emptyText' };
  return { kind: 'different', why: firstDifference(mirror.body, oracle.body) };
}

/** The versions body: the same matrices in the same order (the shapes differ by design). */
function versions(mirror: Answer, oracle: Answer): Verdict {
  const ids = (body: string) => [...body.matchAll(/(MA|UN)[0-9]{4}\.[0-9]+/g)].map((m) => m[0]).join(' ');
  if (mirror.type !== oracle.type && !(oracle.type === 'text/bed' && mirror.type === 'text/plain')) return { kind: 'different', why: `type ${mirror.type}, oracle ${oracle.type}` };
  if (mirror.body === oracle.body) return { kind: 'same' };
  if (oracle.type === 'text/bed') return bedLines(mirror.body) === bedLines(oracle.body) ? { kind: 'design', reason: 'bedLayout' } : { kind: 'different', why: 'BED sites differ' };
  const shown = (a: Answer) => (a.type === 'text/html' ? shownJson(a.body) ?? '' : a.body);
  if (['application/json', 'application/javascript', 'application/yaml', 'text/html'].includes(oracle.type) && ids(shown(mirror)) === ids(shown(oracle))) return { kind: 'design', reason: 'versionsShape' };
  return { kind: 'different', why: firstDifference(mirror.body, oracle.body) };
}

/** The JSON a page for people shows (DRF's and the mirror's), parsed and printed again; null when none. */
export function shownJson(html: string): string | null {
  for (const pre of html.matchAll(/<pre class="(?:prettyprint|response-body)"[^>]*>([^]*?)<\/pre>/g)) {
    const text = pre[1].replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&amp;/g, '&');
    const start = text.search(/^[{[]/m);
    if (start < 0) continue;
    try {
      return JSON.stringify(JSON.parse(text.slice(start)));
    } catch {
      return null;
    }
  }
  return null;
}

/** BED lines without comments and without the "." columns padding BED4 lines to six. */
function bedLines(body: string): string {
  return body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.replace(/(\t\.)+$/, '')).join('\n');
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: mirror …${JSON.stringify(a.slice(Math.max(0, i - 60), i + 80))}, oracle …${JSON.stringify(b.slice(Math.max(0, i - 60), i + 80))}`;
}

const mediaType = (h: Headers) => (h.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

/** The handler's answer, in process. */
export async function askMirror(handle: (request: Request) => Promise<Response>, base: string, r: GridRequest): Promise<Answer> {
  const headers: Record<string, string> = r.accept ? { Accept: r.accept } : {};
  const response = await handle(new Request(`${base}${r.target}`, { method: r.method ?? 'GET', headers }));
  return { status: response.status, type: mediaType(response.headers), body: await response.text(), length: response.headers.get('content-length') };
}

/** The oracle's answer, host names replaced; for HEAD the length its GET body has with the build's host. */
export async function askOracle(origin: string, base: string, r: GridRequest): Promise<Answer> {
  const headers: Record<string, string> = r.accept ? { Accept: r.accept } : {};
  const target = `${origin}${r.oracleTarget ?? r.target}`;
  const response = await fetch(target, { method: r.method ?? 'GET', headers, redirect: 'manual' });
  const body = normaliseOracle(await response.text(), origin, base);
  let length = response.headers.get('content-length');
  if (r.method === 'HEAD') {
    const get = await fetch(target, { headers, redirect: 'manual' });
    length = String(Buffer.byteLength(normaliseOracle(await get.text(), origin, base)));
  }
  return { status: response.status, type: mediaType(response.headers), body, length };
}

/** compare(), and for a request the oracle was asked under its own parameter names, the same data with the links aside. */
export function judge(r: GridRequest, mirror: Answer, oracle: Answer): Verdict {
  const verdict = compare(r, mirror, oracle);
  if (r.oracleTarget && verdict.kind === 'different' && mirror.status === 200) {
    const strip = (b: string) => b.replace(/"(next|previous)":("[^"]*"|null)/g, '');
    if (strip(mirror.body) === strip(oracle.body)) return { kind: 'same' };
  }
  return verdict;
}
