// Netlify routing as data, most specific first, printed to _redirects in
// the output folder (it depends on the number of list pages and the
// release's year, so it is build output, not configuration). Headers:
// hosting/headers.ts. These rules are what works without the edge function
// (netlify/edge-functions/jaspar.ts, generator/edge/), which answers every
// case below exactly when it is deployed.
//
// Host behaviour that shaped the rules (checked with `netlify dev`, see
// test/e2e/netlify-routing.test.ts and clients-netlify.test.ts):
// - A rule matches path + query; the first matching rule wins; extra query
//   parameters and their order do not matter; "/x" also matches "/x/". So
//   the data rules of a list are ordered by how many parameters they name,
//   most first: the first rule that matches a request names exactly the
//   parameters it has (every other match names fewer). Parameters or values
//   no file answers are caught by error rules before any rule with data.
// - A forced rewrite to a file that does not exist answers with the site's
//   /404.html: rules never fall through to the next one. Production Netlify
//   sends 404; netlify dev keeps the rule's status (200). Filter values,
//   pages, page sizes and ids are placeholders all the same (a literal rule
//   per value would be tens of thousands).
// - A placeholder may sit inside a file name: format=:format →
//   index.:format.txt answers every text format (jaspar, meme, transfac,
//   pfm, bed) with one rule where each needed its own.
// - Placeholders are filled in as text: with :page and :page_size in one
//   rule, /page_size/:page_size/ became /page_size/2_size/ for page=2. The
//   page size is :size, and redirectRules refuses a rule where one name
//   starts with another (placeholderClash).
// - A splat may follow a partial segment: /api/v1/matrix/MA* matches
//   /api/v1/matrix/MA0004.1 with "0004.1" as :splat. That is how sharded id
//   folders (routes/shard.ts) are reached: one set of rules per shard.
// - A redirect whose target has no query passes the request's whole query
//   on; one with a query passes nothing on: the page_size redirects name
//   every parameter they keep.
// - One rule answers a request (no chaining). Every combination of present
//   parameters (filters × page_size × page × format, on eight list
//   endpoints) needs rules of its own, so the count is kept under Netlify's
//   advice of 1,000 rules (RULE_BUDGET; scripts/count-rules.ts: 903 for
//   JASPAR 2024, 917 for the sharded release ten times larger; 4,801 and
//   4,815 before) by these choices:
//   - page sizes are a placeholder (page_size=:size → …/page_size/:size/…)
//     and the text formats one (format=:format → index.:format.txt): a page
//     size, or a format at a page size, that is not pre-rendered has no file
//     and answers "Not found.", not the 501 that said why;
//   - page=last and page_size=10 named explicitly are answered on the
//     unfiltered matrix list only (a literal rule set each);
//   - page sizes above 1000 redirect (301) on /api/v1/matrix only;
//   - release= is ignored like any unknown parameter, except the other
//     JASPAR release years (JASPAR_RELEASE_YEARS), one literal 501 rule
//     each: release=2024 no longer doubles every rule;
//   - the rules for unsupported parameters and other releases are shared by
//     the list endpoints one segment under /api/v1 (/api/v1/:endpoint).
//   A page past the end (or not a number) answers "Not found." where the
//   real service says "Invalid page." (the issue allows it): an exact answer
//   needs a literal rule per page and format, 5,300 rules for JASPAR 2024 and
//   52,000 for a release ten times larger.
//   Answers that changed (case → before → after; "Not found." is
//   {"detail":"Not found."} with 404 in production, 200 on netlify dev):
//   | case                                                     | before                         | after                        |
//   |----------------------------------------------------------|--------------------------------|------------------------------|
//   | page_size not pre-rendered (?page_size=37), any list      | 501 "has not pre-rendered this page_size" | Not found.        |
//   | format not pre-rendered at that page size or filter       | 501 "…this format at this page_size" | Not found.             |
//   |   (?page_size=25&format=meme, ?page_size=1000&format=api)  |                                |                              |
//   | format=bed on a filtered list or at another page size     | 501 "format=bed is pre-rendered for the unfiltered list…" | Not found. |
//   | page_size=10 named on a filtered or index list            | the list (as without it)       | Not found.                   |
//   |   (?collection=CORE&page_size=10, /api/v1/species/?page_size=10) |                        |                              |
//   | page_size over 1000 on /collections/<c>/, /taxon/<t>/,    | 301 to page_size=1000          | Not found.                   |
//   |   /species/<id>/ and the index lists                       |                                |                              |
//   | page_size over 1000 with release=2024 (/api/v1/matrix)    | 301, Location keeps release=2024 | 301, Location without release (same data) |
//   | release= not a JASPAR year (release=1999, release=abc)    | 501 "serves JASPAR release 2024 only" | the 2024 data (ignored) |
//   | search=, order=, … or release=<other year> on             | the file                       | 501, as on the lists         |
//   |   /api/v1/live-api/ or /api/v1/openapi.json|yaml           |                                |                              |
//   Unchanged: release=2024 and no release, every pre-rendered filter set,
//   page size (incl. 10 on the unfiltered list) and format, page=last, the
//   301 above 1000 on /api/v1/matrix, 501 for search=, order=, … and for
//   another JASPAR release on every list endpoint, 501 for filter sets not
//   pre-rendered, unknown format on the unfiltered list, ids, sites,
//   releases, the API root.
// - A site under a path (--base-url https://example.org/jaspar/) gets every
//   from and to under that path; Netlify reads _redirects at the root of
//   what it publishes, so copy it there (test/e2e/base-path-and-shards.test.ts).
// - A rewrite may answer 501 (and 404); a 400 turns it into a redirect.
// - Literal rules never match a path with a double slash
//   (/api/v1//matrix/MA0600.2/); placeholder rules do.
// - A rule that is not forced is skipped when the request path is a file
//   (or a folder with index.html).
// - netlify dev walks the rules for every request (about 25 µs for each
//   rule on the request's path with a query).
import { INDEX_FORMATS, JASPAR_RELEASE_YEARS, SITES_FORMATS, VIEW_FORMAT_SIZES, FILTER_COMBINATIONS } from '../routes/table.ts';
import { FORMAT_IDS, DEFAULT_FORMAT, type FormatId } from '../formats/registry.ts';
import { FLAT, type Layout } from '../routes/shard.ts';
import type { CompiledRoute } from '../routes/compile.ts';
import {
  API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, PAGE_SIZES, ROOT_DIR, ROUTES, detailDir, errorPaths, fileName, indexDir, listDir, outputPath, releaseDir,
  queryString, sitesApiDir, unsupportedPath, versionsDir, type FilterKey, type Filters,
} from '../routes/urls.ts';

export interface RedirectRule {
  from: string;
  query?: Record<string, string>;
  to: string;
  /** 200 rewrite, 301 redirect, 404/501 error rewrites. */
  status: 200 | 301 | 404 | 501;
  force: boolean;
}

export interface RoutingInput {
  /** Pages of the unfiltered list at the default page size. */
  pageCount: number;
  /** The mirrored release (release=<year>). */
  year: number;
  /** The release's folder layout (routes/shard.ts); flat when absent. */
  layout?: Layout;
  /** The shard folders of a sharded layout (routes/shard.ts shardsOf). */
  shards?: readonly string[];
  /** The path the site lives under ("" at the host's root, "/jaspar"): every rule's from and to start with it. */
  root?: string;
  /** The site's other releases (each a whole site under its prefix, "/releases/2026"); their query URLs need the edge function. */
  held?: readonly { year: number; prefix: string }[];
}

/** Query parameters of the API: a query URL under another release's path asks for something no file answers without the edge function. */
const API_PARAMS = [...new Set(['format', 'page', 'page_size', 'release', 'callback', ...FILTER_KEYS, ...UNSUPPORTED_PARAMS])];

export { MAX_PAGE_SIZE, PAGE_SIZE_ALIASES, UNSUPPORTED_PARAMS } from '../routes/table.ts';
import { MAX_PAGE_SIZE, PAGE_SIZE_ALIASES, UNSUPPORTED_PARAMS } from '../routes/table.ts';
import { ABSENT_ENDPOINTS, absentBody, absentPath } from '../routes/urls.ts';
/** Formats whose file is index.<format>.txt: one placeholder rule (format=:format → index.:format.txt) answers them all. */
export const TEXT_FORMATS: readonly FormatId[] = FORMAT_IDS.filter((f) => fileName(f) === `index.${f}.txt`);
/** The file name of every text format, with the format as a placeholder ("index.:format.txt"). */
const TEXT_FILE = fileName(TEXT_FORMATS[0]).replace(TEXT_FORMATS[0], ':format');

/** Netlify's advice: under 10,000 rules, best under 1,000 (README, scripts/count-rules.ts, test/hosting/rules.test.ts). */
export const RULE_BUDGET = 1_000;

type Query = Record<string, string>;

/** A list endpoint and the folder layout of its pages. */
interface ListFamily {
  from: string;
  /** The filter a path placeholder stands for (/api/v1/collections/:collection → collection). */
  pathFilter?: FilterKey;
  /** The filter combinations the query may add. */
  combos: readonly (readonly FilterKey[])[];
  /** The folder of a page: the page size and the page may be placeholders. */
  dir: (filters: Filters, pageSize: number | string, page: string) => string;
  /** Formats the list has at all. */
  formats: readonly FormatId[];
  /** page=last (DRF) and the default page size named explicitly (page_size=10): the unfiltered matrix list only (see the header). */
  exactDefault?: { pageCount: number };
  /** Page sizes above the maximum redirect to it (see the header: which lists). */
  aliases: boolean;
}

/** The page size placeholder: not ":page_size", which Netlify fills as ":page" + "_size" (placeholders are replaced as text, in no
 *  particular order: see placeholderClash). */
const SIZE = ':size';

/** A rule's parameters in one order (filters, page_size, page, format) to read _redirects by; Netlify ignores the order. */
const QUERY_ORDER: readonly string[] = [...FILTER_KEYS, 'page_size', 'page', 'format'];
const ordered = (query: Query): Query => Object.fromEntries(Object.entries(query).sort(([a], [b]) => QUERY_ORDER.indexOf(a) - QUERY_ORDER.indexOf(b)));

const placeholders = (keys: readonly FilterKey[]): Filters => Object.fromEntries(keys.map((k) => [k, `:${k}`]));

/** The JSON error bodies the rules point at (path → body), written by the build. */
export function errorFiles(input: Pick<RoutingInput, 'year' | 'held'>): [string, string][] {
  const supported = `Supported: format, page, page_size (${PAGE_SIZES.join(', ')}; larger values answer as ${MAX_PAGE_SIZE}), ` +
    `release=${input.year}, and the filters collection, tax_group, tax_id and version=latest, alone or as collection + tax_group + version. ` +
    'See /api/v1/live-api/ for what this mirror answers.';
  const files: [string, string][] = UNSUPPORTED_PARAMS.map((param) => [
    unsupportedPath(`param-${param}`),
    JSON.stringify({ detail: `This static mirror of the JASPAR API cannot answer the parameter "${param}": its responses are pre-rendered files. ${supported}${param === 'search' || param === 'name' ? ' To find matrices by name, use /search/.' : ''}` }),
  ]);
  files.push([unsupportedPath('filters'), JSON.stringify({ detail: `This static mirror has not pre-rendered this combination of filters. ${supported}` })]);
  files.push([unsupportedPath('page-size'), JSON.stringify({ detail: `This static mirror has not pre-rendered this page_size. ${supported}` })]);
  const sizes = (Object.entries(VIEW_FORMAT_SIZES) as [FormatId, readonly number[]][]).filter(([, s]) => s.length).map(([f, s]) => `${f}: ${s.join(', ')}`).join('; ');
  files.push([unsupportedPath('format-page-size'), JSON.stringify({ detail: `This static mirror has not pre-rendered this format at this page_size for filtered lists or page sizes other than ${DEFAULT_PAGE_SIZE}. Pre-rendered page sizes by format: ${sizes}. The whole release in each text format: /download/.` })]);
  files.push([unsupportedPath('sites-format'), JSON.stringify({ detail: `Binding sites are pre-rendered as ${SITES_FORMATS.join(' and ')} only.` })]);
  const heldYears = [input.year, ...(input.held ?? []).map((h) => h.year)].sort();
  const releases = heldYears.length === 1 ? `release ${heldYears[0]}` : `releases ${heldYears.slice(0, -1).join(', ')} and ${heldYears[heldYears.length - 1]}`;
  files.push([unsupportedPath('release'), JSON.stringify({ detail: `This static mirror serves JASPAR ${releases} only (${heldYears.map((y) => `release=${y}`).join(', ')}).` })]);
  for (const h of input.held ?? []) {
    files.push([unsupportedPath(`release-${h.year}`), JSON.stringify({
      detail: `JASPAR ${h.year} is answered here by its path URLs under ${h.prefix}/ (for example ${h.prefix}${LIST}/page/1/index.json, ${h.prefix}${LIST}/<matrix_id>/index.json); ` +
        `release=${h.year} and other query URLs of that release need the edge function (netlify.toml), which this deploy does not run.`,
    })]);
  }
  files.push([unsupportedPath('bed-list'), JSON.stringify({ detail: `format=bed is pre-rendered for the unfiltered matrix list at page_size=${DEFAULT_PAGE_SIZE} only. The binding sites of one matrix: /api/v1/sites/<matrix_id>/ or /download/bed_files/<matrix_id>.bed.` })]);
  return [...files.map(([p, body]): [string, string] => [p, `${body}\n`]), ...ABSENT_ENDPOINTS.map((a): [string, string] => [absentPath(a.path), absentBody(a.what)])];
}

/** Minimal filter sets no combination of the family holds: any request that has one is unsupported. */
function forbiddenSets(family: ListFamily): FilterKey[][] {
  const allowed = (set: FilterKey[]) => !set.includes(family.pathFilter as FilterKey) && family.combos.some((c) => set.every((k) => c.includes(k)));
  const forbidden: FilterKey[][] = [];
  const keys = [...FILTER_KEYS];
  for (let mask = 1; mask < 1 << keys.length; mask++) {
    const set = keys.filter((_, i) => mask & (1 << i));
    if (allowed(set)) continue;
    if (forbidden.some((f) => f.every((k) => set.includes(k)))) continue;
    forbidden.push(set);
  }
  return forbidden;
}

/**
 * The rules of one list endpoint. Errors first (unsupported parameters,
 * other releases, filter sets no file answers), then the data rules ordered
 * by how many parameters they name, most first: a request is then answered
 * by the rule naming exactly its parameters (the ones the rules know; others
 * are ignored), since every other rule that matches it names fewer. Among
 * rules naming the same parameters, literal values come before placeholders
 * (page=last before page=:page, page_size=5000 and page_size=10 before
 * page_size=:page_size, format=json before format=:format).
 */
function listFamilyRules(family: ListFamily): RedirectRule[] {
  const rule = (query: Query, to: string, status: RedirectRule['status'] = 200): RedirectRule =>
    ({ from: family.from, ...(Object.keys(query).length ? { query: ordered(query) } : {}), to, status, force: true });
  const errors: RedirectRule[] = [];
  for (const set of forbiddenSets(family)) errors.push(rule(Object.fromEntries(set.map((k) => [k, `:${k}`])), unsupportedPath('filters'), 501));

  const data: RedirectRule[] = [];
  const pathFilters: Filters = family.pathFilter ? placeholders([family.pathFilter]) : {};
  const textFormats = family.formats.filter((f) => TEXT_FORMATS.includes(f));
  /** Every format by a literal rule, an unknown one 404 (exact), or the text formats by one placeholder rule. */
  const formatRules = (query: Query, dir: string, exact: boolean) => {
    for (const format of family.formats) {
      if (exact || !textFormats.includes(format)) data.push(rule({ ...query, format }, `/${outputPath(dir, format)}`));
    }
    if (exact || textFormats.length === 0) data.push(rule({ ...query, format: ':format' }, errorPaths.notFound, 404));
    else data.push(rule({ ...query, format: ':format' }, `${dir}${TEXT_FILE}`));
    data.push(rule(query, `/${outputPath(dir, DEFAULT_FORMAT)}`));
  };
  for (const combo of family.combos) {
    const filters: Filters = { ...pathFilters, ...placeholders(combo) };
    const base: Query = { ...placeholders(combo) as Query };
    const exactDefault = family.exactDefault && combo.length === 0 ? family.exactDefault : undefined;
    const pages = exactDefault ? ['last', ':page', undefined] : [':page', undefined];
    for (const page of pages) {
      const withPage: Query = page === undefined ? base : { ...base, page };
      const pageDir = page === 'last' ? String(exactDefault!.pageCount) : page ?? '1';
      if (page !== 'last') {
        if (family.aliases) {
          // Above the real maximum the real service answers page_size=1000: so does the mirror, by a redirect that keeps every parameter it names.
          for (const alias of PAGE_SIZE_ALIASES) {
            for (const query of [{ ...withPage, page_size: alias, format: ':format' }, { ...withPage, page_size: alias }]) {
              data.push(rule(query, `${family.from}/${queryString({ ...query, page_size: String(MAX_PAGE_SIZE) }, { sorted: true, raw: true })}`, 301));
            }
          }
        }
        if (exactDefault) formatRules({ ...withPage, page_size: String(DEFAULT_PAGE_SIZE) }, family.dir(filters, DEFAULT_PAGE_SIZE, pageDir), true);
        formatRules({ ...withPage, page_size: SIZE }, family.dir(filters, SIZE, pageDir), false);
      }
      formatRules(withPage, family.dir(filters, DEFAULT_PAGE_SIZE, pageDir), exactDefault !== undefined);
    }
  }
  // Stable: equal counts keep the order above (literal values before placeholders).
  const named = (r: RedirectRule) => Object.keys(r.query ?? {}).length;
  data.sort((a, b) => named(b) - named(a));
  return [...errors, ...data];
}

/** A route's public path with Netlify placeholders as its values, without the trailing slash (a rule matches both). */
const netlifyPath = (route: CompiledRoute, placeholders: Record<string, string>) => route.build(placeholders).replace(/\/$/, '');

export function redirectRules(input: RoutingInput): RedirectRule[] {
  const rules: RedirectRule[] = [];
  const rewrite = (query: Query | undefined, to: string, from: string): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 200, force: true });
  const error = (query: Query | undefined, to: string, from: string): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 404, force: true });
  const layout = input.layout ?? FLAT;
  const otherReleases = JASPAR_RELEASE_YEARS.filter((year) => year !== input.year);
  const held = new Set((input.held ?? []).map((h) => h.year));

  // Endpoints of the service with no data here (TFFM, inference): 404 with why, whatever the query.
  for (const a of ABSENT_ENDPOINTS) for (const from of [a.path, `${a.path}/*`]) rules.push({ from, to: absentPath(a.path), status: 404, force: true });
  // Files that lie where a placeholder rule below would take their name for
  // an id or a collection: served as they are.
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    for (const format of INDEX_FORMATS) {
      const file = `/${outputPath(`${API}/${endpoint}/`, format)}`;
      rules.push(rewrite(undefined, file, file));
    }
  }
  rules.push(rewrite(undefined, `${LIST}/index.html`, `${LIST}/index.html`));

  // Parameters no file answers and other releases, whatever else the
  // request holds: one set of rules for the list endpoints one segment
  // under the API (/api/v1/matrix, /collections, /taxon, /species,
  // /releases; also /api/v1/live-api and the OpenAPI files, which no real
  // client asks with these parameters), one for each filtered list.
  const guards = (from: string) => {
    for (const param of UNSUPPORTED_PARAMS) rules.push({ from, query: { [param]: ':value' }, to: unsupportedPath(`param-${param}`), status: 501, force: true });
    for (const year of otherReleases) rules.push({ from, query: { release: String(year) }, to: unsupportedPath(held.has(year) ? `release-${year}` : 'release'), status: 501, force: true });
  };
  guards(`${API}/:endpoint`);
  // Another release's site (/releases/2026/): its path URLs are files; a query URL there (which its bodies
  // link) would get the folder's page for people, other data: refused, unless the edge function answers it.
  // format=api alone is a page for people, which its folder's index.html is (the pages link matrices and
  // versions so; list pages they link by path): after the other parameters' rules, before format's.
  for (const h of input.held ?? []) {
    for (const param of API_PARAMS.filter((p) => p !== 'format')) rules.push({ from: `${h.prefix}${API}/*`, query: { [param]: ':value' }, to: unsupportedPath(`release-${h.year}`), status: 501, force: true });
    rules.push({ from: `${h.prefix}${API}/*`, query: { format: 'api' }, to: `${h.prefix}${API}/:splat`, status: 200, force: true });
    rules.push({ from: `${h.prefix}${API}/*`, query: { format: ':value' }, to: unsupportedPath(`release-${h.year}`), status: 501, force: true });
  }

  const matrixDir = (filters: Filters, size: number | string, page: string) => listDir(page, size, filters);
  // The matrix list first (netlify dev walks the rules in order for every request).
  rules.push(...listFamilyRules({ from: LIST, combos: FILTER_COMBINATIONS, dir: matrixDir, formats: FORMAT_IDS, exactDefault: { pageCount: input.pageCount }, aliases: true }));
  // The matrices of one collection, taxonomic group or species: the filtered lists.
  for (const [route, pathFilter] of [['collection', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const) {
    const from = netlifyPath(ROUTES[route], { [pathFilter]: `:${pathFilter}` });
    guards(from);
    rules.push(...listFamilyRules({
      from,
      pathFilter,
      combos: FILTER_COMBINATIONS.filter((c) => c.includes(pathFilter)).map((c) => c.filter((k) => k !== pathFilter)),
      dir: matrixDir,
      formats: FORMAT_IDS,
      aliases: false,
    }));
  }
  // The index lists themselves.
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    rules.push(...listFamilyRules({ from: `${API}/${endpoint}`, combos: [[]], dir: (_f, size, page) => indexDir(endpoint, page, size), formats: INDEX_FORMATS, aliases: false }));
  }

  // Releases, binding sites, versions and details: one rule per format with
  // the key as a placeholder, and a forced placeholder rule for requests
  // without a format (the folders also hold index.html for static hosts).
  // An unknown key rewrites to a missing file: production Netlify answers
  // 404 with /404.html ({"detail":"Not found."}); `netlify dev` sends that
  // body with status 200 (README). Literal rules per id would keep dev's
  // status but cost 10,000+ rules, and netlify dev matches a path with a
  // double slash (/api/v1//matrix/MA0600.2/) only by placeholder rules.
  const keyed = (from: string, dir: string, formats: readonly FormatId[], unsupported?: string) => {
    for (const format of FORMAT_IDS) {
      if (formats.includes(format)) rules.push(rewrite({ format }, `${dir}${fileName(format)}`, from));
      else if (unsupported) rules.push({ from, query: { format }, to: unsupportedPath(unsupported), status: 501, force: true });
    }
    rules.push(error({ format: ':format' }, errorPaths.notFound, from));
    rules.push(rewrite(undefined, `${dir}${fileName(DEFAULT_FORMAT)}`, from));
  };
  keyed(netlifyPath(ROUTES.release, { release: ':key' }), releaseDir(':key'), INDEX_FORMATS);
  keyed(netlifyPath(ROUTES.sites, { matrix_id: ':id' }), sitesApiDir(':id'), SITES_FORMATS, 'sites-format');
  if (layout.idFolders) {
    // Sharded ids (routes/shard.ts): Netlify cannot cut a path segment, so
    // each shard is matched by its prefix and the rest of the path is the
    // splat: /api/v1/matrix/MA0004.1, /api/v1/matrix/MA0004/versions →
    // /api/v1/matrix/MA/MA0004.1/…, /api/v1/matrix/MA/MA0004/versions/….
    // The shard folders' own files (path URLs) come first, as they are.
    for (const shard of input.shards ?? []) {
      rules.push(rewrite(undefined, `${LIST}/${shard}/:splat`, `${LIST}/${shard}/*`));
      keyed(`${LIST}/${shard}*`, `${LIST}/${shard}/${shard}:splat/`, FORMAT_IDS);
    }
  } else {
    keyed(netlifyPath(ROUTES.versions, { base_id: ':id' }), versionsDir(layout, ':id'), FORMAT_IDS);
    keyed(netlifyPath(ROUTES.detail, { matrix_id: ':id' }), detailDir(layout, ':id'), FORMAT_IDS);
  }

  // The API root: /api/v1 only (a rule for "/api/v1" also matches "/api/v1/").
  for (const format of INDEX_FORMATS) rules.push(rewrite({ format }, `/${outputPath(ROOT_DIR, format)}`, API));
  rules.push(error({ format: ':format' }, errorPaths.notFound, API));
  rules.push(rewrite(undefined, `/${outputPath(ROOT_DIR, DEFAULT_FORMAT)}`, API));

  // Anything else under the API that is not a file: the real service's 404.
  // Not forced, so every existing file (path URLs) is still served.
  rules.push({ from: `${API}/*`, to: errorPaths.notFound, status: 404, force: false });
  for (const rule of rules) {
    const clash = placeholderClash(rule);
    if (clash) throw new Error(`generator/hosting/rules.ts: the rule "${printRedirects([rule]).split('\n')[1]}" names ${clash}: Netlify fills the longer one as the shorter one plus text (fix: rename a placeholder so that no name starts with another)`);
  }
  return input.root ? rules.map((r) => underRoot(r, input.root!)) : rules;
}

/** Two placeholders of one rule where one name starts with the other (":page" and ":page_size"), or undefined.
 *  Netlify replaces placeholders in the target as text, so ":page_size" became ":page"'s value + "_size" (measured on netlify dev). */
export function placeholderClash(rule: RedirectRule): string | undefined {
  const names = [...new Set([rule.from, ...Object.values(rule.query ?? {})].flatMap((text) => [...text.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1])))];
  for (const a of names) for (const b of names) if (a !== b && b.startsWith(a)) return `:${a} and :${b}`;
  return undefined;
}

/** A rule for a site served under a path: its from, and its to when it is a path, start with that path. */
function underRoot(rule: RedirectRule, root: string): RedirectRule {
  return { ...rule, from: `${root}${rule.from}`, to: rule.to.startsWith('/') ? `${root}${rule.to}` : rule.to };
}

export function printRedirects(rules: RedirectRule[]): string {
  const lines = ['# Generated by the JASPAR static API build: do not edit (generator/hosting/rules.ts).'];
  for (const r of rules) {
    const query = r.query ? Object.entries(r.query).map(([k, v]) => ` ${k}=${v}`).join('') : '';
    lines.push(`${r.from}${query} ${r.to} ${r.status}${r.force ? '!' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
